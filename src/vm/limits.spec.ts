import { describe, expect, it } from 'vitest';
import { goJsonString, jsonStringLength, JSON_LENGTH, TEXT_LENGTH, goJsonEncode, goString } from './format';
import { MAX_STRING_LENGTH, SizeFold, valueCost } from './memory';
import { CompileError, MONEY_OVERFLOW, Vm, type Value } from './index';

/** Runs `action` as the body of a fresh contract; resolves to its result, or rejects with its error. */
async function run(action: string, options: { deadline?: number; fuelLimit?: number } = {}): Promise<string> {
  const vm = new Vm();
  vm.compileSource(`contract C {\n  action {\n${action}\n  }\n}`, { ecosystem: 1 });
  const deadline = options.deadline ?? Date.now() + 10_000;
  return (await vm.runContract('C', new Map(), {}, { deadline, fuelLimit: options.fuelLimit })).result;
}

const doubled = (name: string, atLeast: number) =>
  `var ${name} string\n${name} = "0123456789abcdef"\nwhile Size(${name}) < ${atLeast} { ${name} = ${name} + ${name} }`;

describe('memory', () => {
  it('counts an array shared by many values once, and stops one that really grows', async () => {
    const shared: Value[] = new Array<Value>(1000).fill(0n);
    expect(valueCost([shared, shared, shared])).toBeLessThan(2 * valueCost(shared));
    await expect(
      run('var a array\nvar b array\nwhile true {\n  b = [a, a]\n  a = b\n}'),
    ).rejects.toMatchObject({
      type: 'panic',
      text: 'Memory limit exceeded',
    });
  });

  it('counts the results an expression is still working with', async () => {
    const many = Array.from({ length: 12 }, () => 'ToUpper(s)').join(', ');
    await expect(
      run(`${doubled('s', 8_000_000)}\n$result = Size(Sprintf("%d", ${many}))`),
    ).rejects.toMatchObject({ text: 'Memory limit exceeded' });
  });

  it('refuses a string longer than the longest a contract may make, before making it', async () => {
    await expect(run(`${doubled('s', MAX_STRING_LENGTH + 1)}`)).rejects.toMatchObject({
      text: 'Memory limit exceeded',
    });
    expect(await run(`${doubled('s', MAX_STRING_LENGTH)}\n$result = Size(s)`)).toBe(
      String(MAX_STRING_LENGTH),
    );
  });

  it('refuses the text of a structure that shares its parts exponentially, at once', async () => {
    const build =
      'var a array\nvar b array\nvar i int\nwhile i < 60 {\n  b = [a, a]\n  a = b\n  i = i + 1\n}';
    const started = Date.now();
    await expect(run(`${build}\n$result = Str(a)`)).rejects.toMatchObject({ text: 'Memory limit exceeded' });
    await expect(run(`${build}\n$result = JSONEncode(a)`)).rejects.toMatchObject({
      text: 'Memory limit exceeded',
    });
    // A bound that catches the exponential walk (minutes), not a busy machine.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps arrays a built-in makes within the reach of assignments', async () => {
    await expect(
      run('var s string\ns = "aa"\nwhile Size(s) < 1100000 { s = s + s }\n$result = Len(Split(s, ""))'),
    ).rejects.toMatchObject({
      text: 'Memory limit exceeded',
    });
  });

  it('measures text and JSON as the encoders write them', () => {
    const values: Value[] = [
      [1n, 'a"b', new Map<string, Value>([['k<', [true, null, 1.5]]])],
      new Map<string, Value>([
        ['x', 'é\u2028\ud800'],
        ['y', new Uint8Array([1, 200])],
      ]),
    ];
    for (const value of values) {
      expect(new SizeFold(JSON_LENGTH).of(value)).toBe(goJsonEncode(value).length);
      expect(new SizeFold(TEXT_LENGTH).of(value)).toBeGreaterThanOrEqual(goString(value).length);
    }
    for (const text of ['', 'plain', '"\\\n<>&', '\u0001\ud83d\ude00\udc00']) {
      expect(jsonStringLength(text)).toBe(goJsonString(text).length);
    }
  });
});

describe('money', () => {
  it('holds at most 120 digits', async () => {
    expect(await run(`var m money\nm = Money("${'9'.repeat(120)}")\n$result = Str(m)`)).toBe('9'.repeat(120));
    await expect(run(`var m money\nm = Money("1${'0'.repeat(120)}")`)).rejects.toMatchObject({
      text: MONEY_OVERFLOW,
    });
    await expect(run('var m money\nm = Money(10)\nwhile true { m = m * m }')).rejects.toMatchObject({
      text: MONEY_OVERFLOW,
    });
    await expect(run('$result = Str(Money("1e1000000"))')).rejects.toMatchObject({ text: MONEY_OVERFLOW });
  });
});

describe('time', () => {
  it('lets the event loop run while a long loop runs, and still meets the deadline', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = Date.now();
    try {
      await expect(
        // Fuel without end: on a fast machine the default fuel ran out before the 300 ms did.
        run('var i int\nwhile true { i = i + 1 }', {
          deadline: Date.now() + 300,
          fuelLimit: Number.MAX_SAFE_INTEGER,
        }),
      ).rejects.toMatchObject({
        text: 'time limit exceeded',
      });
    } finally {
      clearInterval(timer);
    }
    // The timer ran while the loop did (about 60 ticks on an idle machine; a loaded one gives fewer).
    expect(ticks).toBeGreaterThan(2);
    // Stopped near the deadline: the bound catches a loop that ignores it, not a busy machine.
    expect(Date.now() - started).toBeLessThan(300 + 2000);
  });

  it('refuses a source too long to compile at once', () => {
    const vm = new Vm();
    const body = '  $result = 1\n'.repeat(10_000);
    expect(() => vm.compile(`contract Long {\n  action {\n${body}  }\n}`, { ecosystem: 1 })).toThrow(
      CompileError,
    );
    expect(() => vm.compile(`contract Long {\n  action {\n${body}  }\n}`, { ecosystem: 1 })).toThrow(
      /^the source is too long \(\d+ characters, at most 131072\)/,
    );
  });
});
