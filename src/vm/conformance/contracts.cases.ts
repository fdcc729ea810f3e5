import { action, type ConformanceCase } from './types';

const callee = `contract Callee {
  data {
    A int
    B string "optional"
  }
  action {
    $result = Sprintf("%d:%q", $A, $B)
  }
}`;

export const contractCases: ConformanceCase[] = [
  {
    name: 'contract call with names string and values',
    before: [callee],
    source: action('    $result = @1Callee("A,B", 1, "x")'),
    expect: { result: '1:"x"' },
  },
  {
    name: 'unprefixed contract call resolves in the caller ecosystem',
    before: [callee],
    source: action('    $result = Callee("A", 7)'),
    expect: { result: '7:""' },
  },
  {
    name: '@Name means ecosystem 1',
    before: [callee],
    source: action('    $result = @Callee("A, B", 2, "y")'),
    expect: { result: '2:"y"' },
  },
  {
    name: 'missing required field',
    before: [callee],
    source: action('    $result = Callee("B", "x")'),
    expect: { error: { type: 'panic', message: 'Parameter A has not been found' } },
  },
  {
    name: 'names and values must match',
    before: [callee],
    source: action('    $result = Callee("A,B", 1)'),
    expect: { error: { type: 'panic', message: 'wrong contract parameters' } },
  },
  {
    name: 'CallContract with a map',
    before: [callee],
    source: action('    $result = CallContract("Callee", {A: 3, B: "m"})'),
    expect: { result: '3:"m"' },
  },
  {
    name: 'CallContract of an unknown contract',
    source: action('    $result = CallContract("Nobody", {})'),
    expect: { error: { type: 'panic', message: 'unknown contract @1Nobody' } },
  },
  {
    name: 'callee does not see caller $ variables',
    before: ['contract Peek {\n  action {\n    $result = $secret\n  }\n}'],
    source: action('    $secret = 1\n    $result = Peek()'),
    expect: { error: { type: 'panic', message: 'unknown extend identifier secret' } },
  },
  {
    name: 'caller $ variables are restored after the call',
    before: ['contract Setter {\n  action {\n    $x = "callee"\n    $result = "r"\n  }\n}'],
    source: action(
      '    $x = "caller"\n    $result = "before"\n    $y = Setter()\n    $result = $x + "/" + $y + "/" + $result',
    ),
    expect: { result: 'caller/r/before' },
  },
  {
    name: '$this_contract, $parent and $stack in a callee',
    before: [
      'contract Where {\n  action {\n    $result = Sprintf("%s|%s|%v", $this_contract, $parent, $stack)\n  }\n}',
    ],
    source: action('    $result = Where() + "|" + $this_contract + "|" + $parent'),
    expect: { result: 'Where|T|[@1T @1Where]|T|' },
  },
  {
    name: 're-entering a contract on the stack is a loop',
    source:
      'contract A {\n  action {\n    $result = B()\n  }\n}\ncontract B {\n  action {\n    $result = A()\n  }\n}',
    expect: { error: { type: 'panic', message: 'there is loop in @1A contract' } },
  },
  {
    name: 'conditions run before action with the same $ variables',
    source:
      'contract T {\n  conditions {\n    $seen = "c"\n  }\n  action {\n    $result = $seen + "a"\n  }\n}',
    expect: { result: 'ca' },
  },
  {
    name: 'return in conditions ends only conditions',
    source:
      'contract T {\n  func conditions {\n    $r = "c"\n    return\n    $r = "z"\n  }\n  func action {\n    $result = $r + "a"\n  }\n}',
    expect: { result: 'ca' },
  },
  {
    name: 'data fields are $ variables',
    source:
      'contract T {\n  data {\n    Name, Title string\n    Count int "optional"\n  }\n  action {\n    $result = Sprintf("%s %s %d", $Name, $Title, $Count)\n  }\n}',
    params: { Name: 'n', Title: 't' },
    expect: { result: 'n t 0' },
  },
  {
    name: 'money data field converts a string parameter',
    source:
      'contract T {\n  data {\n    Amount money\n  }\n  action {\n    $result = $Amount + Money(1)\n  }\n}',
    params: { Amount: '100' },
    expect: { result: '101' },
  },
  {
    name: 'a $ variable keeps its first type',
    source: action('    $a = 1\n    $a = "x"'),
    expect: { error: { type: 'panic', message: '$a (type string) cannot be represented by the type int64' } },
  },
  {
    name: 'a $ variable may be reset to nil and then take a new type',
    source: action('    $a = 1\n    $a = nil\n    $a = "x"\n    $result = $a'),
    expect: { result: 'x' },
  },
  {
    name: 'a data field keeps its type',
    source: 'contract T {\n  data {\n    N int\n  }\n  action {\n    $N = "x"\n  }\n}',
    params: { N: 1n },
    expect: { error: { type: 'panic', message: '$N (type string) cannot be represented by the type int64' } },
  },
  {
    name: 'reading an unset $ variable fails',
    source: action('    $result = $nothing'),
    expect: { error: { type: 'panic', message: 'unknown extend identifier nothing' } },
  },
  {
    name: 'system variables from the transaction',
    source: action('    $result = Sprintf("%d %d", $key_id, $ecosystem_id)'),
    expect: { result: '-110277540701013350 1' },
  },
  {
    name: 'an element of a system variable can be written, as in the reference',
    source: action('    $stack[0] = "replaced"\n    $result = Sprintf("%v", $stack)'),
    expect: { result: '[replaced]' },
  },
  {
    name: 'an element of a system variable nobody set is an unknown variable when it runs',
    source: action('    $data[0] = 1'),
    expect: { error: { type: 'panic', message: 'unknown extend identifier data' } },
  },
  {
    name: 'a host-provided read-only variable cannot be written at run time',
    source: action('    $custom_flag = 2'),
    expect: { error: { type: 'panic', message: 'system variable $custom_flag cannot be changed' } },
  },
  {
    name: 'nested contract result is the callee $result even when unset',
    before: ['contract Quiet {\n  action {\n  }\n}'],
    source: action('    $result = Sprintf("%v", Quiet())'),
    expect: { result: '<nil>' },
  },
  {
    name: 'a contract in another ecosystem by prefix',
    before: ['@2:contract Far {\n  action {\n    $result = "far" + Str($ecosystem_id)\n  }\n}'],
    source: action('    $result = @2Far()'),
    expect: { result: 'far1' },
  },
  {
    name: 'a contract calling a contract that calls an async built-in',
    before: [
      'contract Inner {\n  data {\n    V int\n  }\n  action {\n    $result = AsyncEcho($V) + 1\n  }\n}',
    ],
    source: action('    $result = Inner("V", 41)'),
    expect: { result: '42' },
  },
  {
    name: 'callee errors propagate with their type',
    before: ['contract Fails {\n  conditions {\n    warning "denied"\n  }\n}'],
    source: action('    Fails()'),
    expect: { error: { type: 'warning', message: 'denied' } },
  },
];
