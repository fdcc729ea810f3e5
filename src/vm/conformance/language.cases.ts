import { action, expr, type ConformanceCase } from './types';

/**
 * The language as the reference accepts it (issue 10): each group is one rule. The programs are ours; the
 * expected results are what the reference's compiler and runtime give for them.
 */
export const languageCases: ConformanceCase[] = [
  // 1. Assignment to a money variable converts to a whole decimal, rounding toward −∞.
  {
    name: 'money variables floor floats and strings',
    source: action(
      '    var a, b, c money\n    a = 1.2\n    b = "7.9"\n    c = -1.5\n    $result = Sprintf("%v %v %v", a, b, c)',
    ),
    expect: { result: '1 7 -2' },
  },
  {
    name: 'a money variable keeps ints exact and floors a negative decimal string',
    source: action(
      '    var a, b money\n    a = 9223372036854775807\n    b = "-0.5"\n    $result = Str(a) + " " + Str(b)',
    ),
    expect: { result: '9223372036854775807 -1' },
  },
  {
    name: 'a money variable refuses a string that is not a number',
    source: action('    var a money\n    a = "1x"'),
    expect: { error: { type: 'panic', message: "can't convert 1x to decimal" } },
  },

  // 2. A block's `{` may stand on the next line.
  {
    name: 'braces on the next line after if, elif and else',
    source: action(
      '    var i int\n    i = 2\n    if i == 1\n    {\n      $result = "one"\n    }\n    elif i == 2\n    {\n      $result = "two"\n    }\n    else\n    {\n      $result = "other"\n    }',
    ),
    expect: { result: 'two' },
  },
  {
    name: 'brace on the next line after while, and else if on the next line',
    source: action(
      '    var i, s int\n    while i < 4\n    {\n      i = i + 1\n      s = s + i\n    }\n    if s > 100 {\n      $result = 0\n    } else\n    if s == 10 {\n      $result = s\n    }',
    ),
    expect: { result: '10' },
  },
  {
    name: 'braces on the next line after contract, data, settings, func and section headers',
    source:
      'contract T\n{\n  data\n  {\n    N int "optional"\n  }\n  settings\n  {\n    rate = 3\n  }\n  func twice(x int) int\n  {\n    return x * 2\n  }\n  conditions\n  {\n    $c = 1\n  }\n  func action\n  {\n    $result = twice(Settings("T", "rate")) + $c\n  }\n}',
    expect: { result: '7' },
  },
  {
    name: 'brace on the next line after a top-level func without parameters',
    source: 'func seven int\n{\n  return 7\n}\n' + expr('seven()'),
    expect: { result: '7' },
  },

  // 3. Names may be listed without commas.
  {
    name: 'var names without commas',
    source: action('    var x y int\n    x = 1\n    y = 2\n    $result = x + y'),
    expect: { result: '3' },
  },
  {
    name: 'var names with and without commas, several types in one declaration',
    source: action(
      '    var i1 i2 int, s1 string, s2 string\n    i2, i1 = 348, 7\n    s1 = "a"\n    s2 = "b"\n    $result = Sprintf("%d %d %s%s", i1, i2, s1, s2)',
    ),
    expect: { result: '7 348 ab' },
  },
  {
    name: 'parameter names without commas',
    source:
      'func g(a b int, c d string) string {\n  return Str(a + b) + c + d\n}\n' + expr('g(1, 2, "x", "y")'),
    expect: { result: '3xy' },
  },
  {
    name: 'parameter groups without a comma between them',
    source: 'func g(a int b string) string {\n  return Str(a) + b\n}\n' + expr('g(1, "x")'),
    expect: { result: '1x' },
  },
  {
    name: 'names without commas are still typed',
    source: 'func g(a b int) int {\n  return a + b\n}\n' + expr('g(1, "x")'),
    expect: { error: { type: 'panic', message: 'parameter 2 has wrong type' } },
  },

  // 4. A function header may continue on the next line before a tail.
  {
    name: 'a tail declared on the next line',
    source:
      'func A(t string)\n  .B(b string) string {\n  return t + "|" + b\n}\n' +
      expr('A("x").B("y") + " " + A("z")'),
    expect: { result: 'x|y z|' },
  },
  {
    name: 'tails split after the dot and before the results',
    source:
      'func Find(t string).Columns(c string).\n  Limit(n int)\n  string\n{\n  return Sprintf("%s %s %d", t, c, n)\n}\n' +
      expr('Find("tab").Limit(5).Columns("id")'),
    expect: { result: 'tab id 5' },
  },

  // 5. `return <value>` in a function declared without results.
  {
    name: 'return with a value in a function without results drops the value',
    source: 'func f() {\n  return 5\n}\n' + action('    f()\n    $result = Sprintf("%v", f())'),
    expect: { result: '<nil>' },
  },
  {
    name: 'the dropped return value is still evaluated',
    source: 'func f(s string) {\n  return Int(s)\n}\n' + action('    f("x")'),
    expect: { error: { type: 'panic', message: 'x is not a valid integer' } },
  },
  {
    name: 'return with a value in conditions and action sections',
    source:
      'contract T {\n  conditions {\n    return 1\n  }\n  action {\n    $result = "ran"\n    return "x"\n  }\n}',
    expect: { result: 'ran' },
  },
  {
    name: 'more values than results: the last ones are returned',
    source: 'func f() int {\n  return 1, 2\n}\n' + expr('f()'),
    expect: { result: '2' },
  },
  {
    name: 'fewer values than results is a run-time error',
    source:
      'func f() int, string {\n  return 1\n}\n' + action('    var a int\n    var b string\n    a, b = f()'),
    expect: {
      error: { type: 'panic', message: "func 'f' not enough arguments to return, need [int64|string]" },
    },
  },
  {
    name: 'return passes on the results of a call',
    source:
      'func two() int, string {\n  return 1, "a"\n}\nfunc f() int, string {\n  return two()\n}\n' +
      action('    var a int\n    var b string\n    a, b = f()\n    $result = Str(a) + b'),
    expect: { result: '1a' },
  },

  // 6. Tuple assignment.
  {
    name: 'tuple assignment of literals',
    source: action('    var a, b int\n    a, b = 1, 2\n    $result = Sprintf("%d %d", a, b)'),
    expect: { result: '1 2' },
  },
  {
    name: 'tuple assignment evaluates every value before assigning (swap)',
    source: action(
      '    var a, b int\n    a, b = 1, 2\n    a, b = b, a\n    $result = Sprintf("%d %d", a, b)',
    ),
    expect: { result: '2 1' },
  },
  {
    name: 'tuple assignment to $ variables and an index',
    source: action('    var m map\n    $x, m["k"] = "s", 3 * 2\n    $result = $x + Str(m["k"])'),
    expect: { result: 's6' },
  },
  {
    name: 'tuple assignment checks each target type',
    source: action('    var a int\n    var b string\n    a, b = 1, 2'),
    expect: {
      error: { type: 'panic', message: "variable 'b' (type int64) cannot be represented by the type string" },
    },
  },
  {
    name: 'tuple assignment with a different number of values does not compile',
    source: action('    var a, b int\n    a, b = 1, 2, 3'),
    expect: { compileError: { message: 'assignment mismatch: 2 variables but 3 values', line: 4, col: 5 } },
  },

  // 7. Variadic tail parameters.
  {
    name: 'a variadic tail collects its arguments',
    source:
      'func find().Where(pattern string, params ...) string {\n  return Sprintf(pattern, params...)\n}\n' +
      expr('find().Where("%d-%d", 10, 20)'),
    expect: { result: '10-20' },
  },
  {
    name: 'a variadic tail left out or given only its fixed part is empty',
    source:
      'func find(t string).Where(w string, params ...) string {\n  return Sprintf("%s %s %d", t, w, Len(params))\n}\n' +
      expr('find("a") + "|" + find("b").Where("x")'),
    expect: { result: 'a  0|b x 0' },
  },
  {
    name: 'an array spread into a variadic tail',
    source:
      'func find().Where(pattern string, params ...) string {\n  return Sprintf(pattern, params...)\n}\nfunc row().Where(pattern string, params ...) string {\n  return find().Where(pattern, params...)\n}\n' +
      expr('row().Where("%d %s", 1, "b")'),
    expect: { result: '1 b' },
  },

  // 8. Floats may start with a dot.
  {
    name: 'a float literal may start with a dot',
    source: action('    var i int\n    i = 138\n    $result = Sprintf("%T %[1]v", .21 + i)'),
    expect: { result: 'float64 138.21' },
  },
  {
    name: 'a leading-dot float in a map literal and with a minus sign',
    source: expr('Sprintf("%v %v", {rate: .5}, -.25)'),
    expect: { result: 'map[rate:0.5] -0.25' },
  },

  // 9. Declared result types are enforced.
  {
    name: 'a result of the wrong type is a run-time error',
    source: 'func g() int {\n  return "x"\n}\n' + expr('g()'),
    expect: {
      error: {
        type: 'panic',
        message: "function 'g' return index[0] (type string) cannot be represented by the type int64",
      },
    },
  },
  {
    name: 'results are checked one by one',
    source:
      'func g() int, bool {\n  return 1, "yes"\n}\n' +
      action('    var a int\n    var b bool\n    a, b = g()'),
    expect: {
      error: {
        type: 'panic',
        message: "function 'g' return index[1] (type string) cannot be represented by the type bool",
      },
    },
  },
  {
    name: 'an int result is not money',
    source: 'func g() money {\n  return 5\n}\n' + expr('g()'),
    expect: {
      error: {
        type: 'panic',
        message:
          "function 'g' return index[0] (type int64) cannot be represented by the type decimal.Decimal",
      },
    },
  },
  {
    name: 'nil fits any result type, and matching types pass',
    source:
      'func m() map {\n  return nil\n}\nfunc f() float {\n  return 1.5\n}\nfunc a() array {\n  return [1]\n}\n' +
      expr('Sprintf("%v %v %v", m(), f(), a())'),
    expect: { result: '<nil> 1.5 [1]' },
  },
  {
    name: 'a contract-local function checks its result too',
    source: 'contract T {\n  func f() string {\n    return 1\n  }\n  action {\n    $result = f()\n  }\n}',
    expect: {
      error: {
        type: 'panic',
        message: "function 'f' return index[0] (type int64) cannot be represented by the type string",
      },
    },
  },

  // 10. By-name contract calls set every listed name.
  {
    name: 'a by-name call sets the data fields and every other listed name',
    before: [
      'contract C {\n  data {\n    P int\n  }\n  action {\n    $result = Sprintf("%d %s", $P, $ext)\n  }\n}',
    ],
    source: expr('C("P,ext", 1, "E")'),
    expect: { result: '1 E' },
  },
  {
    name: 'CallContract passes only the data fields',
    before: ['contract C {\n  data {\n    P int\n  }\n  action {\n    $result = $ext\n  }\n}'],
    source: expr('CallContract("C", {P: 1, ext: "E"})'),
    expect: { error: { type: 'panic', message: 'unknown extend identifier ext' } },
  },
  {
    name: 'a listed system name does not reach the callee',
    before: ['contract C {\n  data {\n    P int\n  }\n  action {\n    $result = Str($key_id)\n  }\n}'],
    source: expr('C("P,key_id", 1, 7)'),
    expect: { result: '-110277540701013350' },
  },

  // 11. Sprintf follows Go's fmt.
  {
    name: 'Sprintf %T prints Go type names',
    source: expr(
      'Sprintf("%T|%T|%T|%T|%T|%T|%T|%T|%T", 1, 1.5, "s", Money(1), {a: 1}, [1], true, StringToBytes("x"), nil)',
    ),
    expect: {
      result: 'int64|float64|string|decimal.Decimal|*types.Map|[]interface {}|bool|[]uint8|<nil>',
    },
  },
  {
    name: 'Sprintf explicit argument indexes',
    source: expr('Sprintf("%[2]v %[1]v %v", "a", "b")'),
    expect: { result: 'b a b' },
  },
  {
    name: 'Sprintf bad index and no EXTRA after an index',
    source: expr('Sprintf("%[3]d %[0]d %[1]s", "a", "b")'),
    expect: { result: '%!d(BADINDEX) %!d(BADINDEX) a' },
  },
  {
    name: 'Sprintf width and precision from arguments',
    source: expr('Sprintf("[%*d] [%-*d] [%.*f] [%[2]*[1]d]", 4, 7, 3, 8, 2, 3.14159)'),
    expect: { result: '[   7] [8  ] [3.14] [      4]' },
  },
  {
    name: 'Sprintf bad width and precision arguments',
    source: expr('Sprintf("%*d|%.*d", "x", 1, "y", 2)'),
    expect: { result: '%!(BADWIDTH)1|%!(BADPREC)2' },
  },
  {
    name: 'Sprintf a negative width from an argument pads on the right',
    source: expr('Sprintf("[%*s]", -4, "ab")'),
    expect: { result: '[ab  ]' },
  },
  {
    name: 'Sprintf flags on numbers',
    source: expr(
      'Sprintf("%+d|% d|%08.3f|%+.2e|%x|%#x|%#o|%o|%b", 5, 5, -3.14159, 12345.678, -255, 255, 8, 8, 5)',
    ),
    expect: { result: '+5| 5|-003.142|+1.23e+04|-ff|0xff|010|10|101' },
  },
  {
    name: 'Sprintf zero padding keeps the sign first',
    source: expr('Sprintf("%05d|%-05d|%06.2f|%+06d", -42, 42, -1.5, 7)'),
    expect: { result: '-0042|42   |-01.50|+00007' },
  },
  {
    name: 'Sprintf precision on ints and strings',
    source: expr('Sprintf("%.3d|%.0d|%5.1s|%.2s", 7, 0, "abc", "日本語")'),
    expect: { result: '007||    a|日本' },
  },
  {
    name: 'Sprintf plus flag with v prints no sign, %#v is Go syntax',
    source: expr('Sprintf("%+v|%#v|%#v", 5, "a", [1, "b"])'),
    expect: { result: '5|"a"|[]interface {}{1, "b"}' },
  },
  {
    name: 'Sprintf runes: %c %q %U',
    source: expr('Sprintf("%c|%q|%U|%#U|%q", 26085, 65, 26085, 65, "a\\tb")'),
    expect: { result: "日|'A'|U+65E5|U+0041 'A'|\"a\\tb\"" },
  },
  {
    name: 'Sprintf hex of strings with space and sharp flags',
    source: expr('Sprintf("% x|%#x|% #X|%X", "hi", "hi", "hi", "hi")'),
    expect: { result: '68 69|0x6869|0X68 0X69|6869' },
  },
  {
    name: 'Sprintf width applies to each element of an array',
    source: expr('Sprintf("%3d|%-3v|%10v", [1, 2], [3], {a: 1})'),
    expect: { result: '[  1   2]|[3  ]|  map[a:1]' },
  },
  {
    name: 'Sprintf maps print through their text for %s and %q',
    source: expr('Sprintf("%s|%q|%x", {a: 1, b: "x"}, {a: 1}, {a: 1})'),
    expect: { result: 'map[a:1 b:x]|"map[a:1]"|6d61705b613a315d' },
  },
  {
    name: 'Sprintf bad verbs show the type and value with the flags',
    source: expr('Sprintf("%5d|%t|%d|%s", "x", 1.5, true, nil)'),
    expect: { result: '%!d(string=    x)|%!t(float64=1.5)|%!d(bool=true)|%!s(<nil>)' },
  },
  {
    name: 'Sprintf nil inside an array prints <nil> for any verb',
    source: expr('Sprintf("%d", [1, nil])'),
    expect: { result: '[1 <nil>]' },
  },
  {
    name: 'Sprintf %g %G %e %E',
    source: expr('Sprintf("%g|%.3g|%G|%E|%.0f|%#.0f|%#g", 100000.0, 1234.0, 0.000001, 1.5, 2.5, 2.0, 1.0)'),
    expect: { result: '100000|1.23e+03|1E-06|1.500000E+00|2|2.|1.00000' },
  },
  {
    name: 'Sprintf missing, extra and no verb',
    source: expr('Sprintf("%d %s|%!|%", 1)'),
    expect: { result: '1 %!s(MISSING)|%!!(MISSING)|%!(NOVERB)' },
  },
  {
    name: 'Sprintf extra arguments of every kind',
    source: expr('Sprintf("", 1, "a", nil, [2])'),
    expect: { result: '%!(EXTRA int64=1, string=a, <nil>, []interface {}=[2])' },
  },
  {
    name: 'Sprintf percent ignores width and takes no argument',
    source: expr('Sprintf("%5%|%d", 3)'),
    expect: { result: '%|3' },
  },

  // Strict on purpose (src/vm/README.md): leniencies of the reference that stay compile errors.
  {
    name: 'strict: two operands without an operator',
    source: action('    var i int\n    $result = Sprintf("%d", i 0)'),
    expect: { compileError: { message: "unexpected '0'; expecting comma", line: 4, col: 31 } },
  },
  {
    name: 'strict: the # lexeme',
    source: action('    $result = 1 # 2'),
    expect: { compileError: { message: "unknown character '#'", line: 3, col: 17 } },
  },
  {
    name: 'strict: a keyword inside an expression',
    source: 'func f() string {\n  return error "x"\n}\n' + expr('f()'),
    expect: { compileError: { message: "unexpected 'error'", line: 2, col: 10 } },
  },

  // 12. Settings of a setting the contract lacks.
  {
    name: 'Settings of a missing setting is empty',
    before: ['contract S {\n  settings {\n    a = 1\n  }\n  action {\n  }\n}'],
    source: expr('Sprintf("%q %v", Settings("S", "nope"), Settings("S", "a"))'),
    expect: { result: '"" 1' },
  },
  {
    name: 'Settings of an unknown contract is still an error',
    source: expr('Settings("Nope", "a")'),
    expect: { error: { type: 'panic', message: 'unknown contract @1Nope' } },
  },
];
