import { describe, expect, it } from 'vitest';
import { Vm } from '.';

const source = (text: string): string => `contract Hello {\n  action {\n    $result = "${text}"\n  }\n}`;

describe('object registry', () => {
  it('registers contracts with their row data and finds them by name, key and id', () => {
    const vm = new Vm();
    const compiled = vm.compileSource(source('v1'), {
      ecosystem: 1,
      meta: { tableId: 24, conditions: 'true' },
    });
    expect(compiled.names).toEqual(['Hello']);
    expect(vm.registry.get('@1Hello')?.kind).toBe('contract');
    expect(vm.registry.getById(5024)?.key).toBe('@1Hello');
    expect(vm.registry.getByTableId(24)?.meta.conditions).toBe('true');
    expect(vm.getContract('Hello')?.key).toBe('@1Hello');
    expect(vm.getContract('@1Hello')?.key).toBe('@1Hello');
  });

  it('rolls back a failed transaction to the previous compiled objects', async () => {
    const vm = new Vm();
    vm.compileSource(source('v1'), { ecosystem: 1, meta: { tableId: 1 } });
    const token = vm.registry.begin();
    vm.compileSource(source('v2'), { ecosystem: 1, meta: { tableId: 1 } });
    vm.compileSource('contract Other {\n  action {\n  }\n}', { ecosystem: 1, meta: { tableId: 2 } });
    expect((await vm.runContract('Hello', new Map(), {})).result).toBe('v2');
    vm.registry.rollback(token);
    expect((await vm.runContract('Hello', new Map(), {})).result).toBe('v1');
    expect(vm.registry.has('@1Other')).toBe(false);
    expect(vm.registry.getById(5002)).toBeUndefined();
    expect(vm.registry.getById(5001)?.key).toBe('@1Hello');
  });

  it('commits nested transactions into the outer one, which can still roll back', async () => {
    const vm = new Vm();
    vm.compileSource(source('v1'), { ecosystem: 1 });
    const block = vm.registry.begin();
    const tx1 = vm.registry.begin();
    vm.compileSource(source('v2'), { ecosystem: 1 });
    vm.registry.commit(tx1);
    const tx2 = vm.registry.begin();
    vm.compileSource(source('v3'), { ecosystem: 1 });
    vm.registry.rollback(tx2);
    expect((await vm.runContract('Hello', new Map(), {})).result).toBe('v2');
    vm.registry.rollback(block);
    expect((await vm.runContract('Hello', new Map(), {})).result).toBe('v1');
  });

  it('keeps committed changes when there is no outer transaction', async () => {
    const vm = new Vm();
    const token = vm.registry.begin();
    vm.compileSource(source('kept'), { ecosystem: 1 });
    vm.registry.commit(token);
    expect(vm.registry.depth).toBe(0);
    expect((await vm.runContract('Hello', new Map(), {})).result).toBe('kept');
  });

  it('refuses to close a transaction that is not the innermost', () => {
    const vm = new Vm();
    const outer = vm.registry.begin();
    vm.registry.begin();
    expect(() => vm.registry.commit(outer)).toThrow('not the innermost');
  });

  it('journals meta updates and deletions', () => {
    const vm = new Vm();
    vm.compileSource(source('x'), { ecosystem: 1, meta: { tableId: 7, walletId: 1n } });
    const token = vm.registry.begin();
    vm.registry.updateMeta('@1Hello', { walletId: 5n });
    expect(vm.registry.getContract('@1Hello')?.meta.walletId).toBe(5n);
    vm.registry.delete('@1Hello');
    expect(vm.registry.getById(5007)).toBeUndefined();
    vm.registry.rollback(token);
    expect(vm.registry.getById(5007)?.meta.walletId).toBe(1n);
  });

  it('tells the top-level names of a source and compares them', () => {
    const vm = new Vm();
    const text = 'contract A {\n}\nfunc b() {\n}';
    expect(vm.sourceNames(text)).toEqual(['A', 'b']);
    expect(vm.sameNames(text, 'func b() {\n}\ncontract A {\n  action {\n  }\n}')).toBe(true);
    expect(vm.sameNames(text, 'contract A {\n}')).toBe(false);
  });
});
