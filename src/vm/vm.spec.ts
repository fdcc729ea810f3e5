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

  it('runs an unknown contract as a panic', async () => {
    const vm = new Vm();
    await expect(vm.runContract('Nope', new Map(), {})).rejects.toMatchObject({ type: 'panic' });
  });
});
