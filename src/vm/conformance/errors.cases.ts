import { action, type ConformanceCase } from './types';

export const errorCases: ConformanceCase[] = [
  {
    name: 'error statement',
    source: action('    error "bad thing"'),
    expect: { error: { type: 'error', message: 'bad thing' } },
  },
  {
    name: 'warning statement with an expression',
    source: action('    warning Sprintf("%d left", 5)'),
    expect: { error: { type: 'warning', message: '5 left' } },
  },
  {
    name: 'info statement',
    source: action('    info "note"'),
    expect: { error: { type: 'info', message: 'note' } },
  },
  {
    name: 'error with a non-string value',
    source: action('    error 42'),
    expect: { error: { type: 'error', message: '42' } },
  },
  {
    name: 'error text is capped at 150 characters',
    source: action('    error Sprintf("%0200d", 0)'),
    expect: { error: { type: 'error', message: '0'.repeat(150) + '...', exact: true } },
  },
  {
    name: 'short error text is not changed',
    source: action('    error "' + 'x'.repeat(150) + '"'),
    expect: { error: { type: 'error', message: 'x'.repeat(150), exact: true } },
  },
  {
    name: 'error in conditions stops the action',
    source: 'contract T {\n  conditions {\n    error "stop"\n  }\n  action {\n    $result = 1\n  }\n}',
    expect: { error: { type: 'error', message: 'stop' } },
  },
  {
    name: 'error raised in a function',
    source:
      'func check(x int) {\n  if x > 1 {\n    warning "too big"\n  }\n}\n' +
      action('    check(1)\n    check(2)'),
    expect: { error: { type: 'warning', message: 'too big' } },
  },
  {
    name: 'runtime failures are panics',
    source: action('    $result = Int("nope")'),
    expect: { error: { type: 'panic', message: 'nope is not a valid integer' } },
  },
  {
    name: 'an error in an async path keeps its type',
    source: action('    if AsyncEcho(true) {\n      info "async info"\n    }'),
    expect: { error: { type: 'info', message: 'async info' } },
  },
  {
    name: 'an async built-in failure is a panic',
    source: action('    AsyncFail("db is down")'),
    expect: { error: { type: 'panic', message: 'db is down' } },
  },
];
