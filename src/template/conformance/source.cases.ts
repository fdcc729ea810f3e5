import type { TemplateCase } from './types';

/** Source mode (`_full = 1`): each function's own node with its raw parameters, no data read, no macros. */
const list: Array<[string, string, string]> = [
  [
    'If with ElseIf and Else bodies',
    'If(#x# == 1){a}.ElseIf(#y#){b}.Else{c}',
    String.raw`[{"tag":"if","attr":{"condition":"#x# == 1"},"children":[{"tag":"text","text":"a"}],"tail":[{"tag":"elseif","attr":{"condition":"#y#"},"children":[{"tag":"text","text":"b"}]},{"tag":"else","children":[{"tag":"text","text":"c"}]}]}]`,
  ],
  [
    'Button tails stay in tail',
    'Button(Body: Go, Contract: C, Params: "a=1").CompositeContract(X, [{"a":1}]).Alert(Text: sure)',
    String.raw`[{"tag":"button","attr":{"contract":"C","params":{"a":{"text":"1","type":"text"}}},"children":[{"tag":"text","text":"Go"}],"tail":[{"tag":"composite","attr":{"data":"[{\"a\":1}]","name":"X"}},{"tag":"alert","attr":{"text":"sure"}}]}]`,
  ],
  [
    'DBFind with every tail, no query',
    'DBFind(members, src).Columns("name").Where({id: #id#}).WhereId(1).Order(name).Limit(5).Offset(1).Count(c).Vars(v).Cutoff(note)',
    String.raw`[{"tag":"dbfind","attr":{"name":"members","source":"src"},"tail":[{"tag":"columns","attr":{"columns":"name"}},{"tag":"where","attr":{"where":"{id: #id#}"}},{"tag":"whereid","attr":{"whereid":"1"}},{"tag":"order","attr":{"order":"name"}},{"tag":"limit","attr":{"limit":"5"}},{"tag":"offset","attr":{"offset":"1"}},{"tag":"count","attr":{"countvar":"c"}},{"tag":"vars","attr":{"prefix":"v"}},{"tag":"cutoff","attr":{"cutoff":"note"}}]}]`,
  ],
  [
    'inline functions become nodes',
    'EcosysParam(colors, 2)Include(greeting)Money(#x#, 2)LangRes(hello)SysParam(a)AppParam(n, 1)GetVar(v)',
    String.raw`[{"tag":"ecosyspar","attr":{"index":"2","name":"colors"}},{"tag":"include","attr":{"name":"greeting"}},{"tag":"money","attr":{"digit":"2","exp":"#x#"}},{"tag":"langres","attr":{"name":"hello"}},{"tag":"syspar","attr":{"name":"a"}},{"tag":"apppar","attr":{"app":"1","name":"n"}},{"tag":"getvar","attr":{"name":"v"}}]`,
  ],
  [
    'more inline functions become nodes',
    'Calculate(1+2)CmpTime(a, b)DateTime(2020-01-01, YYYY)Lower(A)Address(1)AddressToId(x)And(a, b)Or(c)VarAsIs(a, b)',
    String.raw`[{"tag":"calculate","attr":{"exp":"1+2"}},{"tag":"cmptime","attr":{"time1":"a","time2":"b"}},{"tag":"datetime","attr":{"datetime":"2020-01-01","format":"YYYY"}},{"tag":"lower","attr":{"text":"A"}},{"tag":"address","attr":{"wallet":"1"}},{"tag":"addresstoid","attr":{"wallet":"x"}},{"tag":"and","attr":{"0":"a","1":"b"}},{"tag":"or","attr":{"0":"c"}},{"tag":"varasis","attr":{"name":"a","value":"b"}}]`,
  ],
  [
    'ForList keeps its template as data',
    'ForList(src){Span(#x#)}',
    String.raw`[{"tag":"forlist","attr":{"data":"Span(#x#)","source":"src"}}]`,
  ],
  [
    'Div Style and Show tails',
    'Div(c){t}.Style(s).Show(a=1)',
    String.raw`[{"tag":"div","attr":{"class":"c"},"children":[{"tag":"text","text":"t"}],"tail":[{"tag":"style","attr":{"style":"s"}},{"tag":"show","attr":{"condition":"a=1"}}]}]`,
  ],
  [
    'Input Validate tail',
    'Input(n).Validate(required: true)',
    String.raw`[{"tag":"input","attr":{"name":"n"},"tail":[{"tag":"validate","attr":{"required":"true"}}]}]`,
  ],
  [
    'Table and Chart keep raw columns and colors',
    'Table(src, "A=a").Style(x)Chart(Colors: "red, blue")',
    String.raw`[{"tag":"table","attr":{"columns":"A=a","source":"src"},"tail":[{"tag":"style","attr":{"style":"x"}}]},{"tag":"chart","attr":{"colors":"red, blue"}}]`,
  ],
  [
    'Binary drops its tails',
    'Binary(Name: logo).ById(5)',
    String.raw`[{"tag":"binary","attr":{"name":"logo"}}]`,
  ],
  [
    'labels are not translated',
    'Span($hello$)MenuGroup($hello$){MenuItem(a, b)}',
    String.raw`[{"tag":"span","children":[{"tag":"text","text":"$hello$"}]},{"tag":"menugroup","attr":{"title":"$hello$"},"children":[{"tag":"menuitem","attr":{"page":"b","title":"a"}}]}]`,
  ],
  [
    'Range, JsonToSource and ArrayToSource keep their parameters',
    'Range(r, 1, #n#)JsonToSource(j, {"a": 1})ArrayToSource(a, [1, 2], p)',
    String.raw`[{"tag":"range","attr":{"from":"1","source":"r","to":"#n#"}},{"tag":"jsontosource","attr":{"data":"{\"a\": 1}","source":"j"}},{"tag":"arraytosource","attr":{"data":"[1, 2]","prefix":"p","source":"a"}}]`,
  ],
  [
    'GetHistory, GetColumnType, TransactionInfo and Binary read nothing',
    'GetHistory(h, members, 1)GetColumnType(members, id)TransactionInfo(abcd)',
    String.raw`[{"tag":"gethistory","attr":{"id":"1","name":"members","source":"h"}},{"tag":"columntype","attr":{"column":"id","table":"members"}},{"tag":"txinfo","attr":{"hash":"abcd"}}]`,
  ],
  [
    'Button Popup, ErrorRedirect and Action in tail',
    'Button(b).Action(Go, "x=1").ErrorRedirect(E, page).Popup(Width: 10)',
    String.raw`[{"tag":"button","children":[{"tag":"text","text":"b"}],"tail":[{"tag":"action","attr":{"name":"Go","params":{"x":{"text":"1","type":"text"}}}},{"tag":"errorredirect","attr":{"errorid":"E","pagename":"page"}},{"tag":"popup","attr":{"width":"10"}}]}]`,
  ],
  [
    'Image, Form, LinkPage and Select',
    'Form(f){Image(Src: #img#).Style(s)LinkPage(go, home, PageParams: "a=#b#")Select(s, src).Validate(min: 1)}',
    String.raw`[{"tag":"form","attr":{"class":"f"},"children":[{"tag":"image","attr":{"src":"#img#"},"tail":[{"tag":"style","attr":{"style":"s"}}]},{"tag":"linkpage","attr":{"page":"home","pageparams":{"a":{"text":"#b#","type":"text"}}},"children":[{"tag":"text","text":"go"}]},{"tag":"select","attr":{"name":"s","source":"src"},"tail":[{"tag":"validate","attr":{"min":"1"}}]}]}]`,
  ],
];

export const sourceCases: TemplateCase[] = list.map(([name, template, want]) => ({
  name,
  template,
  want,
  source: true,
}));
