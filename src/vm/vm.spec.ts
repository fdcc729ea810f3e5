import { describe, expect, it } from 'vitest';
import { CompileError, Vm, VmError, type BuiltinContext, type Value } from '.';
import { snakeCase } from './builtins/registry';

describe('Vm API', () => {
  it('compiles in extern mode with contracts defined later', async () => {
    const vm = new Vm();
    expect(() =>
      vm.compileSource('contract A {\n  action {\n    $result = B()\n  }\n}', { ecosystem: 1 }),
    ).toThrow(CompileError);
    vm.compileSource('contract A {\n  action {\n    $result = B()\n  }\n}', { ecosystem: 1, extern: true });
    vm.compileSource('contract B {\n  action {\n    $result = "b"\n  }\n}', { ecosystem: 1 });
    expect((await vm.runContract('A', new Map(), {})).result).toBe('b');
  });

  it('extern call sites reach a function defined later', async () => {
    const vm = new Vm();
    vm.compileSource('contract A {\n  action {\n    $result = Later(2)\n  }\n}', {
      ecosystem: 1,
      extern: true,
    });
    vm.compileSource('func Later(n int) int {\n  return n * 2\n}', { ecosystem: 1 });
    expect((await vm.runContract('A', new Map(), {})).result).toBe('4');
  });

  it('loads a prelude whose functions are global', async () => {
    const vm = new Vm();
    vm.builtins.register({
      name: 'DBSelect',
      fn: async (_ctx, table) => [
        new Map<string, Value>([
          ['id', '1'],
          ['table', table],
        ]),
      ],
    });
    vm.loadPrelude('func DBFind(table string).Where(where map) array {\n  return DBSelect(table)\n}');
    vm.compileSource(
      'contract A {\n  action {\n    $result = DBFind("pages").Where({id: 1}).One("table")\n  }\n}',
      { ecosystem: 2 },
    );
    expect((await vm.runContract('@2A', new Map(), {})).result).toBe('pages');
  });

  it('evaluates conditions with fast paths, a cache and its own budget', async () => {
    const vm = new Vm();
    let calls = 0;
    vm.builtins.register({
      name: 'RoleAccess',
      async: false,
      fn: (ctx: BuiltinContext, id: Value) => {
        calls++;
        return ctx.getVar('key_id') === id;
      },
    });
    expect(await vm.evalCondition('1')).toBe(true);
    expect(await vm.evalCondition('false')).toBe(false);
    expect(await vm.evalCondition('0')).toBe(false);
    const tx = { vars: { key_id: 5n, ecosystem_id: 1n } };
    expect(await vm.evalCondition('RoleAccess(5)', { tx })).toBe(true);
    expect(await vm.evalCondition('RoleAccess(6) || $key_id == 5', { tx })).toBe(true);
    expect(calls).toBe(2);
    await expect(vm.evalCondition('Size("a") > 0 && 1 == 2')).resolves.toBe(false);
    await expect(vm.evalCondition('nope(')).rejects.toBeInstanceOf(VmError);
    const loop = 'Len(Split("a,b,c,d,e,f,g,h,i,j,k", ",")) > 0';
    await expect(vm.evalCondition(loop, { fuelLimit: 10 })).rejects.toThrow('runtime cost limit overflow');
  });

  it('runs contract conditions alone', async () => {
    const vm = new Vm();
    vm.compileSource(
      'contract MainCondition {\n  conditions {\n    if $key_id != 1 {\n      warning "Sorry, you do not have access to this action"\n    }\n  }\n}',
      {
        ecosystem: 1,
      },
    );
    await expect(
      vm.runConditions('MainCondition', { tx: { vars: { key_id: 1n } } }),
    ).resolves.toBeUndefined();
    await expect(vm.runConditions('MainCondition', { tx: { vars: { key_id: 2n } } })).rejects.toMatchObject({
      type: 'warning',
    });
  });

  it('describes a contract for the contract endpoint', () => {
    const vm = new Vm();
    vm.compileSource(
      'contract Thing {\n  data {\n    B int\n    A string "optional date"\n    F file "optional"\n  }\n  settings {\n    x = 1\n  }\n}',
      {
        ecosystem: 3,
        meta: { tableId: 12, walletId: 9n, conditions: 'ContractConditions("MainCondition")' },
      },
    );
    const info = vm.contractInfo('Thing', 3)!;
    expect(info).toMatchObject({ name: '@3Thing', id: 5012, tableId: 12, ecosystem: 3, settings: { x: 1n } });
    expect(info.fields).toEqual([
      { name: 'B', type: 'int', optional: false },
      { name: 'A', type: 'string', optional: true },
      { name: 'F', type: 'file', optional: true },
    ]);
    expect(info.meta.walletId).toBe(9n);
  });

  it('charges fuel: start cost, instructions, $ reads, calls and built-in prices', async () => {
    const vm = new Vm();
    vm.compileSource('contract A {\n  data {\n    N int\n  }\n  action {\n    $result = Size("ab")\n  }\n}', {
      ecosystem: 1,
    });
    const cheap = await vm.runContract(
      'A',
      new Map([['N', 1n]]),
      {},
      { prices: new Map([['price_exec_size', 5]]) },
    );
    const dear = await vm.runContract('A', new Map([['N', 1n]]), {});
    // start 100 + 50 (action) + 10 (one field); statement 1 + call 1 + literal 1 + target 1; Size 5 or 50
    expect(cheap.fuelUsed).toBe(160 + 4 + 5);
    expect(dear.fuelUsed).toBe(160 + 4 + 50);
    expect(snakeCase('DBInsert')).toBe('db_insert');
    expect(snakeCase('JSONEncode')).toBe('json_encode');
    expect(snakeCase('AddressToId')).toBe('address_to_id');
  });

  it('reports fuel used on failure', async () => {
    const vm = new Vm();
    vm.compileSource('contract A {\n  action {\n    while true {\n    }\n  }\n}', { ecosystem: 1 });
    const failure = await vm.runContract('A', new Map(), {}, { fuelLimit: 5000 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VmError);
    expect((failure as VmError & { fuelUsed: number }).fuelUsed).toBe(5000);
    expect((failure as VmError).toJSONString()).toBe(
      '{"type":"panic","error":"runtime cost limit overflow"}',
    );
  });

  it('stops at a wall-clock deadline', async () => {
    const vm = new Vm();
    vm.compileSource('contract A {\n  action {\n    while true {\n    }\n  }\n}', { ecosystem: 1 });
    const started = Date.now();
    await expect(
      vm.runContract('A', new Map(), {}, { fuelLimit: 1e15, deadline: Date.now() + 50 }),
    ).rejects.toThrow('time limit exceeded');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('keeps pure code synchronous and suspends only on async paths', async () => {
    const vm = new Vm();
    const order: string[] = [];
    vm.builtins.register({
      name: 'Later',
      fn: (_ctx, value) =>
        new Promise<Value>((resolve) =>
          setTimeout(() => {
            order.push(`later ${String(value)}`);
            resolve(value);
          }, 1),
        ),
    });
    const compiled = vm.compileSource(
      'func pure(n int) int {\n  return n + 1\n}\nfunc suspends(n int) int {\n  return Later(n)\n}',
      { ecosystem: 1 },
    );
    const [pure, suspends] = compiled.objects;
    expect(pure.kind === 'func' && pure.isAsync).toBe(false);
    expect(suspends.kind === 'func' && suspends.isAsync).toBe(true);
    vm.compileSource(
      'contract A {\n  action {\n    $result = Str(pure(1)) + Str(suspends(2)) + Str(Later(3))\n  }\n}',
      { ecosystem: 1 },
    );
    expect((await vm.runContract('A', new Map(), {})).result).toBe('223');
    expect(order).toEqual(['later 2', 'later 3']);
  });

  it('rejects a synchronous built-in that returns a promise', async () => {
    const vm = new Vm();
    vm.builtins.register({ name: 'Liar', async: false, fn: async () => 1n });
    vm.compileSource('contract A {\n  action {\n    $result = Liar()\n  }\n}', { ecosystem: 1 });
    await expect(vm.runContract('A', new Map(), {})).rejects.toThrow('registered as synchronous');
  });

  it('lets built-ins call contracts and read $ variables', async () => {
    const vm = new Vm();
    vm.builtins.register({
      name: 'Relay',
      fn: (ctx: BuiltinContext, name: Value) =>
        ctx.callContract(String(name), new Map([['V', ctx.getVar('Base') ?? null]])),
    });
    vm.compileSource(
      'contract Target {\n  data {\n    V string\n  }\n  action {\n    $result = $V + "!"\n  }\n}',
      { ecosystem: 1 },
    );
    vm.compileSource(
      'contract A {\n  data {\n    Base string\n  }\n  action {\n    $result = Relay("Target")\n  }\n}',
      { ecosystem: 1 },
    );
    expect((await vm.runContract('A', new Map([['Base', 'hi']]), {})).result).toBe('hi!');
  });

  it('refuses a condition whose value is not a bool (the evaluator declares a bool result)', async () => {
    const vm = new Vm();
    await expect(vm.evalCondition('"yes"')).rejects.toThrow(
      "function 'eval' return index[0] (type string) cannot be represented by the type bool",
    );
    await expect(vm.evalCondition('1 + 1')).rejects.toThrow(
      '(type int64) cannot be represented by the type bool',
    );
    await expect(vm.evalCondition('2 > 1')).resolves.toBe(true);
  });

  it('stops a contract that holds more than 128 MB with the reference error', async () => {
    const vm = new Vm();
    vm.compileSource(
      'contract Grow {\n  action {\n    var s string\n    s = "0123456789abcdef"\n    while true {\n      s = s + s\n    }\n  }\n}',
      { ecosystem: 1 },
    );
    await expect(vm.runContract('Grow', new Map(), {})).rejects.toMatchObject({
      type: 'panic',
      text: 'Memory limit exceeded',
    });
    vm.compileSource(
      'contract Rows {\n  action {\n    var rows array\n    var i int\n    while true {\n      var row array\n      row[99999] = i\n      rows[i] = row\n      i = i + 1\n    }\n  }\n}',
      { ecosystem: 1 },
    );
    await expect(vm.runContract('Rows', new Map(), {})).rejects.toMatchObject({
      text: 'Memory limit exceeded',
    });
  });

  it('counts the memory of locals and $ variables, and frees what a finished call held', async () => {
    const vm = new Vm();
    vm.compileSource(
      'func big() int {\n  var a array\n  a[9999] = 1\n  return MemoryUsage()\n}\ncontract M {\n  action {\n    var before, inside int\n    $text = "0123456789"\n    before = MemoryUsage()\n    inside = big()\n    $result = Sprintf("%v %v %v", before > 10, inside > before + 10000, MemoryUsage() < inside)\n  }\n}',
      { ecosystem: 1 },
    );
    expect((await vm.runContract('M', new Map(), {})).result).toBe('true true true');
  });

  it('recompiles the callers of a top-level function that is replaced', async () => {
    const vm = new Vm();
    vm.builtins.register({ name: 'Later', params: 1, fn: async (_ctx, value) => value });
    vm.compileSource('func F(n int) int {\n  return n + 1\n}', { ecosystem: 1 });
    vm.compileSource('func G(n int) int {\n  return F(n) * 10\n}', { ecosystem: 1 });
    vm.compileSource('contract A {\n  action {\n    $result = G(1)\n  }\n}', {
      ecosystem: 1,
      meta: { tableId: 7 },
    });
    expect((await vm.runContract('A', new Map(), {})).result).toBe('20');

    // The new F suspends (an async built-in): G and A are compiled again, so they wait for it.
    vm.compileSource('func F(n int) int {\n  return Later(n + 2)\n}', { ecosystem: 1 });
    expect((await vm.runContract('A', new Map(), {})).result).toBe('30');
    expect(vm.registry.getByTableId(7)?.name).toBe('A');

    // Undone with the registry transaction that made it.
    const tx = vm.registry.begin();
    vm.compileSource('func F(n int) int {\n  return n + 5\n}', { ecosystem: 1 });
    expect((await vm.runContract('A', new Map(), {})).result).toBe('60');
    vm.registry.rollback(tx);
    expect((await vm.runContract('A', new Map(), {})).result).toBe('30');

    // A caller that no longer fits fails when it runs, not when the function is edited.
    vm.compileSource('func F(n int, m int) int {\n  return n + m\n}', { ecosystem: 1 });
    await expect(vm.runContract('A', new Map(), {})).rejects.toThrow('function F must have 2 parameters');
  });

  it('runs an unknown contract as a panic', async () => {
    const vm = new Vm();
    await expect(vm.runContract('Nope', new Map(), {})).rejects.toMatchObject({ type: 'panic' });
  });
});
