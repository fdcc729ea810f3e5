import type { TemplateCase } from './types';

/**
 * Functions that read through the port (fake-port.ts holds the data): DBFind with each tail, GetHistory,
 * parameters, snippets, binaries, column types and transactions.
 */
export const databaseCases: TemplateCase[] = [
  {
    name: 'DBFind Columns, Where, Order, Limit',
    template:
      'DBFind(members, src).Columns("name,amount").Where({amount: {$gt: 90}}).Order("amount desc").Limit(2)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","amount","id"],"data":[["Bob","250","2"],["Dave","250","4"]],"limit":"2","name":"members","order":"amount desc","source":"src","types":["text","text","text"],"where":"{amount: {$gt: 90}}"}}]`,
  },
  {
    name: 'DBFind WhereId and Vars',
    template: 'DBFind(members).WhereId(2).Columns(name).Vars(m)Span(#m_name# #m_id#)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","id"],"data":[["Bob","2"]],"name":"members","types":["text","text"],"whereid":"2"}},{"tag":"span","children":[{"tag":"text","text":"Bob 2"}]}]`,
  },
  {
    name: 'DBFind Count sets the attribute and the variable',
    template: 'DBFind(members, s).Columns(name).Where({amount: 250}).Count(total)Total: #total#',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","id"],"count":"2","data":[["Bob","2"],["Dave","4"]],"name":"members","source":"s","types":["text","text"],"where":"{amount: 250}"}},{"tag":"text","text":"Total: 2"}]`,
  },
  {
    name: 'DBFind Offset and Limit',
    template: 'DBFind(members).Columns(id).Order(id).Limit(2).Offset(1)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["id"],"data":[["2"],["3"]],"limit":"2","name":"members","offset":"1","order":"id","types":["text"]}}]`,
  },
  {
    name: 'DBFind Custom column rendered per row',
    template: 'DBFind(members, src).Columns("name").WhereId(1).Custom(hello){Span(Hi #name#)}',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","id","hello"],"data":[["Alice","1","[{\"tag\":\"span\",\"children\":[{\"tag\":\"text\",\"text\":\"Hi Alice\"}]}]"]],"name":"members","source":"src","types":["text","text","tags"],"whereid":"1"}}]`,
  },
  {
    name: 'DBFind Custom column with an empty body result is null',
    template: 'DBFind(members).Columns(id).WhereId(2).Custom(c){SetVar(x, 1)}',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["id","c"],"data":[["2","null"]],"name":"members","types":["text","tags"],"whereid":"2"}}]`,
  },
  {
    name: 'DBFind Cutoff and binary columns become links',
    template: 'DBFind(members).Columns("note,avatar").WhereId(1).Cutoff(note)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["note","avatar","id"],"cutoff":"note","data":[["{\"link\":\"/data/1_members/1/note/h55\",\"title\":\"A long note about Alice that goe\"}","{\"link\":\"/data/1_members/1/avatar/hash-aa11\",\"title\":\"hash-aa11\"}","1"]],"name":"members","types":["long_text","blob","text"],"whereid":"1"}}]`,
  },
  {
    name: 'DBFind NULL cells are empty and text is HTML-escaped',
    template: 'DBFind(members).Columns(name,note).Where({id: {$in: [2,3]}})',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","note","id"],"data":[["Bob","short","2"],["Carol \u003cadmin\u003e","","3"]],"name":"members","types":["text","text","text"],"where":"{id: {$in: [2,3]}}"}}]`,
  },
  {
    name: 'DBFind JSON path column',
    template: 'DBFind(members).Columns("name,data->city").WhereId(2)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","data.city","id"],"data":[["Bob","Oslo","2"]],"name":"members","types":["text","text","text"],"whereid":"2"}}]`,
  },
  {
    name: 'DBFind Columns as a list',
    template: 'DBFind(members).Columns([name, amount]).WhereId(4)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","amount","id"],"data":[["Dave","250","4"]],"name":"members","types":["text","text","text"],"whereid":"4"}}]`,
  },
  {
    name: 'DBFind without read permission shows Access denied',
    template: 'DBFind(secret, s)Div(){after}',
    want: String.raw`[{"tag":"text","text":"Access denied"},{"tag":"div","children":[{"tag":"text","text":"after"}]}]`,
  },
  {
    name: 'DBFind rejects a plain-text Where',
    template: 'DBFind(members).Where("id=1")',
    want: String.raw`[{"tag":"text","text":"Where has wrong format"}]`,
  },
  {
    name: 'DBFind rejects a Where list',
    template: 'DBFind(members).Where([id, 1])',
    want: String.raw`[{"tag":"text","text":"Where has wrong format"}]`,
  },
  {
    name: 'DBFind Where with a doubled comma',
    template: 'DBFind(members).Where({id: 1,, name: x})',
    want: String.raw`[{"tag":"text","text":"unexpected comma"}]`,
  },
  {
    name: 'DBFind empty Where object reads every row',
    template: 'DBFind(members).Columns(id).Where({})',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["id"],"data":[["1"],["2"],["3"],["4"]],"name":"members","types":["text"],"where":"{}"}}]`,
  },
  {
    name: 'DBFind without a name does nothing',
    template: 'DBFind().Columns(id)',
    want: '[]',
  },
  {
    name: 'DBFind source in ForList',
    template:
      'DBFind(members, m).Columns(name).Where({amount: {$lt: 100}})ForList(m){Span(#name#:#m_index#)}',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","id"],"data":[["Carol \u003cadmin\u003e","3"]],"name":"members","source":"m","types":["text","text"],"where":"{amount: {$lt: 100}}"}},{"tag":"forlist","attr":{"source":"m"},"children":[{"tag":"span","children":[{"tag":"text","text":"Carol \u003cadmin\u003e:1"}]}]}]`,
  },
  {
    name: 'DBFind Where with a macro',
    template: 'SetVar(min, 200)DBFind(members).Columns(name).Where({amount: {$gte: #min#}})',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","id"],"data":[["Bob","2"],["Dave","4"]],"name":"members","types":["text","text"],"where":"{amount: {$gte: 200}}"}}]`,
  },
  {
    name: 'DBFind of another ecosystem table',
    template: 'DBFind(@2items).Columns(title)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["title","id"],"data":[["Eco two item","7"]],"name":"@2items","types":["text","text"]}}]`,
  },
  {
    name: 'DBFind limit over the maximum',
    template: 'DBFind(members).Columns(id).Limit(20000).Order(id desc)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["id"],"data":[["4"],["3"],["2"],["1"]],"limit":"20000","name":"members","order":"id desc","types":["text"]}}]`,
  },
  {
    name: 'DBFind of a missing table shows the error',
    template: 'DBFind(nothing)',
    want: String.raw`[{"tag":"text","text":"relation \"1_nothing\" does not exist"}]`,
  },
  {
    name: 'DBFind with no rows has no types',
    template: 'DBFind(members, e).Columns(name).WhereId(99)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","id"],"data":[],"name":"members","source":"e","types":[],"whereid":"99"}}]`,
  },
  {
    name: 'DBFind Order as an object',
    template: 'DBFind(members).Columns(name).Order({amount: -1, id: 1}).Limit(1)',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","id"],"data":[["Bob","2"]],"limit":"1","name":"members","order":"{amount: -1, id: 1}","types":["text","text"]}}]`,
  },
  {
    name: 'DBFind all columns and a zero Count',
    template: 'DBFind(members).Where({name: Zed}).Count(n)#n#',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["id","name","amount","note","avatar","data"],"count":"0","data":[],"name":"members","types":[],"where":"{name: Zed}"}},{"tag":"text","text":"0"}]`,
  },
  {
    name: 'DBFind Vars with a Custom column',
    template: 'DBFind(members).Columns(name).WhereId(3).Custom(tag){Strong(#name#)}.Vars(p)Div(){#p_tag#}',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","id","tag"],"data":[["Carol \u003cadmin\u003e","3","[{\"tag\":\"strong\",\"children\":[{\"tag\":\"text\",\"text\":\"Carol \\u003cadmin\\u003e\"}]}]"]],"name":"members","types":["text","text","tags"],"whereid":"3"}},{"tag":"div","children":[{"tag":"text","text":"[{\"tag\":\"strong\",\"children\":[{\"tag\":\"text\",\"text\":\"Carol \\u003cadmin\\u003e\"}]}]"}]}]`,
  },
  {
    name: 'DBFind and Table of its source',
    template: 'DBFind(members, src).Columns(name).WhereId(1)Table(src, "Name=name").Style(.t {})',
    want: String.raw`[{"tag":"dbfind","attr":{"columns":["name","id"],"data":[["Alice","1"]],"name":"members","source":"src","types":["text","text"],"whereid":"1"}},{"tag":"table","attr":{"columns":[{"Name":"name","Title":"Name"}],"source":"src","style":".t {}"}}]`,
  },
  {
    name: 'GetHistory of a row',
    template: 'GetHistory(src, members, 1)',
    want: String.raw`[{"tag":"gethistory","attr":{"columns":["id","name","amount","note","avatar","data"],"data":[["1","Alicia","90","","","{}"],["1","Ali","80","old","","{}"]],"id":"1","name":"members","source":"src","types":["text","text","text","text","text","text"]}}]`,
  },
  {
    name: 'GetHistory up to a rollback',
    template: 'GetHistory(Source: h, Name: members, Id: 1, RollbackId: 3)',
    want: String.raw`[{"tag":"gethistory","attr":{"columns":["id","name","amount","note","avatar","data"],"data":[["1","Alicia","90","","","{}"]],"id":"1","name":"members","rollbackid":"3","source":"h","types":["text","text","text","text","text","text"]}}]`,
  },
  {
    name: 'GetHistory of a missing table',
    template: 'GetHistory(h, nothing, 1)',
    want: String.raw`[{"tag":"text","text":"relation \"1_nothing\" does not exist"}]`,
  },
  {
    name: 'EcosysParam value and index',
    template: 'EcosysParam(money_digit)/EcosysParam(colors, 2)/EcosysParam(colors, 9)/EcosysParam(missing)',
    want: String.raw`[{"tag":"text","text":"2"},{"tag":"text","text":"/Green"},{"tag":"text","text":"/"},{"tag":"text","text":"/"}]`,
  },
  {
    name: 'EcosysParam of another ecosystem',
    template: 'Span(EcosysParam(colors, Ecosystem: 2))',
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"cyan,magenta"}]}]`,
  },
  {
    name: 'EcosysParam as a source',
    template: 'EcosysParam(Name: colors, Source: col)ForList(col){#name#}',
    want: String.raw`[{"tag":"data","attr":{"columns":["id","name"],"data":[["1","red"],["2","Green"],["3","blue"]],"source":"col","types":["text","text"]}},{"tag":"forlist","attr":{"source":"col"},"children":[{"tag":"text","text":"red"},{"tag":"text","text":"Green"},{"tag":"text","text":"blue"}]}]`,
  },
  {
    name: 'EcosysParam read error shows its text',
    template: 'EcosysParam(broken)',
    want: String.raw`[{"tag":"text","text":"pq: database is unavailable"}]`,
  },
  {
    name: 'AppParam value, index and missing app',
    template: 'AppParam(roles, 1)|AppParam(roles, 1, 2)|AppParam(title)|AppParam(Name: title, App: 2)',
    want: String.raw`[{"tag":"text","text":"admin,developer,user"},{"tag":"text","text":"|developer"},{"tag":"text","text":"|"},{"tag":"text","text":"|Shop"}]`,
  },
  {
    name: 'AppParam as a source',
    template: 'AppParam(Name: roles, App: 1, Source: r)',
    want: String.raw`[{"tag":"data","attr":{"columns":["id","name"],"data":[["1","admin"],["2","developer"],["3","user"]],"source":"r","types":["text","text"]}}]`,
  },
  {
    name: 'SysParam',
    template: 'SysParam(max_block_size)-SysParam(unknown)-SysParam()',
    want: String.raw`[{"tag":"text","text":"67108864"},{"tag":"text","text":"-"},{"tag":"text","text":"-"}]`,
  },
  {
    name: 'Include a snippet with the page variables',
    template: 'SetVar(name, World)Include(greeting)',
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"Hello World"}]}]`,
  },
  {
    name: 'Include nested snippets',
    template: 'SetVar(name, you)Include(nested)',
    want: String.raw`[{"tag":"div","attr":{"class":"outer"},"children":[{"tag":"span","children":[{"tag":"text","text":"Hello you"}]}]}]`,
  },
  {
    name: 'Include stops after five levels',
    template: 'Include(loop)Div(){done}',
    want: String.raw`[{"tag":"div","children":[{"tag":"text","text":"done"}]}]`,
  },
  {
    name: 'Include of a missing snippet',
    template: 'Include(missing)',
    want: String.raw`[{"tag":"text","text":"Inlcude missing has not been found"}]`,
  },
  {
    name: 'Include from another ecosystem, an empty one, and variables it sets',
    template: 'Include(@2greeting)Include(empty)Include(with_var)P(#from_snippet#)',
    want: String.raw`[{"tag":"em","children":[{"tag":"text","text":"eco two"}]},{"tag":"p","children":[{"tag":"text","text":"yes"}]}]`,
  },
  {
    name: 'Binary by app, name and account, and ById',
    template: 'Binary(1, logo, 0000-0000-0000-0000-0001)|Binary().ById(5)|Binary().ById(6)',
    want: String.raw`[{"tag":"text","text":"/data/1_binaries/5/data/d41d8cd9"},{"tag":"text","text":"|/data/1_binaries/5/data/d41d8cd9"},{"tag":"text","text":"|"}]`,
  },
  {
    name: 'Image source from Binary',
    template: 'Image(Src: Binary().ById(5), Alt: logo)',
    want: String.raw`[{"tag":"image","attr":{"alt":"logo","src":"/data/1_binaries/5/data/d41d8cd9"}}]`,
  },
  {
    name: 'GetColumnType',
    template: 'GetColumnType(members, amount)|GetColumnType(members, avatar) GetColumnType(members, zzz)',
    want: String.raw`[{"tag":"text","text":"number"},{"tag":"text","text":"|byteacolumn zzz of members does not exist"}]`,
  },
  {
    name: 'TransactionInfo',
    template: 'Div(){TransactionInfo(abcd)}TransactionInfo(ffff)',
    want: String.raw`[{"tag":"div","children":[{"tag":"text","text":"{\"block\":\"12\",\"contract\":\"@1NewPage\",\"params\":{\"Name\":\"home\"}}"}]},{"tag":"text","text":"Item not found"}]`,
  },
  {
    name: 'Money with the ecosystem digits',
    template: 'Money(12345)|Money(NULL)|Money(5, 0)',
    want: String.raw`[{"tag":"text","text":"123.45"},{"tag":"text","text":"|0"},{"tag":"text","text":"|5"}]`,
  },
  {
    name: 'Money with ecosystem 2 digits',
    template: 'Money(12345)',
    vars: { ecosystem_id: '2' },
    want: String.raw`[{"tag":"text","text":"1.2345"}]`,
  },
  {
    name: 'Money without ecosystem digits uses 12',
    template: 'Money(12345)',
    vars: { ecosystem_id: '3' },
    want: String.raw`[{"tag":"text","text":"0.000000012345"}]`,
  },
  {
    name: 'Money of 30 and of 31 digits',
    template: `Money(${'9'.repeat(30)}, 28)|Money(${'9'.repeat(31)}, 2)`,
    want: String.raw`[{"tag":"text","text":"99.9999999999999999999999999999"},{"tag":"text","text":"|invalid money value"}]`,
  },
  {
    name: 'Money errors',
    template: `Money(1.5)|Money(abc, 2)|Money(${'9'.repeat(103)}, 2)`,
    want: String.raw`[{"tag":"text","text":"wrong money"},{"tag":"text","text":"|wrong money"},{"tag":"text","text":"|invalid money value"}]`,
  },
];
