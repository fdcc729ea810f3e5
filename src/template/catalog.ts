/**
 * The template functions and their tails as the reference declares them: the name recognised before `(`, the
 * node tag, and the ordered parameter list that positional and `Name:` parameters are matched against. The
 * handlers live in functions/ (listed in functions.ts); the scanner needs only this table.
 */
export interface FuncSpec {
  name: string;
  tag: string;
  /** The declared list as written (`Body,Page,Class`); `*` takes any `key: value` or positional pairs. */
  params: string;
  paramList: string[];
  /** Only for tails: parsing of the chain stops after it. */
  last: boolean;
}

function spec(name: string, tag: string, params: string, last = false): FuncSpec {
  return { name, tag, params, paramList: params.split(','), last };
}

export const FUNCTIONS = new Map<string, FuncSpec>(
  [
    spec('AddToolButton', 'addtoolbutton', 'Title,Icon,Page,PageParams'),
    spec('Address', 'address', 'Wallet'),
    spec('AddressToId', 'addresstoid', 'Wallet'),
    spec('And', 'and', '*'),
    spec('AppParam', 'apppar', 'Name,App,Index,Source,Ecosystem'),
    spec('ArrayToSource', 'arraytosource', 'Source,Data,Prefix'),
    spec('Binary', 'binary', 'AppID,Name,Account'),
    spec('Button', 'button', 'Body,Page,Class,Contract,Params,PageParams'),
    spec('Calculate', 'calculate', 'Exp,Type,Prec'),
    spec('Chart', 'chart', 'Type,Source,FieldLabel,FieldValue,Colors'),
    spec('CmpTime', 'cmptime', 'Time1,Time2'),
    spec('Code', 'code', 'Text'),
    spec('CodeAsIs', 'code', '#Text'),
    spec('Data', 'data', 'Source,Columns,Data'),
    spec('DateTime', 'datetime', 'DateTime,Format,Location'),
    spec('DBFind', 'dbfind', 'Name,Source'),
    spec('Div', 'div', 'Class,Body'),
    spec('EcosysParam', 'ecosyspar', 'Name,Index,Source,Ecosystem'),
    spec('Em', 'em', 'Body,Class'),
    spec('ForList', 'forlist', 'Source,Data,Index'),
    spec('Form', 'form', 'Class,Body'),
    spec('GetColumnType', 'columntype', 'Table,Column'),
    spec('GetHistory', 'gethistory', 'Source,Name,Id,RollbackId'),
    spec('GetVar', 'getvar', 'Name'),
    spec('Hint', 'hint', 'Icon,Title,Text'),
    spec('If', 'if', 'Condition,Body'),
    spec('Image', 'image', 'Src,Alt,Class'),
    spec('ImageInput', 'imageinput', 'Name,Width,Ratio,Format'),
    spec('Include', 'include', 'Name'),
    spec('Input', 'input', 'Name,Class,Placeholder,Type,Value,Disabled'),
    spec('InputErr', 'inputerr', '*'),
    spec('InputMap', 'inputMap', 'Name,@Value,Type,MapType'),
    spec('JsonToSource', 'jsontosource', 'Source,Data,Prefix'),
    spec('Label', 'label', 'Body,Class,For'),
    spec('LangRes', 'langres', 'Name,Lang'),
    spec('LinkPage', 'linkpage', 'Body,Page,Class,PageParams'),
    spec('Lower', 'lower', 'Text'),
    spec('Map', 'map', '@Value,MapType,Hmap'),
    spec('MenuGroup', 'menugroup', 'Title,Body,Icon'),
    spec('MenuItem', 'menuitem', 'Title,Page,PageParams,Icon,Clb'),
    spec('Money', 'money', 'Exp,Digit'),
    spec('Or', 'or', '*'),
    spec('P', 'p', 'Body,Class'),
    spec('QRcode', 'qrcode', 'Text'),
    spec('RadioGroup', 'radiogroup', 'Name,Source,NameColumn,ValueColumn,Value,Class'),
    spec('Range', 'range', 'Source,From,To,Step'),
    spec('Select', 'select', 'Name,Source,NameColumn,ValueColumn,Value,Class'),
    spec('SetTitle', 'settitle', 'Title'),
    spec('SetVar', 'setvar', 'Name,Value'),
    spec('Span', 'span', 'Body,Class'),
    spec('Strong', 'strong', 'Body,Class'),
    spec('SysParam', 'syspar', 'Name'),
    spec('Table', 'table', 'Source,Columns'),
    spec('TransactionInfo', 'txinfo', 'Hash'),
    spec('VarAsIs', 'varasis', 'Name,Value'),
  ].map((item) => [item.name, item]),
);

const style = spec('Style', 'style', 'Style');
const validate = spec('Validate', 'validate', '*');
const popup = spec('Popup', 'popup', 'Width,Header', true);

function tails(...list: FuncSpec[]): Map<string, FuncSpec> {
  return new Map(list.map((item) => [item.name, item]));
}

/** Tails by the tag of the node they follow. */
export const TAILS = new Map<string, Map<string, FuncSpec>>([
  ['addtoolbutton', tails(popup)],
  [
    'button',
    tails(
      spec('Action', 'action', 'Name,Params'),
      spec('Alert', 'alert', 'Text,ConfirmButton,CancelButton,Icon', true),
      popup,
      style,
      spec('CompositeContract', 'composite', 'Name,Data'),
      spec('ErrorRedirect', 'errorredirect', 'ErrorID,PageName,PageParams'),
    ),
  ],
  ['div', tails(style, spec('Show', 'show', 'Condition'), spec('Hide', 'hide', 'Condition'))],
  ['form', tails(style)],
  ['if', tails(spec('Else', 'else', 'Body', true), spec('ElseIf', 'elseif', 'Condition,Body'))],
  ['image', tails(style)],
  ['input', tails(validate, style)],
  ['label', tails(style)],
  ['linkpage', tails(style)],
  ['data', tails(spec('Custom', 'custom', 'Column,Body'))],
  [
    'dbfind',
    tails(
      spec('Columns', 'columns', 'Columns'),
      spec('Count', 'count', 'CountVar'),
      spec('Where', 'where', 'Where'),
      spec('WhereId', 'whereid', 'WhereId'),
      spec('Order', 'order', 'Order'),
      spec('Limit', 'limit', 'Limit'),
      spec('Offset', 'offset', 'Offset'),
      spec('Custom', 'custom', 'Column,Body'),
      spec('Vars', 'vars', 'Prefix'),
      spec('Cutoff', 'cutoff', 'Cutoff'),
    ),
  ],
  ['p', tails(style)],
  ['radiogroup', tails(validate, style)],
  ['span', tails(style)],
  ['table', tails(style)],
  ['select', tails(validate, style)],
  ['inputMap', tails(validate)],
  ['binary', tails(spec('ById', 'id', 'id'), spec('Ecosystem', 'ecosystem', 'ecosystem'))],
]);
