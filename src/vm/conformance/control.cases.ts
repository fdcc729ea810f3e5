import { action, type ConformanceCase } from './types';

const side = `func side(r bool) bool {
  $n = $n + 1
  return r
}
`;

export const controlCases: ConformanceCase[] = [
  {
    name: '&& evaluates both sides',
    source:
      side +
      action('    $n = 0\n    if side(false) && side(true) {\n      $n = 100\n    }\n    $result = $n'),
    expect: { result: '2' },
  },
  {
    name: '|| evaluates both sides',
    source:
      side +
      action('    $n = 0\n    if side(true) || side(false) {\n      $n = $n + 10\n    }\n    $result = $n'),
    expect: { result: '12' },
  },
  {
    name: 'falsy values',
    source: action(
      '    var s string\n    $c = 0\n    if "" { $c = $c + 1 }\n    if [] { $c = $c + 1 }\n    if {} { $c = $c + 1 }\n    if 0.0 { $c = $c + 1 }\n    if Money(0) { $c = $c + 1 }\n    if nil { $c = $c + 1 }\n    if 0 { $c = $c + 1 }\n    if s { $c = $c + 1 }\n    if false { $c = $c + 1 }\n    $result = $c',
    ),
    expect: { result: '0' },
  },
  {
    name: 'truthy values',
    source: action(
      '    $c = 0\n    if "a" { $c = $c + 1 }\n    if [0] { $c = $c + 1 }\n    if {a: 0} { $c = $c + 1 }\n    if 0.5 { $c = $c + 1 }\n    if Money(1) { $c = $c + 1 }\n    if -1 { $c = $c + 1 }\n    $result = $c',
    ),
    expect: { result: '6' },
  },
  {
    name: 'while with break',
    source: action(
      '    var i int\n    while true {\n      i = i + 1\n      if i == 5 {\n        break\n      }\n    }\n    $result = i',
    ),
    expect: { result: '5' },
  },
  {
    name: 'while with continue sums odd numbers',
    source: action(
      '    var i, s int\n    while i < 10 {\n      i = i + 1\n      if i / 2 * 2 == i {\n        continue\n      }\n      s = s + i\n    }\n    $result = s',
    ),
    expect: { result: '25' },
  },
  {
    name: 'nested loops with inner break',
    source: action(
      '    var i, j, n int\n    while i < 3 {\n      j = 0\n      while true {\n        if j == 2 { break }\n        j = j + 1\n        n = n + 1\n      }\n      i = i + 1\n    }\n    $result = n',
    ),
    expect: { result: '6' },
  },
  {
    name: 'if elif else chain',
    source: action(
      '    var x int\n    x = 2\n    if x == 1 {\n      $result = "one"\n    } elif x == 2 {\n      $result = "two"\n    } else {\n      $result = "many"\n    }',
    ),
    expect: { result: 'two' },
  },
  {
    name: 'elif falls through to else',
    source: action(
      '    var x int\n    x = 9\n    if x == 1 {\n      $result = "one"\n    } elif x == 2 {\n      $result = "two"\n    } else {\n      $result = "many"\n    }',
    ),
    expect: { result: 'many' },
  },
  {
    name: 'else if',
    source: action('    if false {\n      $result = 1\n    } else if true {\n      $result = 2\n    }'),
    expect: { result: '2' },
  },
  {
    name: 'else on the next line',
    source: action('    if false {\n      $result = 1\n    }\n    else {\n      $result = 3\n    }'),
    expect: { result: '3' },
  },
  {
    name: 'return from inside a loop',
    source:
      'func find(limit int) int {\n  var i int\n  while true {\n    if i * i > limit { return i }\n    i = i + 1\n  }\n  return -1\n}\n' +
      action('    $result = find(50)'),
    expect: { result: '8' },
  },
  {
    name: 'a var declared in a loop body starts from zero each iteration',
    source: action(
      '    var i int\n    while i < 3 {\n      var x int\n      x = x + 1\n      i = i + 1\n      $result = x\n    }',
    ),
    expect: { result: '1' },
  },
  {
    name: 'semicolons end statements',
    source: action('    var a int; a = 1; a = a + 1; $result = a'),
    expect: { result: '2' },
  },
  {
    name: 'newline after an operator continues the expression',
    source: action('    $result = 1 +\n      2 *\n      3'),
    expect: { result: '7' },
  },
  {
    name: 'newlines inside parentheses are ignored',
    source: action('    $result = Sprintf("%d-%d",\n      1,\n      2\n    )'),
    expect: { result: '1-2' },
  },
  {
    name: 'comments are ignored',
    source: action('    // line comment\n    $result = 1 /* inline */ + 1 /* multi\n    line */'),
    expect: { result: '2' },
  },
  {
    name: 'typed var rejects another type',
    source: action('    var a int\n    a = "x"'),
    expect: {
      error: { type: 'panic', message: "variable 'a' (type string) cannot be represented by the type int64" },
    },
  },
  {
    name: 'typed var accepts nil',
    source: action('    var a map\n    a = nil\n    $result = Sprintf("%v", a)'),
    expect: { result: '<nil>' },
  },
  {
    name: 'zero values of every type',
    source: action(
      '    var i int\n    var f float\n    var m money\n    var s string\n    var b bool\n    var y bytes\n    var a array\n    var p map\n    var ad address\n    $result = Sprintf("%v|%v|%v|%q|%v|%v|%v|%v|%v", i, f, m, s, b, y, a, p, ad)',
    ),
    expect: { result: '0|0|0|""|false|[]|[]|map[]|0' },
  },
  {
    name: 'file zero value',
    source: action('    var f file\n    $result = Sprintf("%q %q %v", f["Name"], f["MimeType"], f["Body"])'),
    expect: { result: '"" "" []' },
  },
  {
    name: 'endless loop stops on fuel',
    source: action('    var i int\n    while true {\n      i = i + 1\n    }'),
    fuelLimit: 200_000,
    expect: { error: { type: 'panic', message: 'runtime cost limit overflow' } },
  },
  {
    name: 'endless loop of an empty body stops on fuel',
    source: action('    while 1 {\n    }'),
    fuelLimit: 100_000,
    expect: { error: { type: 'panic', message: 'runtime cost limit overflow' } },
  },
  {
    name: 'unbounded recursion stops at the depth limit',
    source: 'func down(n int) int {\n  return down(n + 1)\n}\n' + action('    $result = down(0)'),
    expect: { error: { type: 'panic', message: 'max call depth' } },
  },
  {
    name: 'recursion within the depth limit works',
    source:
      'func depth(n int) int {\n  if n == 0 { return 0 }\n  return depth(n - 1) + 1\n}\n' +
      action('    $result = depth(900)'),
    expect: { result: '900' },
  },
  {
    name: 'async recursion through an async built-in stops at the depth limit',
    source: 'func down(n int) int {\n  return down(AsyncEcho(n) + 1)\n}\n' + action('    $result = down(0)'),
    expect: { error: { type: 'panic', message: 'max call depth' } },
  },
];
