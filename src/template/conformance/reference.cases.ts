import type { TemplateCase } from './types';

/**
 * Template → tree pairs whose expected bytes are the reference node's (its template and content tests, restated
 * as data). They run with the variable `mytest` = `Span(test)`, as there, and need no database.
 */
const vars = { mytest: 'Span(test)' };

const list: Array<[string, string, string]> = [
  [
    'action with SetVar macro',
    'SetVar("test", "123")Button(Body: "Test").Action("Test", "test=hello,test2=#test#")',
    String.raw`[{"tag":"button","attr":{"action":[{"name":"Test","params":{"test":"hello","test2":"123"}}]},"children":[{"tag":"text","text":"Test"}]}]`,
  ],
  [
    'action named params',
    'SetVar(val,"ok")Button(Body: OK).Action(Run, Params: "param1=#val#")',
    String.raw`[{"tag":"button","attr":{"action":[{"name":"Run","params":{"param1":"ok"}}]},"children":[{"tag":"text","text":"OK"}]}]`,
  ],
  [
    'two actions, one without params',
    'SetVar(my, "value,par2")Button(Body: addpage).Action(Name: Open, Params: "param1=2,param2=#my#").Action(Editor)',
    String.raw`[{"tag":"button","attr":{"action":[{"name":"Open","params":{"param1":"2","param2":"value,par2"}},{"name":"Editor"}]},"children":[{"tag":"text","text":"addpage"}]}]`,
  ],
  [
    'If with Or/And, true side',
    'SetVar(group_access, "[zz]")If(#group_access# != "[]"){test}.Else{ok}\n\tIf(Or(#group_access# != "[]", false)){testOr}.Else{okOr}\n\tIf(And(#group_access# != "[]", true)){testAnd}.Else{okAnd}',
    String.raw`[{"tag":"text","text":"test"},{"tag":"text","text":"testOr"},{"tag":"text","text":"testAnd"}]`,
  ],
  [
    'If with Or/And, else side',
    'SetVar(group_access, "[]")If(#group_access# != "[]"){test}.Else{ok}\n\tIf(Or(#group_access# != "[]", false)){testOr}.Else{okOr}\n\tIf(And(#group_access# != "[]", true)){testAnd}.Else{okAnd}',
    String.raw`[{"tag":"text","text":"ok"},{"tag":"text","text":"okOr"},{"tag":"text","text":"okAnd"}]`,
  ],
  [
    'ArrayToSource empty',
    'ArrayToSource(src, )',
    String.raw`[{"tag":"arraytosource","attr":{"columns":["key","value"],"data":[],"source":"src","types":["text","text"]}}]`,
  ],
  [
    'ArrayToSource of objects from a variable',
    'SetVar(arr, [1, "hello", {"val": "123000000000000000000", "OK":{"time": "1545788052"}, "type": "emission"}, {"val": "555000000000000000000", "arr":["time", "1545788125"], "type": "emission"}, 23])\n\tArrayToSource(src, #arr#)',
    String.raw`[{"tag":"arraytosource","attr":{"columns":["key","value"],"data":[["0","1"],["1","hello"],["2","{\"val\": \"123000000000000000000\", \"OK\":{\"time\": \"1545788052\"}, \"type\": \"emission\"}"],["3","{\"val\": \"555000000000000000000\", \"arr\":[\"time\", \"1545788125\"], \"type\": \"emission\"}"],["4","23"]],"source":"src","types":["text","text"]}}]`,
  ],
  [
    'ArrayToSource of quoted strings',
    'ArrayToSource(dat, [ "hello","1 2 3", "my name" , "is Billy" ])',
    String.raw`[{"tag":"arraytosource","attr":{"columns":["key","value"],"data":[["0","hello"],["1","1 2 3"],["2","my name"],["3","is Billy"]],"source":"dat","types":["text","text"]}}]`,
  ],
  [
    'unknown and malformed macros',
    'P(#twxt# #some text# 2#some_par#1#toxt#)',
    String.raw`[{"tag":"p","children":[{"tag":"text","text":" #some text# 21"}]}]`,
  ],
  [
    'VarAsIs keeps macros',
    'SetVar(tmp, 0#mytest#1)VarAsIs(txt, tmp)VarAsIs(txt2, #tmp#)VarAsIs(txt3, Some #mytest#)\n\t VarAsIs(txt4, #mytest# #tmp# #txt#)\n\t  P(#txt# #txt2# #txt3# #txt4#)',
    String.raw`[{"tag":"p","children":[{"tag":"text","text":"0Span(test)1 0Span(test)1 Some #mytest# #mytest# #tmp# #txt#"}]}]`,
  ],
  [
    'SetVar repeated with .( and unicode',
    'SetVar(txt, "те").(txt1, "ещё")P(#txt# #txt1#)',
    String.raw`[{"tag":"p","children":[{"tag":"text","text":"те ещё"}]}]`,
  ],
  [
    'Span repeated with .(',
    'Span(Body: "те").(Body: "ещё")',
    String.raw`[{"tag":"span","children":[{"tag":"text","text":"те"}]},{"tag":"span","children":[{"tag":"text","text":"ещё"}]}]`,
  ],
  [
    'AddressToId with and without wallet',
    'SetVar(mykey,0266-5397-0542-4815-0876)Div(){AddressToId(#mykey#)=AddressToId()}',
    String.raw`[{"tag":"div","children":[{"tag":"text","text":"2665397054248150876"},{"tag":"text","text":"="}]}]`,
  ],
  [
    'ErrorRedirect twice',
    'SetVar(t,7)\n\t\tButton(Body: Span(my#t#)).ErrorRedirect(PageParams: name=Val(#t#val), PageName: "v#t#", ErrorID: myerr).ErrorRedirect(PageParams: par=#t#, PageName: "qqq", ErrorID: err1)',
    String.raw`[{"tag":"button","attr":{"errredirect":{"err1":{"errorid":"err1","pagename":"qqq","pageparams":{"par":{"text":"7","type":"text"}}},"myerr":{"errorid":"myerr","pagename":"v7","pageparams":{"name":{"params":["7val"],"type":"Val"}}}}},"children":[{"tag":"span","children":[{"tag":"text","text":"my7"}]}]}]`,
  ],
  [
    'Div Hide and Show',
    'SetVar(my,Val)Div().Hide(Test = #my#, Test2=qwerty).Show(Param=#my##my#)',
    String.raw`[{"tag":"div","attr":{"hide":[{"Test":"Val","Test2":"qwerty"}],"show":[{"Param":"ValVal"}]}}]`,
  ],
  [
    'Div Show twice',
    'SetVar(my,Val)Div().Show(Test = #my#, Test2=qwerty).Show(Param=#my##my#)',
    String.raw`[{"tag":"div","attr":{"show":[{"Test":"Val","Test2":"qwerty"},{"Param":"ValVal"}]}}]`,
  ],
  [
    'Div Show once',
    'SetVar(my,Val)Div().Show(Test = #my#, Test2=qwerty)',
    String.raw`[{"tag":"div","attr":{"show":[{"Test":"Val","Test2":"qwerty"}]}}]`,
  ],
  [
    'Div body and Show',
    'SetVar(my, My Value)Div(){qqq}.Show(Test=#my#)',
    String.raw`[{"tag":"div","attr":{"show":[{"Test":"My Value"}]},"children":[{"tag":"text","text":"qqq"}]}]`,
  ],
  [
    'ArrayToSource with prefix',
    'SetVar(outer, [{"obj1_key1": "obj1_value1"},{"obj2_key2": "obj2_value2"}])\n\tArrayToSource(outer, #outer#, p1)',
    String.raw`[{"tag":"arraytosource","attr":{"columns":["p1_key","p1_value"],"data":[["0","{\"obj1_key1\": \"obj1_value1\"}"],["1","{\"obj2_key2\": \"obj2_value2\"}"]],"prefix":"p1","source":"outer","types":["text","text"]}}]`,
  ],
  [
    'JsonToSource in ForList with If',
    'SetVar(json, {"title": "Are you agree to send money?", "params": {"ggg1": "ggg2"}})\n\tJsonToSource(src_json, #json#, a1)\n\t\n\tForList(src_json){\n\t\tIf(#a1_key# == params){\n\t\t\tJsonToSource(src_params, #a1_value#, a2)\n\t\t\tTable(src_params)\n\t\t}\n\t}',
    String.raw`[{"tag":"jsontosource","attr":{"columns":["a1_key","a1_value"],"data":[["params","{\"ggg1\":\"ggg2\"}"],["title","Are you agree to send money?"]],"prefix":"a1","source":"src_json","types":["text","text"]}},{"tag":"forlist","attr":{"source":"src_json"},"children":[{"tag":"jsontosource","attr":{"columns":["a2_key","a2_value"],"data":[["ggg1","ggg2"]],"prefix":"a2","source":"src_params","types":["text","text"]}},{"tag":"table","attr":{"source":"src_params"}}]}]`,
  ],
  [
    'JsonToSource and Table',
    'SetVar(json, {"title": "some text", "params": {"ggg1": "ggg2"}})\n\tJsonToSource(src_params, #json#)\n\tTable(src_params)\n\t',
    String.raw`[{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[["params","{\"ggg1\":\"ggg2\"}"],["title","some text"]],"source":"src_params","types":["text","text"]}},{"tag":"table","attr":{"source":"src_params"}}]`,
  ],
  [
    'nested ForList over ArrayToSource and JsonToSource',
    'SetVar(outer, [{"obj1_key1": "obj1_value1"},{"obj2_key2": "obj2_value2"}])\n\tArrayToSource(outer, #outer#)\n\tForList(outer){\n\t\tJsonToSource(inner, #value#)\n\t\tForList(inner){\n\t\t\tDiv(){\n\t\t\t\t#key#:#value#\n\t\t\t}\n\t\t}\n\t}',
    String.raw`[{"tag":"arraytosource","attr":{"columns":["key","value"],"data":[["0","{\"obj1_key1\": \"obj1_value1\"}"],["1","{\"obj2_key2\": \"obj2_value2\"}"]],"source":"outer","types":["text","text"]}},{"tag":"forlist","attr":{"source":"outer"},"children":[{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[["obj1_key1","obj1_value1"]],"source":"inner","types":["text","text"]}},{"tag":"forlist","attr":{"source":"inner"},"children":[{"tag":"div","children":[{"tag":"text","text":"obj1_key1:obj1_value1"}]}]},{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[["obj2_key2","obj2_value2"]],"source":"inner","types":["text","text"]}},{"tag":"forlist","attr":{"source":"inner"},"children":[{"tag":"div","children":[{"tag":"text","text":"obj2_key2:obj2_value2"}]}]}]}]`,
  ],
  [
    'Hint with object parameters and macros',
    'SetVar(ok,"My:string,value")Hint( [col1,col2] , {"test": Test val, ok: #ok#}, \n\t   {"mypar1":"myval1, 2", mypar2: [1, #ok#], "qqq": {name: John, "lastName": "Smith"}} )',
    String.raw`[{"tag":"hint","attr":{"icon":"[col1,col2]","text":"{\"mypar1\":\"myval1, 2\", mypar2: [1, My:string,value], \"qqq\": {name: John, \"lastName\": \"Smith\"}}","title":"{\"test\": Test val, ok: My:string,value}"}}]`,
  ],
  [
    'Hint with object parameters',
    'Hint( [col1,col2] , {"test": Test val}, \n\t   {"mypar1":"myval1, 2", mypar2: [1, 20], "qqq": {name: John, "lastName": "Smith"}} )',
    String.raw`[{"tag":"hint","attr":{"icon":"[col1,col2]","text":"{\"mypar1\":\"myval1, 2\", mypar2: [1, 20], \"qqq\": {name: John, \"lastName\": \"Smith\"}}","title":"{\"test\": Test val}"}}]`,
  ],
  [
    'Hint named',
    'Hint(Title: some text, Icon: default, Text: This is hint text)',
    String.raw`[{"tag":"hint","attr":{"icon":"default","text":"This is hint text","title":"some text"}}]`,
  ],
  [
    'AddToolButton Popup',
    'AddToolButton(Title: Open, Page: default).Popup(Width: 50, Header: Test)',
    String.raw`[{"tag":"addtoolbutton","attr":{"page":"default","popup":{"header":"Test","width":"50"},"title":"Open"}}]`,
  ],
  [
    'Input values with text that looks like calls',
    'SetVar(ok, OK)Input(Type: text, Value: #ok# Now(YY))Input(Type:text, Value: #ok# Some text)',
    String.raw`[{"tag":"input","attr":{"type":"text","value":"OK Now(YY)"}},{"tag":"input","attr":{"type":"text","value":"OK Some text"}}]`,
  ],
  [
    'unknown function names stay text',
    'SetVar(format, MMYY)Now(#format#,1 day)Now()',
    String.raw`[{"tag":"text","text":"Now(MMYY,1 day)Now()"}]`,
  ],
  [
    'Money with digits',
    'SetVar(digit, 2)Money(12345, #digit#)=Money(#digit#, #digit#)=Money(123456000, 7)=Money(12, -3)',
    String.raw`[{"tag":"text","text":"123.45"},{"tag":"text","text":"=0.02"},{"tag":"text","text":"=12.3456"},{"tag":"text","text":"=12000"}]`,
  ],
  [
    'Code and CodeAsIs',
    'SetVar(textc, test)Code(P(Some #textc#))CodeAsIs(P(No Some #textc#))Div(){CodeAsIs(Text:#textc#)}',
    String.raw`[{"tag":"code","attr":{"text":"P(Some test)"}},{"tag":"code","attr":{"text":"P(No Some #textc#)"}},{"tag":"div","children":[{"tag":"code","attr":{"text":"#textc#"}}]}]`,
  ],
  [
    'GetVar and macro timing',
    'SetVar("Name1", "Value1")GetVar("Name1")#Name1#Span(#Name1#)SetVar("Name1", "Value2")GetVar("Name1")#Name1#\n\t\tSetVar("Name1", "Value3")#Name1#',
    String.raw`[{"tag":"text","text":"Value1"},{"tag":"text","text":"Value1"},{"tag":"span","children":[{"tag":"text","text":"Value1"}]},{"tag":"text","text":"Value2"},{"tag":"text","text":"Value2\n\t\t"},{"tag":"text","text":"Value3"}]`,
  ],
  [
    'Data with a short record is an error',
    'Data(src1, "name,value,cost"){\n\t    1, 1, 0\n\t    2, 2\n\t    3, 3, 4\n\t    5, 6\n\t}',
    String.raw`[{"tag":"data","attr":{"columns":["name","value","cost"],"data":[],"error":"record on line 2: wrong number of fields","source":"src1","types":["text","text","text"]}}]`,
  ],
  [
    'Data with an empty Custom',
    'Data(Columns: "a"){a\n\t\tb}.Custom(){}',
    String.raw`[{"tag":"data","attr":{"columns":["a"],"data":[["a"],["b"]],"types":["text"]}}]`,
  ],
  [
    'ElseIf chain with SetVar',
    'SetVar("Condition4", 1)If(GetVar(Condition4) == 2){Span(1)}.ElseIf(GetVar(Condition4) == 1){\n\t\tSpan(2)SetVar("Condition4", 2)}.ElseIf(GetVar(Condition3) == 2){Span(3)\n\t\t}.Else{\tSetVar("Condition4", 5)Span(else)}Span(Last#Condition4#)',
    String.raw`[{"tag":"span","children":[{"tag":"text","text":"2"}]},{"tag":"span","children":[{"tag":"text","text":"Last2"}]}]`,
  ],
  [
    'ElseIf stops at the first true branch',
    'SetVar("Condition3", 1)If(#Condition3# == 2){Span(1)\n\t\t}.ElseIf(#Condition3# == 1){Span(2)SetVar("Condition3", 2)\n\t\t}.ElseIf(#Condition3# == 2){Span(3)\n\t\t}.Else{Span(else)}',
    String.raw`[{"tag":"span","children":[{"tag":"text","text":"2"}]}]`,
  ],
  [
    'nested And/Or',
    'SetVar("Condition1", 1).("Condition2", 0.3)\n\t\tIf(And(GetVar("Condition2") == 0.3, And(GetVar("Condition1") == 1, Or(GetVar("Condition2") == 0, GetVar("Condition1") == 0)))){\n\t\t\t\t\t\tSpan(fail)\n\t\t\t\t\t}.Else{\n\t\t\t\t\t\tSpan(success)\n\t\t\t\t\t}',
    String.raw`[{"tag":"span","children":[{"tag":"text","text":"success"}]}]`,
  ],
  [
    'If with a negative number',
    'SetVar("Condition5", 1)If(GetVar("Condition5") < -1){fail}.Else{success}',
    String.raw`[{"tag":"text","text":"success"}]`,
  ],
  [
    'Chart colors, Address, false, Table columns',
    'SetVar(name, -5728238900021).(no,false)Chart(Colors: #name#)Address(#name#)If(#no#){ERR}.Else{OK}Table(my,#name#=name)',
    String.raw`[{"tag":"chart","attr":{"colors":["-5728238900021"]}},{"tag":"text","text":"1844-6738-3454-7065-1595"},{"tag":"text","text":"OK"},{"tag":"table","attr":{"columns":[{"Name":"name","Title":"-5728238900021"}],"source":"my"}}]`,
  ],
  [
    'Range forward, empty, backward, zero step',
    'SetVar(from, 5).(to, -4).(step,-2)Range(my,0,5)ForList(my){#my_index#=#id#}Range(none,20,0)Range(Source: neg, From: #from#, To: #to#, Step: #step#)ForList(neg){#neg_index#=#id#}Range(zero,0,5,0)',
    String.raw`[{"tag":"range","attr":{"columns":["id"],"data":[["0"],["1"],["2"],["3"],["4"]],"source":"my"}},{"tag":"forlist","attr":{"source":"my"},"children":[{"tag":"text","text":"1=0"},{"tag":"text","text":"2=1"},{"tag":"text","text":"3=2"},{"tag":"text","text":"4=3"},{"tag":"text","text":"5=4"}]},{"tag":"range","attr":{"columns":["id"],"data":[],"source":"none"}},{"tag":"range","attr":{"columns":["id"],"data":[["5"],["3"],["1"],["-1"],["-3"]],"source":"neg"}},{"tag":"forlist","attr":{"source":"neg"},"children":[{"tag":"text","text":"1=5"},{"tag":"text","text":"2=3"},{"tag":"text","text":"3=1"},{"tag":"text","text":"4=-1"},{"tag":"text","text":"5=-3"}]},{"tag":"range","attr":{"columns":["id"],"data":[],"source":"zero"}}]`,
  ],
  [
    'Button with contract, params, page params and Alert',
    'SetVar(t,7)\n\t\tButton(Body: Span(my#t#, class#t#), PageParams: name=Val(#t#val),Contract: con#t#, Params: "T1=v#t#").Alert(Icon: icon#t#, Text: Alert #t#)',
    String.raw`[{"tag":"button","attr":{"alert":{"icon":"icon7","text":"Alert 7"},"contract":"con7","pageparams":{"name":{"params":["7val"],"type":"Val"}},"params":{"T1":{"text":"v7","type":"text"}}},"children":[{"tag":"span","attr":{"class":"class7"},"children":[{"tag":"text","text":"my7"}]}]}]`,
  ],
  [
    'JsonToSource of an array, a variable and nested values',
    'SetVar(json,{"p1":"v1", "p2":"v2"})JsonToSource(none, ["q","p"])JsonToSource(pv, #json#)\n\t JsonToSource(dat, {"param":"va lue", "obj": {"sub":"one"}, "arr":["one"], "empty": null})',
    String.raw`[{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[],"source":"none","types":["text","text"]}},{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[["p1","v1"],["p2","v2"]],"source":"pv","types":["text","text"]}},{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[["arr","[one]"],["empty",""],["obj","{\"sub\":\"one\"}"],["param","va lue"]],"source":"dat","types":["text","text"]}}]`,
  ],
  [
    'ArrayToSource of a variable, a list and an object',
    'SetVar(arr,[1, 2, 3])ArrayToSource(src2, #arr#)ArrayToSource(src1, ["q","p"])ArrayToSource(src1, {"k":"v"})',
    String.raw`[{"tag":"arraytosource","attr":{"columns":["key","value"],"data":[["0","1"],["1","2"],["2","3"]],"source":"src2","types":["text","text"]}},{"tag":"arraytosource","attr":{"columns":["key","value"],"data":[["0","q"],["1","p"]],"source":"src1","types":["text","text"]}},{"tag":"arraytosource","attr":{"columns":["key","value"],"data":[["0","{\"k\":\"v\"}"]],"source":"src1","types":["text","text"]}}]`,
  ],
  [
    'ForList over ArrayToSource with JsonToSource',
    'ArrayToSource(arr, [{"k1":"v1"},{"k2":"v2"}])ForList(arr){JsonToSource(json, #value#)}',
    String.raw`[{"tag":"arraytosource","attr":{"columns":["key","value"],"data":[["0","{\"k1\":\"v1\"}"],["1","{\"k2\":\"v2\"}"]],"source":"arr","types":["text","text"]}},{"tag":"forlist","attr":{"source":"arr"},"children":[{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[["k1","v1"]],"source":"json","types":["text","text"]}},{"tag":"jsontosource","attr":{"columns":["key","value"],"data":[["k2","v2"]],"source":"json","types":["text","text"]}}]}]`,
  ],
  [
    'CompositeContract',
    'Button(Body: addpage).CompositeContract().CompositeContract(NewPage, [{"param1": "Value 1"},\n\t\t{"param2": "Value 2", "param3" : "#mytest#"}]).CompositeContract(EditPage)',
    String.raw`[{"tag":"button","attr":{"composite":[{"name":"NewPage","data":[{"param1":"Value 1"},{"param2":"Value 2","param3":"Span(test)"}]},{"name":"EditPage"}]},"children":[{"tag":"text","text":"addpage"}]}]`,
  ],
  [
    'SetVar of itself and of an unknown variable',
    'SetVar(a, 0)SetVar(a, #a#7)SetVar(where, #where# 1)Div(){#where##a#}',
    String.raw`[{"tag":"div","children":[{"tag":"text","text":" 107"}]}]`,
  ],
  [
    'quotes and HTML escaping',
    'Div(){Span(begin "You\'ve" end<hr>)}Div(Body: `"You\'ve"`)\n\t  Div(Body: "`You\'ve`")',
    String.raw`[{"tag":"div","children":[{"tag":"span","children":[{"tag":"text","text":"begin \"You've\" end\u003chr\u003e"}]}]},{"tag":"div","children":[{"tag":"text","text":"\"You've\""}]},{"tag":"div","children":[{"tag":"text","text":"` +
      '`' +
      String.raw`You've` +
      '`' +
      String.raw`"}]}]`,
  ],
  [
    'Data fewer fields than columns, ForList',
    'Data(Source: test, Columns: "a,b"){a}ForList(Source: test){#a#}',
    String.raw`[{"tag":"data","attr":{"columns":["a","b"],"data":[["a",""]],"source":"test","types":["text","text"]}},{"tag":"forlist","attr":{"source":"test"},"children":[{"tag":"text","text":"a"}]}]`,
  ],
  ['QRcode', 'QRcode(Some text)', String.raw`[{"tag":"qrcode","attr":{"text":"Some text"}}]`],
  [
    'macro values are not parsed as calls',
    'SetVar(q, q#mytest#q)Div(Class: #mytest#){#mytest# Strong(#mytest#) Div(#q#){P(Span(#mytest#))}}',
    String.raw`[{"tag":"div","attr":{"class":"Span(test)"},"children":[{"tag":"text","text":"Span(test) "},{"tag":"strong","children":[{"tag":"text","text":"Span(test)"}]},{"tag":"div","attr":{"class":"qSpan(test)q"},"children":[{"tag":"p","children":[{"tag":"span","children":[{"tag":"text","text":"Span(test)"}]}]}]}]}]`,
  ],
  [
    'If without condition, SetVar in branches',
    'If(){SetVar(false_condition, 1)Span(False)}.Else{SetVar(true_condition, 1)Span(True)} \n\t  If(true){SetVar(ok, 1)}.Else{SetVar(problem, 1)}\n\t  If(false){SetVar(if, 1)}.ElseIf(true){SetVar(elseif, 1)}.Else{SetVar(else, 1)}\n\t  Div(){\n\t\t#false_condition# #true_condition# #ok# #problem# #if# #elseif# #else#\n\t  }',
    String.raw`[{"tag":"span","children":[{"tag":"text","text":"True"}]},{"tag":"div","children":[{"tag":"text","text":" 1 1   1 "}]}]`,
  ],
  [
    'Button params with a call-like value',
    'Button(Body: addpage, \n\t\tContract: NewPage, \n\t\tParams: "Name=hello_page2, Value=Div(fefe, dbbt), Menu=default_menu, Conditions=true")',
    String.raw`[{"tag":"button","attr":{"contract":"NewPage","params":{"Conditions":{"text":"true","type":"text"},"Menu":{"text":"default_menu","type":"text"},"Name":{"text":"hello_page2","type":"text"},"Value":{"params":["fefe","dbbt"],"type":"Div"}}},"children":[{"tag":"text","text":"addpage"}]}]`,
  ],
  [
    'Button params with JSON values',
    'Button(Body: add table1, Contract: NewTable, Params: `Name=name,Columns=[{"name":"MyName","type":"varchar", "index": "1",  "conditions":"true"}, {"name":"Amount", "type":"number","index": "0", "conditions":"true"}],Permissions={"insert": "true", "update" : "true", "new_column": "true"}`)',
    String.raw`[{"tag":"button","attr":{"contract":"NewTable","params":{"Columns":{"text":"[{\"name\":\"MyName\",\"type\":\"varchar\", \"index\": \"1\",  \"conditions\":\"true\"}, {\"name\":\"Amount\", \"type\":\"number\",\"index\": \"0\", \"conditions\":\"true\"}]","type":"text"},"Name":{"text":"name","type":"text"},"Permissions":{"text":"{\"insert\": \"true\", \"update\" : \"true\", \"new_column\": \"true\"}","type":"text"}}},"children":[{"tag":"text","text":"add table1"}]}]`,
  ],
  [
    'Calculate division by zero',
    'Calculate( Exp: 342278783438/0, Type: money )Calculate( Exp: 5.2/0, Type: float )\n\tCalculate( Exp: 7/0)SetVar(moneyDigit, 2)Calculate(10/2, Type: money, Prec: #moneyDigit#)',
    String.raw`[{"tag":"text","text":"dividing by zerodividing by zerodividing by zero5"}]`,
  ],
  [
    'Calculate money',
    'SetVar(val, 2200000034343443343430000)SetVar(zero, 0)Calculate( Exp: (342278783438+5000)*(#val#-932780000), Type: money, Prec:18 )Calculate( Exp: (2+50)*(#zero#-9), Type: money )',
    String.raw`[{"tag":"text","text":"753013346318631859107508068064700000-468"}]`,
  ],
  [
    'Calculate int and float',
    'SetVar(val, 100)Calculate(10000-(34+5)*#val#)=Calculate("((10+#val#-45)*3.0-10)/4.5 + #val#", Prec: 4)',
    String.raw`[{"tag":"text","text":"6100"},{"tag":"text","text":"=141.1111"}]`,
  ],
  [
    'parentheses and braces inside bodies',
    'Span((span text), ok )Span(((span text), ok) )Div(){{My #mytest# body}}',
    String.raw`[{"tag":"span","attr":{"class":"ok"},"children":[{"tag":"text","text":"(span text)"}]},{"tag":"span","children":[{"tag":"text","text":"((span text), ok)"}]},{"tag":"div","children":[{"tag":"text","text":"{My Span(test) body}"}]}]`,
  ],
  [
    'Code keeps its text',
    'Code(P(Some text)\n Div(myclass){\n\t Span(Strong("Bold text"))\n })',
    String.raw`[{"tag":"code","attr":{"text":"P(Some text)\n Div(myclass){\n\t Span(Strong(\"Bold text\"))\n }"}}]`,
  ],
  [
    'Data Custom columns',
    'Data(Source: mysrc, Columns: "id,name", Data:\n\t\t1, First Name\n\t\t2, Second Name\n\t).Custom(custom_id){\n\t\tSetVar(Name: v, Value: Lower(#name#))\n\t\tP(Body: #v#)\n\t}.Custom(cust){\n\t\tP(Body: #v#)\n\t}Data(Columns: "name", Data:\n\t\tFirst Name\n\t\tSecond Name\n\t)',
    String.raw`[{"tag":"data","attr":{"columns":["id","name","custom_id","cust"],"data":[["1","First Name","[{\"tag\":\"p\",\"children\":[{\"tag\":\"text\",\"text\":\"first name\"}]}]","[{\"tag\":\"p\",\"children\":[{\"tag\":\"text\",\"text\":\"first name\"}]}]"],["2","Second Name","[{\"tag\":\"p\",\"children\":[{\"tag\":\"text\",\"text\":\"second name\"}]}]","[{\"tag\":\"p\",\"children\":[{\"tag\":\"text\",\"text\":\"second name\"}]}]"]],"source":"mysrc","types":["text","text","tags","tags"]}},{"tag":"data","attr":{"columns":["name"],"data":[["First Name"],["Second Name"]],"types":["text"]}}]`,
  ],
  [
    'Data Custom with a quoted name and Table',
    'Data(Source: mysrc, Columns: "id,name", Data:\n\t\t1,first\n\t\t2,second\n\t\t3,third\n\t).Custom("synthetic"){\n\t\tDiv(text-muted, #name#)\n\t}\n\tTable(Source: mysrc)',
    String.raw`[{"tag":"data","attr":{"columns":["id","name","synthetic"],"data":[["1","first","[{\"tag\":\"div\",\"attr\":{\"class\":\"text-muted\"},\"children\":[{\"tag\":\"text\",\"text\":\"first\"}]}]"],["2","second","[{\"tag\":\"div\",\"attr\":{\"class\":\"text-muted\"},\"children\":[{\"tag\":\"text\",\"text\":\"second\"}]}]"],["3","third","[{\"tag\":\"div\",\"attr\":{\"class\":\"text-muted\"},\"children\":[{\"tag\":\"text\",\"text\":\"third\"}]}]"]],"source":"mysrc","types":["text","text","tags"]}},{"tag":"table","attr":{"source":"mysrc"}}]`,
  ],
  [
    'Data quoted CSV and ForList of an unknown source',
    'Data(myforlist,"id,name",\n\t\t"1",Test message 1\n\t\t2,"Test message 2"\n\t\t3,"Test message 3"\n\t\t)ForList(nolist){Problem}ForList(myforlist){\n\t\t\tDiv(){#id#. Em(#name#)}\n\t\t}',
    String.raw`[{"tag":"data","attr":{"columns":["id","name"],"data":[["1","Test message 1"],["2","Test message 2"],["3","Test message 3"]],"source":"myforlist","types":["text","text"]}},{"tag":"forlist","attr":{"source":"myforlist"},"children":[{"tag":"div","children":[{"tag":"text","text":"1. "},{"tag":"em","children":[{"tag":"text","text":"Test message 1"}]}]},{"tag":"div","children":[{"tag":"text","text":"2. "},{"tag":"em","children":[{"tag":"text","text":"Test message 2"}]}]},{"tag":"div","children":[{"tag":"text","text":"3. "},{"tag":"em","children":[{"tag":"text","text":"Test message 3"}]}]}]}]`,
  ],
  [
    'SetTitle and AddToolButton',
    'SetTitle(My pageР)AddToolButton(Title: Open, Page: default)',
    String.raw`[{"tag":"settitle","attr":{"title":"My pageР"}},{"tag":"addtoolbutton","attr":{"page":"default","title":"Open"}}]`,
  ],
  [
    'DateTime and CmpTime',
    'DateTime(2017-11-07T17:51:08)+DateTime(2015-08-27T09:01:00,HH:MI DD.MM.YYYY)\n\t+CmpTime(2017-11-07T17:51:08,2017-11-07)CmpTime(2017-11-07T17:51:08,2017-11-07T20:22:01)CmpTime(2015-10-01T17:51:08,2015-10-01T17:51:08)=DateTime(NULL)',
    String.raw`[{"tag":"text","text":"2017-11-07 17:51:08"},{"tag":"text","text":"+09:01 27.08.2015"},{"tag":"text","text":"\n\t+1-10"},{"tag":"text","text":"="}]`,
  ],
  [
    'Input with a unicode value, Strong',
    'SetVar(pref,unicode Р)Input(Name: myid, Value: #pref#)Strong(qqq)',
    String.raw`[{"tag":"input","attr":{"name":"myid","value":"unicode Р"}},{"tag":"strong","children":[{"tag":"text","text":"qqq"}]}]`,
  ],
  [
    'ImageInput',
    'ImageInput(myimg,100,40)',
    String.raw`[{"tag":"imageinput","attr":{"name":"myimg","ratio":"40","width":"100"}}]`,
  ],
  [
    'LinkPage with page params',
    'LinkPage(My page,mypage,,"myvar1=Value 1, myvar2=Value2,myvar3=Val(myval)")',
    String.raw`[{"tag":"linkpage","attr":{"page":"mypage","pageparams":{"myvar1":{"text":"Value 1","type":"text"},"myvar2":{"text":"Value2","type":"text"},"myvar3":{"params":["myval"],"type":"Val"}}},"children":[{"tag":"text","text":"My page"}]}]`,
  ],
  [
    'Image with Style',
    'Image(/images/myimage.jpg,My photo,myclass).Style(width:100px;)',
    String.raw`[{"tag":"image","attr":{"alt":"My photo","class":"myclass","src":"/images/myimage.jpg","style":"width:100px;"}}]`,
  ],
  [
    'Data with too many fields',
    'Data(mysrc,"id,name",\n\t\t"1",John Silver,2\n\t\t2,"Mark, Smith"\n\t)',
    String.raw`[{"tag":"data","attr":{"columns":["id","name"],"data":[],"error":"record on line 2: wrong number of fields","source":"mysrc","types":["text","text"]}}]`,
  ],
  [
    'Select',
    'Select(myselect,mysrc,name,id,0,myclass)',
    String.raw`[{"tag":"select","attr":{"class":"myclass","name":"myselect","namecolumn":"name","source":"mysrc","value":"0","valuecolumn":"id"}}]`,
  ],
  [
    'Data with doubled quotes',
    'Data(mysrc,"id,name"){\n\t\t"1",John Silver\n\t\t2,"Mark, Smith"\n\t\t3,"Unknown ""Person"""\n\t\t}',
    String.raw`[{"tag":"data","attr":{"columns":["id","name"],"data":[["1","John Silver"],["2","Mark, Smith"],["3","Unknown \"Person\""]],"source":"mysrc","types":["text","text"]}}]`,
  ],
  [
    'If, ElseIf and Else with spaces before bodies',
    'If(true) {OK}.Else {false} Div(){test} If(false, FALSE).ElseIf(0) { Skip }.ElseIf(1) {Else OK\n\t\t}.Else {Fourth}If(0).Else{ALL right}',
    String.raw`[{"tag":"text","text":"OK"},{"tag":"div","children":[{"tag":"text","text":"test"}]},{"tag":"text","text":"Else OK"},{"tag":"text","text":"ALL right"}]`,
  ],
  [
    'Button with named contract params',
    'Button(Contract: MyContract, Body:My Contract, Class: myclass, Params:"Name=myid,Id=i10,Value")',
    String.raw`[{"tag":"button","attr":{"class":"myclass","contract":"MyContract","params":{"Id":{"text":"i10","type":"text"},"Name":{"text":"myid","type":"text"},"Value":{"text":"Value","type":"text"}}},"children":[{"tag":"text","text":"My Contract"}]}]`,
  ],
  [
    'plain text is HTML-escaped',
    'Simple text +=<b>bold</b>',
    String.raw`[{"tag":"text","text":"Simple text +=\u003cb\u003ebold\u003c/b\u003e"}]`,
  ],
  [
    'Div class and body',
    'Div(myclass control, Content of the Div)',
    String.raw`[{"tag":"div","attr":{"class":"myclass control"},"children":[{"tag":"text","text":"Content of the Div"}]}]`,
  ],
  [
    'text around nested Div',
    'input Div(myclass, Content Div(mypar) the Div)',
    String.raw`[{"tag":"text","text":"input "},{"tag":"div","attr":{"class":"myclass"},"children":[{"tag":"text","text":"Content "},{"tag":"div","attr":{"class":"mypar"}},{"tag":"text","text":" the Div"}]}]`,
  ],
  [
    'Inputs with empty positions',
    'Div(, Input(myid, form-control, Your name)Input(,,,text))',
    String.raw`[{"tag":"div","children":[{"tag":"input","attr":{"class":"form-control","name":"myid","placeholder":"Your name"}},{"tag":"input","attr":{"type":"text"}}]}]`,
  ],
  [
    'deeply nested named bodies',
    'Div(Class: mydiv1, Body:\n\t\t\tDiv(Class: mydiv2,\n\t\t\t\tDiv(Body:\n\t\t\t\t\tInput(Value: my default text))))',
    String.raw`[{"tag":"div","attr":{"class":"mydiv1"},"children":[{"tag":"div","attr":{"class":"mydiv2"},"children":[{"tag":"div","children":[{"tag":"input","attr":{"value":"my default text"}}]}]}]}]`,
  ],
  [
    'P, Span, Strong, Em, Label nested',
    'P(Some Span(fake(text) Strong(very Em(important Label(news)))))',
    String.raw`[{"tag":"p","children":[{"tag":"text","text":"Some "},{"tag":"span","children":[{"tag":"text","text":"fake(text) "},{"tag":"strong","children":[{"tag":"text","text":"very "},{"tag":"em","children":[{"tag":"text","text":"important "},{"tag":"label","children":[{"tag":"text","text":"news"}]}]}]}]}]}]`,
  ],
  [
    'Form with Input and Button',
    'Form(myclass, Input(myid)Button(Submit,default_page,myclass))',
    String.raw`[{"tag":"form","attr":{"class":"myclass"},"children":[{"tag":"input","attr":{"name":"myid"}},{"tag":"button","attr":{"class":"myclass","page":"default_page"},"children":[{"tag":"text","text":"Submit"}]}]}]`,
  ],
  [
    'Button Style with braces',
    'Button(My Contract,, myclass, NewEcosystem, "Name=myid,Id=i10,Value").Style( .btn {\n\t\tborder: 10px 10px;\n\t})',
    String.raw`[{"tag":"button","attr":{"class":"myclass","contract":"NewEcosystem","params":{"Id":{"text":"i10","type":"text"},"Name":{"text":"myid","type":"text"},"Value":{"text":"Value","type":"text"}},"style":".btn {\n\t\tborder: 10px 10px;\n\t}"},"children":[{"tag":"text","text":"My Contract"}]}]`,
  ],
  [
    'Style with a brace body',
    'Div(myclass)Div().Style{\n\t\t.class {\n\t\t\ttext-style: italic;\n\t\t}\n\t}\n\t\t\t\tDiv()',
    String.raw`[{"tag":"div","attr":{"class":"myclass"}},{"tag":"div","attr":{"style":".class {\n\t\t\ttext-style: italic;\n\t\t}"}},{"tag":"div"}]`,
  ],
  [
    'Label inside nested bodies',
    'Div(myclass){Div()\n\t\tP(){\n\t\t\tDiv(id){\n\t\t\t\tLabel(My #text#,myl,forname)\n\t\t\t}\n\t\t}\n\t}',
    String.raw`[{"tag":"div","attr":{"class":"myclass"},"children":[{"tag":"div"},{"tag":"p","children":[{"tag":"div","attr":{"class":"id"},"children":[{"tag":"label","attr":{"class":"myl","for":"forname"},"children":[{"tag":"text","text":"My "}]}]}]}]}]`,
  ],
  [
    'If body as a parameter',
    'SetVar(istrue, 1)If(GetVar(istrue),OK)If(GetVar(isfalse)){Skip}.Else{Span(Else OK)}',
    String.raw`[{"tag":"text","text":"OK"},{"tag":"span","children":[{"tag":"text","text":"Else OK"}]}]`,
  ],
  [
    'ElseIf with nested If',
    'If(false,First).ElseIf(0){Skip}.ElseIf(1){\n\t\tSecond Span(If(text){item})\n\t}.ElseIf(true){Third}.Else{Fourth}',
    String.raw`[{"tag":"text","text":"Second "},{"tag":"span","children":[{"tag":"text","text":"item"}]}]`,
  ],
  [
    'Button Alert',
    'Button(Page: link){My Button}.Alert(ConfirmButton: ConfBtn, CancelButton: CancelBtn, \n\t\t   Text: Alert text, Icon:myicon)',
    String.raw`[{"tag":"button","attr":{"alert":{"cancelbutton":"CancelBtn","confirmbutton":"ConfBtn","icon":"myicon","text":"Alert text"},"page":"link"},"children":[{"tag":"text","text":"My Button"}]}]`,
  ],
  [
    'Validate and InputErr',
    'Input(myid, form-control, Your name).Validate(minLength: 6, maxLength: 20)\n\tInputErr(Name: myid, minLength: minLength error)',
    String.raw`[{"tag":"input","attr":{"class":"form-control","name":"myid","placeholder":"Your name","validate":{"maxlength":"20","minlength":"6"}}},{"tag":"inputerr","attr":{"minlength":"minLength error","name":"myid"}}]`,
  ],
  [
    'MenuItem and MenuGroup',
    'MenuItem(Menu 1,page1)MenuGroup(SubMenu){\n\t\tMenuItem(Menu 2, page2)\n\t\tMenuItem(Page: page3, Title: Menu 3, Icon: person)\n\t\t}',
    String.raw`[{"tag":"menuitem","attr":{"page":"page1","title":"Menu 1"}},{"tag":"menugroup","attr":{"name":"SubMenu","title":"SubMenu"},"children":[{"tag":"menuitem","attr":{"page":"page2","title":"Menu 2"}},{"tag":"menuitem","attr":{"icon":"person","page":"page3","title":"Menu 3"}}]}]`,
  ],
  [
    'extra commas stay in the last parameter',
    'SetVar(testvalue, The, #n#, Value).(n, New).(param,"23")Span(Test value equals #testvalue#).(#param#)',
    String.raw`[{"tag":"span","children":[{"tag":"text","text":"Test value equals The, , Value"}]},{"tag":"span","children":[{"tag":"text","text":"23"}]}]`,
  ],
  [
    'And and Or values',
    'SetVar(test, mytest).(empty,0)And(0,test,0)Or(0,#test#)Or(0, And(0,0))And(0,Or(0,my,while))\n\t\tAnd(1,#mytest#)Or(#empty#, And(#empty#, line))Or(#test#==mytest)If(#empty#).Else{Div(){#mytest#}}',
    String.raw`[{"tag":"text","text":"0100101"},{"tag":"div","children":[{"tag":"text","text":"Span(test)"}]}]`,
  ],
  [
    'Address of nothing, a key and repeated',
    'Address()Span(Address(-5728238900021))Address(3467347643873).(-6258391547979339691)',
    String.raw`[{"tag":"text","text":"unknown address"},{"tag":"span","children":[{"tag":"text","text":"1844-6738-3454-7065-1595"}]},{"tag":"text","text":"0000-0003-4673-4764-38731218-8352-5257-3021-1925"}]`,
  ],
  [
    'Table columns',
    'Table(src, "ID=id,name,Wallet=wallet")',
    String.raw`[{"tag":"table","attr":{"columns":[{"Name":"id","Title":"ID"},{"Name":"name","Title":"name"},{"Name":"wallet","Title":"Wallet"}],"source":"src"}}]`,
  ],
  [
    'Chart',
    'Chart(Type: "bar", Source: src, FieldLabel: "name", FieldValue: "count", Colors: "red, green")',
    String.raw`[{"tag":"chart","attr":{"colors":["red","green"],"fieldlabel":"name","fieldvalue":"count","source":"src","type":"bar"}}]`,
  ],
  [
    'InputMap',
    'InputMap(mapName, `{"zoom":"12", "address": "some address", "area":"some area", "coords": "some cords"}`, PolyType, satelite)',
    String.raw`[{"tag":"inputMap","attr":{"@value":"{\"zoom\":\"12\", \"address\": \"some address\", \"area\":\"some area\", \"coords\": \"some cords\"}","maptype":"satelite","name":"mapName","type":"PolyType"}}]`,
  ],
  [
    'InputMap Validate',
    'InputMap(mapName, `{"zoom":"12", "address": "some address", "area":"some area", "coords": "some cords"}`, PolyType, satelite).Validate(ping: pong)',
    String.raw`[{"tag":"inputMap","attr":{"@value":"{\"zoom\":\"12\", \"address\": \"some address\", \"area\":\"some area\", \"coords\": \"some cords\"}","maptype":"satelite","name":"mapName","type":"PolyType","validate":{"ping":"pong"}}}]`,
  ],
  [
    'Map',
    'Map(Input data, satelite, 300)',
    String.raw`[{"tag":"map","attr":{"@value":"Input data","hmap":"300","maptype":"satelite"}}]`,
  ],
  [
    'DateTime with an unknown zone',
    'DateTime(DateTime: 1562032800, Location: "Location/Bad")',
    String.raw`[{"tag":"text","text":"unknown time zone Location/Bad"}]`,
  ],
  [
    'DateTime in Asia/Chongqing',
    'DateTime(DateTime: 1562032800, Location: "Asia/Chongqing")',
    String.raw`[{"tag":"text","text":"2019-07-02 10:00:00"}]`,
  ],
  [
    'DateTime in Asia/Tokyo',
    'DateTime(DateTime: 1562032800, Location: "Asia/Tokyo")',
    String.raw`[{"tag":"text","text":"2019-07-02 11:00:00"}]`,
  ],
];

const sourceList: Array<[string, string, string]> = [
  [
    'source: quotes and HTML escaping',
    'Div(){Span(begin "You\'ve" end<hr>)}',
    String.raw`[{"tag":"div","children":[{"tag":"span","children":[{"tag":"text","text":"begin \"You've\" end\u003chr\u003e"}]}]}]`,
  ],
  [
    'source: If with Else and Address',
    'If(true){Div(){Span(My text)Address()}}.Else{Div(Body: Hidden text)}',
    String.raw`[{"tag":"if","attr":{"condition":"true"},"children":[{"tag":"div","children":[{"tag":"span","children":[{"tag":"text","text":"My text"}]},{"tag":"address"}]}],"tail":[{"tag":"else","children":[{"tag":"div","children":[{"tag":"text","text":"Hidden text"}]}]}]}]`,
  ],
  [
    'source: SetVar node and unexpanded macros',
    'SetVar(mytest, myvar)Div(myclass, Span(#mytest#) Div(mypar){Span(test)}#mytest#)',
    String.raw`[{"tag":"setvar","attr":{"name":"mytest","value":"myvar"}},{"tag":"div","attr":{"class":"myclass"},"children":[{"tag":"span","children":[{"tag":"text","text":"#mytest#"}]},{"tag":"div","attr":{"class":"mypar"},"children":[{"tag":"span","children":[{"tag":"text","text":"test"}]}]},{"tag":"text","text":"#mytest#"}]}]`,
  ],
  [
    'source: DBFind Custom tail',
    'DBFind(Name: pages, Source: src).Custom(custom_col){\n\t\t\t\tSpan(Body: "test")\n\t\t\t}',
    String.raw`[{"tag":"dbfind","attr":{"name":"pages","source":"src"},"tail":[{"tag":"custom","attr":{"column":"custom_col"},"children":[{"tag":"span","children":[{"tag":"text","text":"test"}]}]}]}]`,
  ],
  [
    'source: Data Custom tail',
    'Data(Source: src).Custom(custom_col){\n\t\t\t\tSpan(Body: "test")\n\t\t\t}',
    String.raw`[{"tag":"data","attr":{"source":"src"},"tail":[{"tag":"custom","attr":{"column":"custom_col"},"children":[{"tag":"span","children":[{"tag":"text","text":"test"}]}]}]}]`,
  ],
  [
    'source: Data keeps its raw columns and data',
    'Data(myforlist,"id,name",\n\t\t\t\t\t"1",Test message 1\n\t\t\t\t\t2,"Test message 2"\n\t\t\t\t\t3,"Test message 3"\n\t\t\t\t\t)',
    String.raw`[{"tag":"data","attr":{"columns":"id,name","data":"1,Test message 1\n\t\t\t\t\t2,\"Test message 2\"\n\t\t\t\t\t3,\"Test message 3\"","source":"myforlist"}}]`,
  ],
];

const contentList: Array<[string, string, Record<string, string>, string]> = [
  [
    'request variable inside a body',
    'input Div(myclass, #mytest# Div(mypar) the Div)',
    { mytest: 'test value' },
    String.raw`[{"tag":"text","text":"input "},{"tag":"div","attr":{"class":"myclass"},"children":[{"tag":"text","text":"test value "},{"tag":"div","attr":{"class":"mypar"}},{"tag":"text","text":" the Div"}]}]`,
  ],
  [
    'request variable in top-level text',
    '#test_page# input Div(myclass, #test_page# ok) #test_page#',
    { test_page: '7' },
    String.raw`[{"tag":"text","text":"7 input "},{"tag":"div","attr":{"class":"myclass"},"children":[{"tag":"text","text":"7 ok"}]},{"tag":"text","text":" 7"}]`,
  ],
  [
    'an empty parameter name becomes the attribute ""',
    '\n\t\t\t\t\tData(src_test,"type"){\n\t\t\t\t\t\ttext\n\t\t\t\t\t}\n\t\t\t\t\tForList(src_test){\n\t\t\t\t\tIf(#type#==text){\n\t\t\t\t\t\tSpan(:#type#)\n\t\t\t\t\t}\n\t\t\t\t}',
    {},
    String.raw`[{"tag":"data","attr":{"columns":["type"],"data":[["text"]],"source":"src_test","types":["text"]}},{"tag":"forlist","attr":{"source":"src_test"},"children":[{"tag":"span","attr":{"":"text"}}]}]`,
  ],
];

export const referenceCases: TemplateCase[] = [
  {
    name: 'engines.md §4.2 example',
    template: 'input Div(myclass, #mytest#)',
    vars: { mytest: 'test value' },
    want: String.raw`[{"tag":"text","text":"input "},{"tag":"div","attr":{"class":"myclass"},"children":[{"tag":"text","text":"test value"}]}]`,
  },
  ...list.map(([name, template, want]) => ({ name, template, want, vars, bare: true })),
  ...sourceList.map(([name, template, want]) => ({ name, template, want, source: true, bare: true })),
  ...contentList.map(([name, template, extra, want]) => ({ name, template, want, vars: extra, bare: true })),
];
