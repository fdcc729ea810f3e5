import type { TemplateCase } from './types';

const chain: Record<string, string> = {};
for (let i = 1; i < 20; i++) chain[`v${i}`] = `#v${i + 1}#`;
chain.v20 = 'end';

/** `#var#` macros, JSON escaping, parsing edge cases and the render budgets. */
export const macroCases: TemplateCase[] = [
  {
    name: 'macro loop stays literal',
    template: 'P(#a#)',
    vars: { a: '#b#', b: '#a#' },
    want: String.raw`[{"tag":"p","children":[{"tag":"text","text":"#a#"}]}]`,
  },
  {
    name: 'macro expansion stops at 16 levels',
    template: 'P(#v1#)',
    vars: chain,
    want: String.raw`[{"tag":"p","children":[{"tag":"text","text":"#v17#"}]}]`,
  },
  {
    name: 'macro chain within 16 levels expands',
    template: 'P(#v10#)',
    vars: chain,
    want: String.raw`[{"tag":"p","children":[{"tag":"text","text":"end"}]}]`,
  },
  {
    name: 'a name longer than 64 characters stays as written',
    template: `P(#${'a'.repeat(65)}#)`,
    vars: { ['a'.repeat(65)]: 'x' },
    want: `[{"tag":"p","children":[{"tag":"text","text":"#${'a'.repeat(65)}#"}]}]`,
  },
  {
    name: 'a 64-character name expands',
    template: `P(#${'b'.repeat(64)}#)`,
    vars: { ['b'.repeat(64)]: 'x' },
    want: String.raw`[{"tag":"p","children":[{"tag":"text","text":"x"}]}]`,
  },
  {
    name: 'a # with a tab or a trailing # stays',
    template: 'P(a #\tb# c#)',
    want: '[{"tag":"p","children":[{"tag":"text","text":"a #\\tb# c#"}]}]',
  },
  {
    name: 'request variables in attributes and top-level text',
    template: 'Div(#cls#){#body#} tail #body#',
    vars: { cls: 'box', body: 'B' },
    want: String.raw`[{"tag":"div","attr":{"class":"box"},"children":[{"tag":"text","text":"B"}]},{"tag":"text","text":" tail B"}]`,
  },
  {
    name: 'a variable whose value holds macros is expanded recursively',
    template: 'P(#greet#)',
    vars: { greet: 'Hi #who#', who: 'there' },
    want: String.raw`[{"tag":"p","children":[{"tag":"text","text":"Hi there"}]}]`,
  },
  {
    name: 'Go escaping of &, U+2028, U+2029 and control characters',
    template: 'Span(a & b\u2028c\u2029d\u0001e)',
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"a \u0026 b\u2028c\u2029d\u0001e"}]}]`,
  },
  {
    name: 'escaping in attribute values and keys',
    template: 'Div(<cls> & "q"){x}',
    want: String.raw`[{"tag":"div","attr":{"class":"\u003ccls\u003e \u0026 \"q\""},"children":[{"tag":"text","text":"x"}]}]`,
  },
  {
    name: 'quotes: backquotes, doubled quotes and a quote inside',
    template: 'Span(`a "b" c`)Span("say ""hi""")Span(x "y, z" w)',
    want: String.raw`[{"tag":"span","children":[{"tag":"text","text":"a \"b\" c"}]},{"tag":"span","children":[{"tag":"text","text":"say \"hi\""}]},{"tag":"span","children":[{"tag":"text","text":"x \"y, z\" w"}]}]`,
  },
  {
    name: 'a name only counts as a call right before (',
    template: 'xDiv(a) Div (b) ADiv(c)',
    want: String.raw`[{"tag":"text","text":"xDiv(a) Div (b) ADiv(c)"}]`,
  },
  {
    name: 'digits and underscores end a function name',
    template: 'my_Div(a)2Span(b)',
    want: String.raw`[{"tag":"text","text":"my_"},{"tag":"div","attr":{"class":"a"}},{"tag":"text","text":"2"},{"tag":"span","children":[{"tag":"text","text":"b"}]}]`,
  },
  {
    name: 'an unclosed call takes the rest of the text',
    template: 'Span(a, b Div(c)',
    want: String.raw`[{"tag":"span","attr":{"class":"b Div(c)"},"children":[{"tag":"text","text":"a"}]}]`,
  },
  {
    name: 'whitespace-only text is dropped',
    template: '  \n\t Div()  \n  ',
    want: String.raw`[{"tag":"div"}]`,
  },
  {
    name: 'an empty template is an empty array',
    template: '',
    want: '[]',
  },
  {
    name: 'a brace parameter is taken verbatim',
    template: 'Hint({a, (b}, [c, d)], e)',
    want: String.raw`[{"tag":"hint","attr":{"icon":"{a, (b}","text":"e","title":"[c, d)]"}}]`,
  },
  {
    name: 'a name found inside the declared list is kept as written',
    template: 'Div(lass: x, ody: y)',
    want: String.raw`[{"tag":"div","attr":{"lass":"x","ody":"y"}}]`,
  },
  {
    name: 'unknown tail is text',
    template: 'Div(a).Hint(b)',
    want: String.raw`[{"tag":"div","attr":{"class":"a"}},{"tag":"text","text":"."},{"tag":"hint","attr":{"icon":"b"}}]`,
  },
  {
    name: '__proto__ is an ordinary name everywhere',
    template: 'SetVar(__proto__, p)Button(b, Params: "__proto__=#__proto__#")Input(n).Validate(__proto__: 1)',
    want: String.raw`[{"tag":"button","attr":{"params":{"__proto__":{"text":"p","type":"text"}}},"children":[{"tag":"text","text":"b"}]},{"tag":"input","attr":{"name":"n","validate":{"__proto__":"1"}}}]`,
  },
  {
    name: 'timeMs 0 renders without a deadline',
    template: 'Range(r, 0, 3)ForList(r){#id#}',
    limits: { timeMs: 0 },
    want: String.raw`[{"tag":"range","attr":{"columns":["id"],"data":[["0"],["1"],["2"]],"source":"r"}},{"tag":"forlist","attr":{"source":"r"},"children":[{"tag":"text","text":"0"},{"tag":"text","text":"1"},{"tag":"text","text":"2"}]}]`,
  },
  {
    name: 'heavy page: deadline passed',
    template: 'Div(x)',
    limits: { deadline: 1 },
    error: 'HeavyPageError',
  },
  {
    name: 'heavy page: too many nodes',
    template: 'Range(r, 0, 10)ForList(r){Span(#id#)}',
    limits: { maxNodes: 8 },
    error: 'HeavyPageError',
  },
  {
    name: 'heavy page: a macro that doubles itself',
    template: 'SetVar(a, 0123456789)SetVar(a, #a##a#).(a, #a##a#).(a, #a##a#).(a, #a##a#)',
    limits: { maxSize: 100 },
    error: 'HeavyPageError',
  },
  {
    name: 'heavy page: output too large',
    template: `Span(${'x'.repeat(300)})`,
    limits: { maxSize: 200 },
    error: 'HeavyPageError',
  },
  {
    name: 'heavy page: a huge Range',
    template: 'Range(r, 0, 100000000)',
    limits: { maxSize: 100_000 },
    error: 'HeavyPageError',
  },
  {
    name: 'heavy page: nested includes count against the node budget',
    template: 'Include(loop)',
    limits: { maxNodes: 3 },
    error: 'HeavyPageError',
  },
];
