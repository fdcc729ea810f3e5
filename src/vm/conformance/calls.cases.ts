import { action, type ConformanceCase } from './types';

const finder = `func Find(t string).Where(w string).Limit(n int) string {
  return Sprintf("%s|%s|%d", t, w, n)
}
func twice(s string) string {
  return s + s
}
func rows() array {
  return [{id: "5", name: "x"}, {id: "6", name: "y"}]
}
func none() array {
  return []
}
`;

export const callCases: ConformanceCase[] = [
  {
    name: 'multiple results',
    source:
      'func two() int, string {\n  return 1, "a"\n}\n' +
      action('    var a int\n    var b string\n    a, b = two()\n    $result = Str(a) + b'),
    expect: { result: '1a' },
  },
  {
    name: 'multiple results into $vars and an index',
    source:
      'func two() int, string {\n  return 1, "a"\n}\n' +
      action('    var m map\n    $x, m["k"] = two()\n    $result = Str($x) + m["k"]'),
    expect: { result: '1a' },
  },
  {
    name: 'variadic parameter collects the rest',
    source:
      'func sum(args ...) int {\n  var i, s int\n  while i < Len(args) {\n    s = s + args[i]\n    i = i + 1\n  }\n  return s\n}\n' +
      action('    $result = sum(1, 2, 3)'),
    expect: { result: '6' },
  },
  {
    name: 'variadic after a fixed parameter',
    source:
      'func count(label string, rest ...) string {\n  return label + Str(Len(rest))\n}\n' +
      action('    $result = count("n=", 1, 2) + count("m=")'),
    expect: { result: 'n=2m=0' },
  },
  {
    name: 'spread an array into a variadic call',
    source:
      'func sum(args ...) int {\n  var i, s int\n  while i < Len(args) {\n    s = s + args[i]\n    i = i + 1\n  }\n  return s\n}\n' +
      action('    var a array\n    a = [2, 3]\n    $result = sum(1, a...)'),
    expect: { result: '6' },
  },
  {
    name: 'spread into a built-in',
    source: action('    var a array\n    a = ["x", 5]\n    $result = Sprintf("%s=%d", a...)'),
    expect: { result: 'x=5' },
  },
  {
    name: 'tails: main call only',
    source: finder + action('    $result = Find("t")'),
    expect: { result: 't||0' },
  },
  {
    name: 'tails: some tails',
    source: finder + action('    $result = Find("t").Limit(5)'),
    expect: { result: 't||5' },
  },
  {
    name: 'tails in any order',
    source: finder + action('    $result = Find("t").Limit(2).Where("w")'),
    expect: { result: 't|w|2' },
  },
  {
    name: 'a non-tail function after a call takes the result as first argument',
    source: finder + action('    $result = Find("a").twice()'),
    expect: { result: 'a||0a||0' },
  },
  {
    name: 'tails then a chained function',
    source: finder + action('    $result = Find("a").Where("b").twice()'),
    expect: { result: 'a|b|0a|b|0' },
  },
  {
    name: '.One on rows',
    source: finder + action('    $result = rows().One("name")'),
    expect: { result: 'x' },
  },
  {
    name: '.Row on rows',
    source: finder + action('    $result = Str(rows().Row())'),
    expect: { result: 'map[id:5 name:x]' },
  },
  {
    name: '.One on no rows is empty',
    source: finder + action('    $result = "[" + none().One("id") + "]"'),
    expect: { result: '[]' },
  },
  {
    name: '.Row on no rows is an empty map',
    source: finder + action('    $result = Str(none().Row())'),
    expect: { result: 'map[]' },
  },
  {
    name: 'a chain may continue on the next line',
    source: finder + action('    $result = Find("t")\n      .Where("w")\n      .Limit(1)'),
    expect: { result: 't|w|1' },
  },
  {
    name: 'recursion',
    source:
      'func fib(n int) int {\n  if n < 2 { return n }\n  return fib(n - 1) + fib(n - 2)\n}\n' +
      action('    $result = fib(15)'),
    expect: { result: '610' },
  },
  {
    name: 'string parameters are type-checked',
    source: 'func f(s string) string {\n  return s\n}\n' + action('    $result = f(1)'),
    expect: { error: { type: 'panic', message: 'parameter 1 has wrong type' } },
  },
  {
    name: 'int parameters truncate floats',
    source: 'func f(n int) int {\n  return n\n}\n' + action('    $result = f(2.7)'),
    expect: { result: '2' },
  },
  {
    name: 'int parameters reject strings',
    source: 'func f(a string, n int) int {\n  return n\n}\n' + action('    $result = f("a", "2")'),
    expect: { error: { type: 'panic', message: 'parameter 2 has wrong type' } },
  },
  {
    name: 'other parameter types are not checked',
    source: 'func f(m map) string {\n  return Str(m)\n}\n' + action('    $result = f(5)'),
    expect: { result: '5' },
  },
  {
    name: 'falling off the end returns zero values',
    source: 'func f() int {\n}\n' + action('    $result = f()'),
    expect: { result: '0' },
  },
  {
    name: 'functions declared after their use',
    source: action('    $result = later(2)') + '\nfunc later(n int) int {\n  return n * 10\n}',
    expect: { result: '20' },
  },
  {
    name: 'contract-local functions',
    source:
      'contract T {\n  func helper(x int) int {\n    return x + 1\n  }\n  action {\n    $result = helper(1)\n  }\n}',
    expect: { result: '2' },
  },
  {
    name: 'a function from another source',
    before: ['func Shared(x string) string {\n  return "<" + x + ">"\n}'],
    source: action('    $result = Shared("a")'),
    expect: { result: '<a>' },
  },
  {
    name: 'functions see the $ variables of the contract call',
    source:
      'func show() string {\n  return $Name\n}\ncontract T {\n  data {\n    Name string\n  }\n  action {\n    $result = show()\n  }\n}',
    params: { Name: 'n' },
    expect: { result: 'n' },
  },
  {
    name: 'async built-in results flow through pure code',
    source:
      'func twiceAsync(x int) int {\n  return AsyncEcho(x) * 2\n}\n' +
      action(
        '    var i, s int\n    while i < 3 {\n      s = s + twiceAsync(i)\n      i = i + 1\n    }\n    $result = s',
      ),
    expect: { result: '6' },
  },
  {
    name: 'async built-in inside conditions of an if and a map literal argument',
    source: action('    if AsyncEcho(true) {\n      $result = JSONEncode(AsyncEcho({a: 1}))\n    }'),
    expect: { result: '{"a":1}' },
  },
  {
    name: 'Settings of a contract',
    source:
      'contract T {\n  settings {\n    limit = 10\n    label = "x"\n  }\n  action {\n    $result = Str(Settings("T", "limit")) + Settings("@1T", "label")\n  }\n}',
    expect: { result: '10x' },
  },
];
