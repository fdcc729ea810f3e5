import { describe, expect, it } from 'vitest';
import { CompileError, Vm, VmError, type Value } from '..';
import { arithmeticCases } from './arithmetic.cases';
import { builtinCases } from './builtins.cases';
import { callCases } from './calls.cases';
import { collectionCases } from './collections.cases';
import { compileCases } from './compile.cases';
import { contractCases } from './contracts.cases';
import { controlCases } from './control.cases';
import { errorCases } from './errors.cases';
import { formatCases } from './format.cases';
import { languageCases } from './language.cases';
import { stringCases } from './strings.cases';
import type { ConformanceCase } from './types';

const suites: Record<string, ConformanceCase[]> = {
  arithmetic: arithmeticCases,
  strings: stringCases,
  collections: collectionCases,
  control: controlCases,
  calls: callCases,
  contracts: contractCases,
  errors: errorCases,
  compile: compileCases,
  format: formatCases,
  language: languageCases,
  builtins: builtinCases,
};

const TX_VARS: Record<string, Value> = {
  key_id: -110277540701013350n,
  ecosystem_id: 1n,
  custom_flag: 1n,
  block: 7n,
  block_time: 1562032800n,
  txhash: 'a1b2c3',
};

/** A VM with the test doubles for host built-ins: an async echo, an async failure, and a DB writer. */
function newVm(): Vm {
  const vm = new Vm();
  vm.builtins.register({ name: 'AsyncEcho', params: 1, fn: async (_ctx, value) => value });
  vm.builtins.register({
    name: 'AsyncFail',
    params: 1,
    fn: async (_ctx, message) => {
      throw new Error(String(message));
    },
  });
  vm.builtins.register({
    name: 'FakeWrite',
    params: 1,
    writesDb: true,
    fn: async (_ctx, table) => `wrote ${String(table)}`,
  });
  return vm;
}

function compileAll(vm: Vm, testCase: ConformanceCase): string | undefined {
  for (const extra of testCase.before ?? []) {
    const match = /^@(\d+):/.exec(extra);
    vm.compileSource(match ? extra.slice(match[0].length) : extra, {
      ecosystem: match ? Number(match[1]) : 1,
    });
  }
  const compiled = vm.compileSource(testCase.source, { ecosystem: 1 });
  return testCase.contract ?? compiled.objects.find((o) => o.kind === 'contract')?.name;
}

async function run(testCase: ConformanceCase): Promise<void> {
  const vm = newVm();
  const expectation = testCase.expect;
  if ('compileError' in expectation) {
    let thrown: unknown;
    try {
      compileAll(vm, testCase);
    } catch (error) {
      thrown = error;
    }
    expect(thrown, 'expected a compile error').toBeInstanceOf(CompileError);
    const error = thrown as CompileError;
    expect(error.reason).toContain(expectation.compileError.message);
    expect([error.line, error.column]).toEqual([expectation.compileError.line, expectation.compileError.col]);
    return;
  }
  const contract = compileAll(vm, testCase);
  expect(contract, 'the source must declare a contract').toBeDefined();
  const params = new Map(Object.entries(testCase.params ?? {}));
  const running = vm.runContract(
    contract!,
    params,
    { vars: TX_VARS },
    { fuelLimit: testCase.fuelLimit ?? 10_000_000 },
  );
  if ('result' in expectation) {
    const { result } = await running;
    expect(result).toBe(expectation.result);
    return;
  }
  let thrown: unknown;
  try {
    await running;
  } catch (error) {
    thrown = error;
  }
  expect(thrown, 'expected a run-time error').toBeInstanceOf(VmError);
  const error = thrown as VmError;
  expect(error.type).toBe(expectation.error.type);
  if (expectation.error.exact) expect(error.text).toBe(expectation.error.message);
  else expect(error.text).toContain(expectation.error.message);
}

describe('contract language conformance', () => {
  for (const [suite, cases] of Object.entries(suites)) {
    describe(suite, () => {
      for (const testCase of cases) it(testCase.name, () => run(testCase));
    });
  }

  it('has at least 150 cases with unique names', () => {
    const all = Object.values(suites).flat();
    expect(all.length).toBeGreaterThanOrEqual(150);
    expect(new Set(all.map((c) => c.name)).size).toBe(all.length);
  });
});
