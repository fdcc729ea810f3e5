import { action, type ConformanceCase } from './types';

const writer = 'contract W {\n  action {\n    FakeWrite("x")\n  }\n}';
const reader = 'contract R {\n  action {\n    $result = AsyncEcho(1)\n  }\n}';
const CONDITIONS_WRITE =
  "'conditions' cannot call contracts or functions which can modify the blockchain database";

export const compileCases: ConformanceCase[] = [
  {
    name: 'multi-index read',
    source: action('    var a array\n    $result = a[1][2]'),
    expect: { compileError: { message: 'multi-index is not supported', line: 4, col: 19 } },
  },
  {
    name: 'multi-index write',
    source: action('    var a array\n    a[1][2] = 3'),
    expect: { compileError: { message: 'multi-index is not supported', line: 4, col: 9 } },
  },
  {
    name: 'unknown variable',
    source: action('    $result = b'),
    expect: { compileError: { message: 'unknown identifier b', line: 3, col: 15 } },
  },
  {
    name: 'unknown function',
    source: action('    $result = Nope(1)'),
    expect: { compileError: { message: 'unknown identifier Nope', line: 3, col: 15 } },
  },
  {
    name: 'assignment to an undeclared variable',
    source: action('    z = 1'),
    expect: { compileError: { message: 'unknown identifier z', line: 3, col: 5 } },
  },
  {
    name: 'unexpected token',
    source: action('    $result = 1 2'),
    expect: { compileError: { message: "unexpected '2'", line: 3, col: 17 } },
  },
  {
    name: 'unknown character',
    source: action('    $result = 1 # 2'),
    expect: { compileError: { message: "unknown character '#'", line: 3, col: 17 } },
  },
  {
    name: 'conditions calling a DB-writing built-in',
    source: 'contract T {\n  conditions {\n    FakeWrite("t")\n  }\n  action {\n  }\n}',
    expect: { compileError: { message: CONDITIONS_WRITE, line: 3, col: 5 } },
  },
  {
    name: 'conditions calling a function that writes',
    source: 'func helper() {\n  FakeWrite("t")\n}\ncontract T {\n  conditions {\n    helper()\n  }\n}',
    expect: { compileError: { message: CONDITIONS_WRITE, line: 6, col: 5 } },
  },
  {
    name: 'conditions calling a contract that writes',
    before: [writer],
    source: 'contract T {\n  conditions {\n    W()\n  }\n}',
    expect: { compileError: { message: CONDITIONS_WRITE, line: 3, col: 5 } },
  },
  {
    name: 'conditions may call a contract that only reads',
    before: [reader],
    source: 'contract T {\n  conditions {\n    $r = R()\n  }\n  action {\n    $result = $r\n  }\n}',
    expect: { result: '1' },
  },
  {
    name: 'action may write',
    source: 'contract T {\n  action {\n    $result = FakeWrite("t")\n  }\n}',
    expect: { result: 'wrote t' },
  },
  {
    name: 'data field name must match the pattern',
    source: 'contract T {\n  data {\n    _x int\n  }\n}',
    expect: { compileError: { message: 'wrong data field name _x', line: 3, col: 5 } },
  },
  {
    name: 'data field cannot be a system variable',
    source: 'contract T {\n  data {\n    key_id int\n  }\n}',
    expect: {
      compileError: {
        message:
          "param variable 'key_id' in the data section of the contract '@1T' collides with the 'builtin' variable",
        line: 3,
        col: 5,
      },
    },
  },
  {
    name: 'a type where a data field name is expected',
    source: 'contract T {\n  data {\n    string qwerty\n  }\n}',
    expect: { compileError: { message: 'expecting name of the data field', line: 3, col: 5 } },
  },
  {
    name: 'data field without a type',
    source: 'contract T {\n  data {\n    Name\n  }\n}',
    expect: { compileError: { message: 'expecting type of the data field', line: 3, col: 9 } },
  },
  {
    name: 'writing a system variable',
    source: action('    $key_id = 1'),
    expect: { compileError: { message: 'system variable $key_id cannot be changed', line: 3, col: 5 } },
  },
  {
    name: 'int literal overflow',
    source: action('    $result = 9223372036854775808'),
    expect: {
      compileError: {
        message: 'strconv.ParseInt: parsing "9223372036854775808": value out of range 9223372036854775808',
        line: 3,
        col: 15,
      },
    },
  },
  {
    name: 'unclosed string',
    source: action('    $result = "abc'),
    expect: { compileError: { message: 'unclosed string', line: 3, col: 15 } },
  },
  {
    name: 'expression inside a map literal',
    source: action('    $result = {a: 1 + 2}'),
    expect: { compileError: { message: 'expecting string, int value or variable', line: 3, col: 21 } },
  },
  {
    name: 'call inside an array literal',
    source: action('    $result = [Str(1)]'),
    expect: { compileError: { message: 'expecting string, int value or variable', line: 3, col: 16 } },
  },
  {
    name: 'break outside a loop',
    source: action('    break'),
    expect: { compileError: { message: 'break outside of a loop', line: 3, col: 5 } },
  },
  {
    name: 'duplicate top-level name',
    source: 'func a() {\n}\nfunc a() {\n}',
    expect: { compileError: { message: 'a has been already declared', line: 3, col: 1 } },
  },
  {
    name: 'a contract calling itself',
    source: action('    T()'),
    expect: { compileError: { message: "the contract can't call itself recursively", line: 3, col: 5 } },
  },
  {
    name: 'wrong argument count',
    source: 'func f(a int) int {\n  return a\n}\n' + action('    $result = f(1, 2)'),
    expect: { compileError: { message: 'function f must have 1 parameters', line: 6, col: 15 } },
  },
  {
    name: 'wrong argument count for a built-in',
    source: action('    $result = Size("a", "b")'),
    expect: { compileError: { message: 'function Size must have 1 parameters', line: 3, col: 15 } },
  },
  {
    name: 'multiple values in single-value context',
    source: 'func two() int, int {\n  return 1, 2\n}\n' + action('    $result = two()'),
    expect: { compileError: { message: 'multiple-value two() in single-value context', line: 6, col: 15 } },
  },
  {
    name: 'variable declared twice in one block',
    source: action('    var a int\n    var a string'),
    expect: { compileError: { message: 'variable a has been already declared', line: 4, col: 9 } },
  },
  {
    name: 'an unknown type reads as one more name, leaving the names without a type',
    source: action('    var a integer'),
    expect: { compileError: { message: 'expecting type of the variable', line: 3, col: 11 } },
  },
  {
    name: 'unclosed block',
    source: 'contract T {\n  action {\n    $result = 1\n',
    expect: { compileError: { message: 'unclosed block', line: 2, col: 10 } },
  },
  {
    name: 'unknown chained function',
    source: 'func f() int {\n  return 1\n}\n' + action('    $result = f().nope()'),
    expect: { compileError: { message: 'unknown identifier nope', line: 6, col: 19 } },
  },
  {
    name: 'a character the language does not know',
    source: action('    $result = 1 ~ 2'),
    expect: { compileError: { message: "unknown lexeme '~'", line: 3, col: 17 } },
  },
  {
    name: 'a name after a function with tails that is neither a tail nor a function',
    source: 'func f().Tail(n int) int {\n  return n\n}\n' + action('    $result = f().Nope(1)'),
    expect: { compileError: { message: "unknown function tail 'Nope'", line: 6, col: 19 } },
  },
  {
    name: 'an assignment without a value',
    source: 'contract T {\n  action {\n    $result = \n  }\n}',
    expect: { compileError: { message: 'there is not eval expression', line: 4, col: 3 } },
  },
  {
    name: 'unknown contract by prefix',
    source: action('    @1Missing()'),
    expect: { compileError: { message: 'unknown identifier @1Missing', line: 3, col: 5 } },
  },
  {
    name: 'statement that is not a statement',
    source: action('    1 + 2'),
    expect: { compileError: { message: "unexpected '1'", line: 3, col: 5 } },
  },
];
