import type { TemplateCase } from './types';

/** Functions, tails and language labels beyond the reference's own pairs. */
export const functionCases: TemplateCase[] = [
  {
    name: 'LangRes in the request language and a given one',
    template: 'LangRes(hello)|LangRes(hello, fr)|LangRes(nothing)',
    want: String.raw`[{"tag":"text","text":"Hello"},{"tag":"text","text":"|Bonjour"},{"tag":"text","text":"|nothing"}]`,
  },
  {
    name: '$label$ inside parameters',
    template: 'Span($hello$ and $green$)',
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"Hello and Green"}]}]`,
  },
  {
    name: '$label$ picks xx-yy before xx',
    template: 'Span($hello$)',
    vars: { lang: 'en-GB,en;q=0.9' },
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"Hello, mate"}]}]`,
  },
  {
    name: '$label$ falls back to en',
    template: 'Span($hello$)',
    vars: { lang: 'es' },
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"Hello"}]}]`,
  },
  {
    name: '$label$ in another language',
    template: 'Span($green$)',
    vars: { lang: 'de-DE' },
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"Grün"}]}]`,
  },
  {
    name: '$label$ with an empty translation uses another',
    template: 'Span($empty_en$)',
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"Hola"}]}]`,
  },
  {
    name: '$label$ unknown stays, free text is not translated',
    template: '$hello$ Span($unknown$ $with space$)',
    want: String.raw`[{"tag":"text","text":"$hello$ "},{"tag":"span","children":[{"tag":"text","text":"$unknown$ $with space$"}]}]`,
  },
  {
    name: '$label$ of another ecosystem',
    template: 'Span($@2hello$)',
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"Hello from two"}]}]`,
  },
  {
    name: '$label$ in an attribute is escaped',
    template: 'Div($title$)',
    want: String.raw`[{"tag":"div","attr":{"class":"Members \u003clist\u003e"}}]`,
  },
  {
    name: 'MenuGroup keeps the untranslated title as its name',
    template:
      'MenuGroup($hello$, Icon: home){MenuItem(Title: Members, Page: members, PageParams: "id=1", Icon: user, Clb: true)}',
    want: String.raw`[{"tag":"menugroup","attr":{"icon":"home","name":"$hello$","title":"Hello"},"children":[{"tag":"menuitem","attr":{"clb":"true","icon":"user","page":"members","pageparams":{"id":{"text":"1","type":"text"}},"title":"Members"}}]}]`,
  },
  {
    name: 'DateTime default format from the language resource',
    template: 'DateTime(2017-11-07T17:51:08)',
    want: String.raw`[{"tag":"text","text":"07.11.2017 17:51"}]`,
  },
  {
    name: 'DateTime default format in French',
    template: 'DateTime(2017-11-07 17:51:08)',
    vars: { lang: 'fr' },
    want: String.raw`[{"tag":"text","text":"2017/11/07"}]`,
  },
  {
    name: 'DateTime of a date only, Unix seconds and a format',
    template: 'DateTime(2020-02-29, YYYY-MM-DD HH:MI:SS)|DateTime(abc)|DateTime(86400, DD/MM/YY)',
    want: String.raw`[{"tag":"text","text":"2020-02-29 00:00:00"},{"tag":"text","text":"|"},{"tag":"text","text":"|02/01/70"}]`,
  },
  {
    name: 'DateTime of a day out of range',
    template: 'DateTime(2019-02-30T10:00:00)',
    want: String.raw`[{"tag":"text","text":"parsing time \"2019-02-30T10:00:00\": day out of range"}]`,
  },
  {
    name: 'DateTime parse errors name the field',
    template:
      'DateTime(2017/11/07)|DateTime(2017-13-01)|DateTime(2017-1-07)|DateTime(2017-11-07 25:00)|DateTime(2017-11-07 7:05:00)',
    want: String.raw`[{"tag":"text","text":"parsing time \"2017/11/07T00:00:00\" as \"2006-01-02T15:04:05\": cannot parse \"/11/07T00:00:00\" as \"-\""},{"tag":"text","text":"|parsing time \"2017-13-01T00:00:00\": month out of range"},{"tag":"text","text":"|parsing time \"2017-1-071T00:00:00\" as \"2006-01-02T15:04:05\": cannot parse \"1-071T00:00:00\" as \"01\""},{"tag":"text","text":"|parsing time \"2017-11-07T25:00:00\": hour out of range"},{"tag":"text","text":"|parsing time \"2017-11-07T7:05:000\": extra text: \"0\""}]`,
  },
  {
    name: 'CmpTime',
    template: 'CmpTime(2020-01-01, 2019-12-31)CmpTime(2020-01-01 10:00:00, 2020-01-01T10:00:00)CmpTime(1, 2)',
    want: String.raw`[{"tag":"text","text":"10-1"}]`,
  },
  {
    name: 'Calculate precedence and int division',
    template: 'Calculate(2+3*4)|Calculate(10/3)|Calculate(7-2-1)|Calculate(Exp: 9223372036854775807+1)',
    want: String.raw`[{"tag":"text","text":"14"},{"tag":"text","text":"|3"},{"tag":"text","text":"|4"},{"tag":"text","text":"|-9223372036854775808"}]`,
  },
  {
    name: 'Calculate float and money',
    template:
      'Calculate(10/3, float, 3)|Calculate(10/4, Type: float)|Calculate(1/3, money)|Calculate(2.675, Type: money, Prec: 2)',
    want: String.raw`[{"tag":"text","text":"3.333"},{"tag":"text","text":"|2.5"},{"tag":"text","text":"|0.3333333333333333"},{"tag":"text","text":"|2.68"}]`,
  },
  {
    name: 'Calculate errors',
    template:
      'SetVar(e, "(1+2")Calculate(2+)|Calculate(#e#)|Calculate(abc)|Calculate(5.5, Type: money, Prec: -1)|Calculate(1 2)',
    want: String.raw`[{"tag":"text","text":"wrong expression"},{"tag":"text","text":"|wrong expression"},{"tag":"text","text":"|wrong expression"},{"tag":"text","text":"|precision is negative"},{"tag":"text","text":"|wrong expression"}]`,
  },
  {
    name: 'Lower',
    template: 'SetVar(x, ÀBC)Lower(#x# Def)',
    want: String.raw`[{"tag":"text","text":"àbc def"}]`,
  },
  {
    name: 'Address and AddressToId of the request key',
    template:
      'Address()|AddressToId()|AddressToId(1833-6466-5330-0853-8266)|AddressToId(1833-6466-5330-0853-8267)',
    want: String.raw`[{"tag":"text","text":"1833-6466-5330-0853-8266"},{"tag":"text","text":"|-110277540701013350"},{"tag":"text","text":"|-110277540701013350"},{"tag":"text","text":"|0"}]`,
  },
  {
    name: 'Button Popup',
    template: 'Button(Body: b, Page: p, PageParams: "id=#key_id#").Popup(Width: 30, Header: Hi)',
    want: String.raw`[{"tag":"button","attr":{"page":"p","pageparams":{"id":{"text":"-110277540701013350","type":"text"}},"popup":{"header":"Hi","width":"30"}},"children":[{"tag":"text","text":"b"}]}]`,
  },
  {
    name: 'Popup width out of range is dropped, and Popup ends the tails',
    template: 'Button(b).Popup(Width: 200).Style(x)',
    want: String.raw`[{"tag":"button","children":[{"tag":"text","text":"b"}]},{"tag":"text","text":".Style(x)"}]`,
  },
  {
    name: 'Action with a Val parameter',
    template: 'Button(b).Action(Go, "x=Val(1),y=2")',
    want: String.raw`[{"tag":"button","attr":{"action":[{"name":"Go","params":{"x":"\u003cnil\u003e","y":"2"}}]},"children":[{"tag":"text","text":"b"}]}]`,
  },
  {
    name: 'ErrorRedirect without ErrorID and an empty Action are dropped',
    template: 'Button(b).ErrorRedirect(PageName: x).Action()',
    want: String.raw`[{"tag":"button","children":[{"tag":"text","text":"b"}]}]`,
  },
  {
    name: 'CompositeContract data with numbers and nesting',
    template: 'Button(b).CompositeContract(Name: C, Data: {"z": 1.50, "a": [true, null, 1e21]})',
    want: String.raw`[{"tag":"button","attr":{"composite":[{"name":"C","data":{"a":[true,null,1e+21],"z":1.5}}]},"children":[{"tag":"text","text":"b"}]}]`,
  },
  {
    name: 'CompositeContract with null data leaves data out',
    template: 'Button(b).CompositeContract(C, null).CompositeContract(D, [])',
    want: String.raw`[{"tag":"button","attr":{"composite":[{"name":"C"},{"name":"D","data":[]}]},"children":[{"tag":"text","text":"b"}]}]`,
  },
  {
    name: 'CompositeContract data that is not JSON: object key',
    template: 'Button(b).CompositeContract(A, {bad})',
    want: String.raw`[{"tag":"button","children":[{"tag":"text","text":"b"}]},{"tag":"text","text":"invalid character 'b' looking for beginning of object key string"}]`,
  },
  {
    name: 'CompositeContract data that is not JSON: trailing comma, missing colon, end, extra text',
    template:
      'Div(){Button(b).CompositeContract(A, [1, 2,])}Div(){Button(b).CompositeContract(A, {"a" 1})}' +
      'Div(){Button(b).CompositeContract(A, tru)}Div(){Button(b).CompositeContract(A, [1] x)}',
    want: String.raw`[{"tag":"div","children":[{"tag":"button","children":[{"tag":"text","text":"b"}]},{"tag":"text","text":"invalid character ']' looking for beginning of value"}]},{"tag":"div","children":[{"tag":"button","children":[{"tag":"text","text":"b"}]},{"tag":"text","text":"invalid character '1' after object key"}]},{"tag":"div","children":[{"tag":"button","children":[{"tag":"text","text":"b"}]},{"tag":"text","text":"unexpected end of JSON input"}]},{"tag":"div","children":[{"tag":"button","children":[{"tag":"text","text":"b"}]},{"tag":"text","text":"invalid character 'x' after top-level value"}]}]`,
  },
  {
    name: 'RadioGroup Validate and Style',
    template: 'RadioGroup(r, src, name, id, 1, cls).Validate(required: true).Style(color: red)',
    want: String.raw`[{"tag":"radiogroup","attr":{"class":"cls","name":"r","namecolumn":"name","source":"src","style":"color: red","validate":{"required":"true"},"value":"1","valuecolumn":"id"}}]`,
  },
  {
    name: 'Select Validate',
    template:
      'Select(Name: s, Source: src, NameColumn: name, ValueColumn: id).Validate(required: "yes", min: 1)',
    want: String.raw`[{"tag":"select","attr":{"name":"s","namecolumn":"name","source":"src","validate":{"min":"1","required":"yes"},"valuecolumn":"id"}}]`,
  },
  {
    name: 'Style tails of Span, P, Form, Label and LinkPage',
    template:
      'Span(s).Style(a)P(p).Style(b)Form(){x}.Style(c)Label(l, For: f).Style(d)LinkPage(go, home).Style(e)',
    want: String.raw`[{"tag":"span","attr":{"style":"a"},"children":[{"tag":"text","text":"s"}]},{"tag":"p","attr":{"style":"b"},"children":[{"tag":"text","text":"p"}]},{"tag":"form","attr":{"style":"c"},"children":[{"tag":"text","text":"x"}]},{"tag":"label","attr":{"for":"f","style":"d"},"children":[{"tag":"text","text":"l"}]},{"tag":"linkpage","attr":{"page":"home","style":"e"},"children":[{"tag":"text","text":"go"}]}]`,
  },
  {
    name: 'Style tails of Input and Select',
    template: 'Input(n).Style(w: 1).Validate(min: 2)Select(s).Style(w: 3)',
    want: String.raw`[{"tag":"input","attr":{"name":"n","style":"w: 1","validate":{"min":"2"}}},{"tag":"select","attr":{"name":"s","style":"w: 3"}}]`,
  },
  {
    name: 'Binary of another ecosystem',
    template: 'Binary().ById(5).Ecosystem(2)|Binary(Name: logo).Ecosystem(2)',
    want: String.raw`[{"tag":"text","text":"/data/1_binaries/9/data/e2e2"},{"tag":"text","text":"|"}]`,
  },
  {
    name: 'Attributes are written in sorted order',
    template: 'Input(Value: v, Name: n, Type: t, Class: c, Placeholder: p, Disabled: true)',
    want: String.raw`[{"tag":"input","attr":{"class":"c","disabled":"true","name":"n","placeholder":"p","type":"t","value":"v"}}]`,
  },
  {
    name: 'Em, Strong and Hint with classes and macros',
    template: 'SetVar(c, big)Em(e, #c#)Strong(s, #c#)Hint(i, t, Text: #c#)',
    want: String.raw`[{"tag":"em","attr":{"class":"big"},"children":[{"tag":"text","text":"e"}]},{"tag":"strong","attr":{"class":"big"},"children":[{"tag":"text","text":"s"}]},{"tag":"hint","attr":{"icon":"i","text":"big","title":"t"}}]`,
  },
  {
    name: 'ImageInput with format, AddToolButton with page params, SetTitle',
    template:
      'ImageInput(Name: img, Width: 200, Ratio: 1/1, Format: png)AddToolButton(Title: New, Icon: plus, Page: edit, PageParams: "new=1")SetTitle(Members #key_id#)',
    want: String.raw`[{"tag":"imageinput","attr":{"format":"png","name":"img","ratio":"1/1","width":"200"}},{"tag":"addtoolbutton","attr":{"icon":"plus","page":"edit","pageparams":{"new":{"text":"1","type":"text"}},"title":"New"}},{"tag":"settitle","attr":{"title":"Members -110277540701013350"}}]`,
  },
  {
    name: 'GetVar of an unknown variable and VarAsIs of unknown names',
    template: 'Span(GetVar(nope))VarAsIs(a, plain)VarAsIs(b, #nope#)P(#a#|#b#)',
    want: String.raw`[{"tag":"span"},{"tag":"p","children":[{"tag":"text","text":"plain|#nope#"}]}]`,
  },
  {
    name: 'SetVar keeps only the text of calls in its value',
    template: 'SetVar(a, Span(x)y Strong(z)w)P(#a#)',
    want: String.raw`[{"tag":"p","children":[{"tag":"text","text":"y w"}]}]`,
  },
  {
    name: 'If comparisons',
    template:
      'If(5 > 10){a}.Else{b}If(10 >= 10){c}If("a b" == a b){d}If(1.5 < 2){e}If(abc){f}If(#nothing#){g}.Else{h}If(3 != 3){i}',
    want: String.raw`[{"tag":"text","text":"b"},{"tag":"text","text":"c"},{"tag":"text","text":"d"},{"tag":"text","text":"e"},{"tag":"text","text":"f"},{"tag":"text","text":"h"}]`,
  },
  {
    name: 'If with base64 data does not compare',
    template: 'If(xx;base64==){yes}',
    want: String.raw`[{"tag":"text","text":"yes"}]`,
  },
  {
    name: 'And with a named parameter is false',
    template: 'And(x: 1, 1)Or(x: 1)',
    want: String.raw`[{"tag":"text","text":"00"}]`,
  },
  {
    name: 'ForList with its own index name and variables it leaves',
    template: 'Data(d, "v"){a\nb}ForList(Source: d, Index: n){#n#.#v#SetVar(last, #v#)}P(#last#|#v#|#n#)',
    want: String.raw`[{"tag":"data","attr":{"columns":["v"],"data":[["a"],["b"]],"source":"d","types":["text"]}},{"tag":"forlist","attr":{"index":"n","source":"d"},"children":[{"tag":"text","text":"1.a"},{"tag":"text","text":"2.b"}]},{"tag":"p","children":[{"tag":"text","text":"b||"}]}]`,
  },
  {
    name: 'JsonToSource value kinds',
    template: 'JsonToSource(j, {"a": 1.5, "b": true, "c": 1e21, "d": [1, "x"], "o": {"n": 2, "s": "t"}})',
    want: String.raw`[{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[["a","1.5"],["b","true"],["c","1e+21"],["d","[1 x]"],["o","{\"n\":%!q(float64=2),\r\n\"s\":\"t\"}"]],"source":"j","types":["text","text"]}}]`,
  },
  {
    name: 'JsonToSource of bad JSON is empty',
    template: 'JsonToSource(j, {bad})',
    want: String.raw`[{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[],"source":"j","types":["text","text"]}}]`,
  },
  {
    name: 'ArrayToSource with single quotes',
    template: "ArrayToSource(a, ['x', 'y', z])",
    want: String.raw`[{"tag":"arraytosource","attr":{"columns":["key","value"],"data":[["0","x"],["1","y"],["2","z"]],"source":"a","types":["text","text"]}}]`,
  },
  {
    name: 'Range with a step and Table of it',
    template: 'Range(Source: r, From: 1, To: 10, Step: 4)Table(r)',
    want: String.raw`[{"tag":"range","attr":{"columns":["id"],"data":[["1"],["5"],["9"]],"source":"r"}},{"tag":"table","attr":{"source":"r"}}]`,
  },
  {
    name: 'Data with a bare quote',
    template: 'Data(d, "a,b"){x,y"z}',
    want: String.raw`[{"tag":"data","attr":{"columns":["a","b"],"data":[],"error":"parse error on line 1, column 4: bare \" in non-quoted field","source":"d","types":["text","text"]}}]`,
  },
  {
    name: 'Chart and Map with macros',
    template: 'SetVar(t, line)Chart(#t#, src, x, y)Map(Value: {"lat": 1}, MapType: #t#, Hmap: 100)',
    want: String.raw`[{"tag":"chart","attr":{"fieldlabel":"x","fieldvalue":"y","source":"src","type":"line"}},{"tag":"map","attr":{"hmap":"100","maptype":"line","value":"{\"lat\": 1}"}}]`,
  },
  {
    name: 'QRcode and Code with macros',
    template: 'SetVar(u, https://x.io/?a=1&b=2)QRcode(#u#)Code(Text: "#u#")',
    want: String.raw`[{"tag":"qrcode","attr":{"text":"https://x.io/?a=1\u0026b=2"}},{"tag":"code","attr":{"text":"https://x.io/?a=1\u0026b=2"}}]`,
  },
];
