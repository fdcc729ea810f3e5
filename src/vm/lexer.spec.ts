import { describe, expect, it } from 'vitest';
import { CompileError } from './errors';
import { tokenize } from './lexer';
import { parseExpression, parseSource } from './parser';

const kinds = (source: string): string[] =>
  tokenize(source).map((t) => (t.kind === 'newline' ? 'NL' : t.text || t.kind));

describe('lexer', () => {
  it('ends statements at newlines and semicolons', () => {
    expect(kinds('a = 1\nb = 2; c = 3')).toEqual([
      'a',
      '=',
      '1',
      'NL',
      'b',
      '=',
      '2',
      'NL',
      'c',
      '=',
      '3',
      'NL',
      'eof',
    ]);
  });

  it('ignores a newline after a comma, an operator, or inside parentheses', () => {
    expect(kinds('f(1,\n2)\nx = 1 +\n2')).toEqual([
      'f',
      '(',
      '1',
      ',',
      '2',
      ')',
      'NL',
      'x',
      '=',
      '1',
      '+',
      '2',
      'NL',
      'eof',
    ]);
  });

  it('collapses repeated statement ends', () => {
    expect(kinds('a\n\n;\n b')).toEqual(['a', 'NL', 'b', 'NL', 'eof']);
  });

  it('tracks line and column', () => {
    const tokens = tokenize('contract X {\n  action { $a = "s" }\n}');
    const extend = tokens.find((t) => t.kind === 'extend')!;
    expect([extend.line, extend.column, extend.text]).toEqual([2, 12, 'a']);
    const text = tokens.find((t) => t.kind === 'string')!;
    expect([text.line, text.column]).toEqual([2, 17]);
  });

  it('reads $vars, @names, keywords, ints, floats and ...', () => {
    const tokens = tokenize('$x @1NewPage @Name elif 12 1.5 ...');
    expect(tokens.slice(0, 7).map((t) => [t.kind, t.text])).toEqual([
      ['extend', 'x'],
      ['contract', '1NewPage'],
      ['contract', 'Name'],
      ['keyword', 'elif'],
      ['int', '12'],
      ['float', '1.5'],
      ['punct', '...'],
    ]);
    expect(tokens[4].intValue).toBe(12n);
    expect(tokens[5].floatValue).toBe(1.5);
  });

  it('decodes only the four escapes of double-quoted strings', () => {
    const [token] = tokenize('"a\\"b\\tc\\nd\\re\\x"');
    expect(token.text).toBe('a"b\tc\nd\re\\x');
  });

  it('keeps raw strings raw and lets strings span lines', () => {
    const tokens = tokenize('`a\\n"b`\n"x\ny" z');
    expect(tokens[0].text).toBe('a\\n"b');
    expect(tokens[2].text).toBe('x\ny');
    expect(tokens[3].line).toBe(3);
  });

  it('skips comments and counts their lines', () => {
    const tokens = tokenize('// one\n/* two\nthree */ x');
    expect(tokens[0].text).toBe('x');
    expect(tokens[0].line).toBe(3);
  });

  it('treats runes above 127 as letters', () => {
    expect(tokenize('имя = 1')[0]).toMatchObject({ kind: 'ident', text: 'имя' });
  });

  it('rejects int64 overflow and bad characters with positions', () => {
    expect(() => tokenize('x = 9223372036854775808')).toThrow(
      'strconv.ParseInt: parsing "9223372036854775808": value out of range 9223372036854775808 [Ln:1 Col:5]',
    );
    expect(() => tokenize('x = 9223372036854775807')).not.toThrow();
    expect(() => tokenize('\n  ?')).toThrow(CompileError);
    try {
      tokenize('\n  ?');
    } catch (error) {
      expect([(error as CompileError).line, (error as CompileError).column]).toEqual([2, 3]);
    }
  });
});

describe('parser', () => {
  it('parses contracts with data, settings, sections and local funcs', () => {
    const ast = parseSource(`contract NewThing {
      data {
        ApplicationId int
        Name, Title string "optional"
      }
      settings {
        limit = 10
        label = "x"
        neg = -2
      }
      func check(name string) bool { return Size(name) > 0 }
      conditions { }
      func action { }
    }`);
    const contract = ast.decls[0];
    expect(contract.kind).toBe('contract');
    if (contract.kind !== 'contract') return;
    expect(contract.fields.map((f) => [f.name, f.type, f.tags])).toEqual([
      ['ApplicationId', 'int', ''],
      ['Name', 'string', 'optional'],
      ['Title', 'string', 'optional'],
    ]);
    expect(contract.settings.map((s) => [s.name, s.value])).toEqual([
      ['limit', 10n],
      ['label', 'x'],
      ['neg', -2n],
    ]);
    expect(contract.funcs.map((f) => f.name)).toEqual(['check']);
    expect(contract.conditions).not.toBeNull();
    expect(contract.action).not.toBeNull();
  });

  it('parses funcs with typed params, results, variadics and tails', () => {
    const ast = parseSource(
      'func Find(t string, a, b int).Where(w map).Limit(n int) array, int { }\nfunc v(first int, rest ...) { }',
    );
    const [find, variadic] = ast.decls;
    if (find.kind !== 'func' || variadic.kind !== 'func') throw new Error('not funcs');
    expect(find.params.map((p) => [p.name, p.type])).toEqual([
      ['t', 'string'],
      ['a', 'int'],
      ['b', 'int'],
    ]);
    expect(find.tails.map((t) => t.name)).toEqual(['Where', 'Limit']);
    expect(find.results).toEqual(['array', 'int']);
    expect(variadic.variadic).toBe(true);
    expect(variadic.params[1]).toMatchObject({ name: 'rest', type: null });
  });

  it('follows the precedence table', () => {
    const expr = parseExpression('a || b && c == d < e + f * -g');
    const shape = (e: ReturnType<typeof parseExpression>): unknown =>
      e.kind === 'binary'
        ? [e.operator, shape(e.left), shape(e.right)]
        : e.kind === 'unary'
          ? [e.operator, shape(e.operand)]
          : e.kind === 'var'
            ? e.name
            : e.kind;
    expect(shape(expr)).toEqual([
      '||',
      'a',
      ['&&', 'b', ['==', 'c', ['<', 'd', ['+', 'e', ['*', 'f', ['-', 'g']]]]]],
    ]);
  });

  it('parses call tails and contract calls', () => {
    const expr = parseExpression('DBFind("x").Where({id: 1}).Limit(5)');
    expect(expr).toMatchObject({
      kind: 'call',
      name: 'DBFind',
      tails: [{ name: 'Where' }, { name: 'Limit' }],
    });
    expect(parseExpression('@1Name("A,B", a, b)')).toMatchObject({
      kind: 'call',
      name: '1Name',
      prefixed: true,
    });
    expect(parseExpression('f(1, arr...)')).toMatchObject({ args: [{ spread: false }, { spread: true }] });
  });

  it('rejects multi-index, indexing a call, and expressions in literals', () => {
    // As the reference reports it: without the position (kept on the error for tools).
    expect(() => parseExpression('a[1][2]')).toThrow(/^multi-index is not supported$/);
    expect(() => parseExpression('a[1][2]')).toThrow(expect.objectContaining({ line: 1, column: 5 }));
    expect(() => parseExpression('f()[1]')).toThrow(CompileError);
    expect(() => parseExpression('[a + 1]')).toThrow('expecting string, int value or variable');
    expect(() => parseExpression('{k: f(1)}')).toThrow('expecting string, int value or variable');
  });

  it('accepts keyword, string and $name map keys', () => {
    const expr = parseExpression('{if: 1, "s p": 2, $x: 3, plain: nil}');
    expect(expr.kind === 'map' && expr.entries.map(([k]) => k)).toEqual(['if', 's p', '$x', 'plain']);
  });

  it('turns elif into a nested if', () => {
    const ast = parseSource(
      'func f(x int) int {\n if x == 1 { return 1 } elif x == 2 { return 2 } else { return 3 }\n}',
    );
    const func = ast.decls[0];
    if (func.kind !== 'func') throw new Error('not a func');
    const ifStmt = func.body.statements[0];
    expect(ifStmt.kind).toBe('if');
    if (ifStmt.kind !== 'if') return;
    expect(ifStmt.otherwise?.statements[0].kind).toBe('if');
  });

  it('reports the data-section errors of the reference', () => {
    expect(() => parseSource('contract A { data { 1x int } }')).toThrow(CompileError);
    expect(() => parseSource('contract A { data { Name } }')).toThrow('expecting type of the data field');
    expect(() => parseSource('contract A { data { Name string "a" "b" } }')).toThrow('unexpected tag');
  });
});
