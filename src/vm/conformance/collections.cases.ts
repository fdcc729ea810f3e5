import { action, expr, type ConformanceCase } from './types';

export const collectionCases: ConformanceCase[] = [
  {
    name: 'JSONEncode keeps map insertion order',
    source: expr('JSONEncode({b: 1, a: 2})'),
    expect: { result: '{"b":1,"a":2}' },
  },
  {
    name: 'map index assign and read',
    source: action('    var m map\n    m["x"] = 5\n    m["y"] = "s"\n    $result = Str(m["x"]) + m["y"]'),
    expect: { result: '5s' },
  },
  {
    name: 'missing map key reads nil',
    source: action('    var m map\n    $result = Sprintf("%v", m["nope"])'),
    expect: { result: '<nil>' },
  },
  {
    name: 'missing map key equals nil',
    source: action('    var m map\n    $result = m["k"] == nil'),
    expect: { result: 'true' },
  },
  {
    name: 'array grows past its end with nils',
    source: action('    var a array\n    a[3] = 1\n    $result = Str(a)'),
    expect: { result: '[<nil> <nil> <nil> 1]' },
  },
  {
    name: 'array may grow to index 1000000',
    source: action('    var a array\n    a[1000000] = 1\n    $result = Len(a)'),
    expect: { result: '1000001' },
  },
  {
    name: 'array index beyond 1000000 fails',
    source: action('    var a array\n    a[1000001] = 1'),
    expect: { error: { type: 'panic', message: 'the index is out of range' } },
  },
  {
    name: 'reading past the end of an array fails',
    source: action('    var a array\n    a = [1, 2]\n    $result = a[2]'),
    expect: { error: { type: 'panic', message: 'index out of range' } },
  },
  {
    name: 'nested literals',
    source: expr('JSONEncode({a: {b: [1, 2]}, c: [true, nil]})'),
    expect: { result: '{"a":{"b":[1,2]},"c":[true,null]}' },
  },
  {
    name: 'keyed element inside an array literal makes a map',
    source: expr('Str([a: 1, 2])'),
    expect: { result: '[map[a:1] 2]' },
  },
  {
    name: '$name map keys keep the dollar',
    source: expr('JSONEncode({$x: 1})'),
    expect: { result: '{"$x":1}' },
  },
  {
    name: 'keywords as map keys',
    source: expr('JSONEncode({if: 1, func: 2, "quoted key": 3})'),
    expect: { result: '{"if":1,"func":2,"quoted key":3}' },
  },
  {
    name: 'literal elements may be variables and $vars',
    source: action('    var a int\n    a = 7\n    $b = "x"\n    $result = JSONEncode([a, $b, {k: a}])'),
    expect: { result: '[7,"x",{"k":7}]' },
  },
  {
    name: 'map literal spanning lines',
    source: action(
      '    $result = JSONEncode({\n      a: 1,\n      b: [\n        2,\n        3\n      ]\n    })',
    ),
    expect: { result: '{"a":1,"b":[2,3]}' },
  },
  {
    name: 'Append returns a new array',
    source: action('    var a, b array\n    a = [1]\n    b = Append(a, 2)\n    $result = Str(a) + Str(b)'),
    expect: { result: '[1][1 2]' },
  },
  {
    name: 'GetMapKeys in insertion order',
    source: expr('Join(GetMapKeys({z: 1, a: 2, m: 3}), ",")'),
    expect: { result: 'z,a,m' },
  },
  {
    name: 'SortedKeys',
    source: expr('Join(SortedKeys({z: 1, a: 2, m: 3}), ",")'),
    expect: { result: 'a,m,z' },
  },
  { name: 'Len of map', source: expr('Len({a: 1, b: 2})'), expect: { result: '2' } },
  {
    name: 'map index must be a string',
    source: action('    var m map\n    m[1] = 2'),
    expect: { error: { type: 'panic', message: 'index of map cannot be type int64' } },
  },
  {
    name: 'array index must be an int',
    source: action('    var a array\n    a["x"] = 2'),
    expect: { error: { type: 'panic', message: 'index of array cannot be type string' } },
  },
  {
    name: 'a container cannot be put into itself',
    source: action('    var m map\n    m["self"] = m'),
    expect: { error: { type: 'panic', message: 'self assignment' } },
  },
  {
    name: 'indexing a string is not supported',
    source: action('    var s string\n    s = "abc"\n    $result = s[0]'),
    expect: { error: { type: 'panic', message: "Type string doesn't support indexing", exact: true } },
  },
  {
    name: '$var map index assignment',
    source: action('    $m = {}\n    $m["a"] = 1\n    $m["b"] = [1]\n    $result = JSONEncode($m)'),
    expect: { result: '{"a":1,"b":[1]}' },
  },
  {
    name: '$var array index read',
    source: action('    $a = [10, 20, 30]\n    $result = $a[1] + $a[2]'),
    expect: { result: '50' },
  },
  {
    name: 'map size limit',
    source: action(
      '    var m map\n    var i int\n    while i <= 100000 {\n      m[Str(i)] = i\n      i = i + 1\n    }',
    ),
    fuelLimit: 100_000_000,
    expect: { error: { type: 'panic', message: 'the maxumim length of map' } },
  },
  {
    name: 'JSONDecode sorts object keys and yields floats',
    source: expr('Str(JSONDecode(`{"b":1,"a":[1,2.5]}`))'),
    expect: { result: 'map[a:[1 2.5] b:1]' },
  },
  { name: 'JSONDecode numbers are floats', source: expr('JSONDecode("1.5") + 1'), expect: { result: '2.5' } },
  { name: 'JSONDecode string', source: expr('JSONDecode(`"x<y"`)'), expect: { result: 'x<y' } },
  {
    name: 'JSONDecode invalid input',
    source: expr('JSONDecode("{")'),
    expect: { error: { type: 'panic', message: 'unexpected end of JSON input', exact: true } },
  },
  {
    name: 'JSONDecode of an empty text',
    source: expr('JSONDecode("")'),
    expect: { error: { type: 'panic', message: 'unexpected end of JSON input', exact: true } },
  },
  {
    name: 'JSONDecode names the first character that cannot be there, as Go does',
    source: expr('JSONDecode(`{"a" 1}`)'),
    expect: { error: { type: 'panic', message: "invalid character '1' after object key", exact: true } },
  },
  {
    name: 'JSONDecode of text after the value',
    source: expr('JSONDecode("[1] x")'),
    expect: {
      error: { type: 'panic', message: "invalid character 'x' after top-level value", exact: true },
    },
  },
  {
    name: 'JSONEncode does not escape <>& (reference unescapes them)',
    source: expr('JSONEncode("<a&b>")'),
    expect: { result: '"<a&b>"' },
  },
  {
    name: 'JSONEncode escapes quotes and control characters',
    source: expr('JSONEncode("a\\"b\\n")'),
    expect: { result: '"a\\"b\\n"' },
  },
  {
    name: 'JSONEncode of money is a string',
    source: action('    var m money\n    m = Money("125")\n    $result = JSONEncode({m: m})'),
    expect: { result: '{"m":"125"}' },
  },
  {
    name: 'JSONEncode of bytes is base64',
    source: expr('JSONEncode(StringToBytes("hi"))'),
    expect: { result: '"aGk="' },
  },
  {
    name: 'JSONEncode of floats like Go',
    source: action(
      '    var big, small float\n    big = 1000000.0 * 1000000.0 * 1000000000.0\n    small = 0.0000001 * 1.0\n    $result = JSONEncode([1.5, big, small, 2.0, 0.000001])',
    ),
    expect: { result: '[1.5,1e+21,1e-7,2,0.000001]' },
  },
  {
    name: 'JSONEncode of nil and bools',
    source: expr('JSONEncode([nil, true, false])'),
    expect: { result: '[null,true,false]' },
  },
  {
    name: 'JSONEncodeIndent',
    source: expr('JSONEncodeIndent({a: [1, 2], b: {}}, "  ")'),
    expect: { result: '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {}\n}' },
  },
];
