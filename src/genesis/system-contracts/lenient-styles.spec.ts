import { describe, expect, it } from 'vitest';
import { parseSource, Vm } from '../../vm';
import { HOST_BUILTINS, PRELUDE } from '../../contract-host';
import { SYSTEM_CONTRACTS } from './index';

/** Keywords whose line, when it ends with `{`, opens a block or section. */
const BLOCK_HEADER =
  /^(\s*)(}\s*)?(if|elif|else|while|func|contract|data|settings|conditions|action)\b(.*)\s\{\s*$/;
const VAR_LINE = /^(\s*var\s+)(.*)$/;
const FUNC_HEADER = /^(\s*func\s+\w+)(.*)$/;

/**
 * Rewrites a source in the styles the reference accepts and our shipped sources do not use: names listed
 * without commas (`var a b int`, `func f(a b int)`), tails of a function header on the next line, and every
 * block's `{` on the line after its header.
 */
function restyle(source: string): string {
  const out: string[] = [];
  for (const line of source.split('\n')) {
    let text = line.replace(
      VAR_LINE,
      (_all, head: string, names: string) => head + names.replace(/,\s*/g, ' '),
    );
    const indent = /^\s*/.exec(text)![0];
    const header = FUNC_HEADER.exec(text);
    if (header) {
      const signature = header[2]
        .replace(/\(([^()]*)\)/g, (_all, params: string) => '(' + params.replace(/,\s*/g, ' ') + ')')
        .replace(/\)\./g, `)\n${indent}    .`);
      text = header[1] + signature;
    }
    const block = BLOCK_HEADER.exec(text);
    if (block) {
      const [, , close = '', keyword, rest] = block;
      text = `${indent}${close}${keyword}${rest}`;
    }
    if (block || (header && text.endsWith('{'))) {
      out.push(text.replace(/\s*\{$/, ''), `${indent}{`);
      continue;
    }
    out.push(text);
  }
  return out.join('\n');
}

/** The AST without source positions, to compare the meaning of two spellings of a program. */
function shape(source: string): unknown {
  return JSON.parse(
    JSON.stringify(parseSource(source), (key, value: unknown) =>
      key === 'line' || key === 'column' ? undefined : typeof value === 'bigint' ? `${value}n` : value,
    ),
  ) as unknown;
}

function newVm(prelude: string): Vm {
  const vm = new Vm();
  vm.builtins.registerAll(HOST_BUILTINS);
  vm.loadPrelude(prelude);
  return vm;
}

describe('system contracts in the lenient styles of the reference', () => {
  const restyled = SYSTEM_CONTRACTS.map((contract) => ({ ...contract, source: restyle(contract.source) }));

  it('are really rewritten: braces on their own line, names without commas, tails on the next line', () => {
    const all = restyled.map((c) => c.source).join('\n') + restyle(PRELUDE);
    expect(all).toMatch(/\n\s*(if|while|contract|func|conditions|action|data|else)\b[^\n{]*\n\s*\{\n/);
    expect(all).toMatch(/\n\s*var \w+ \w+ \w+\n/);
    expect(restyle(PRELUDE)).toMatch(/\)\n\s+\.Columns\(/);
    expect(restyle(PRELUDE)).toMatch(/\.Offset\(offset int\) array\n\{\n/);
    expect(all).not.toMatch(/\b(if|while|contract|data|settings|conditions|action)\b[^\n"]*\{\n/);
  });

  it('parse to the same program as the shipped sources', () => {
    expect(shape(restyle(PRELUDE))).toEqual(shape(PRELUDE));
    restyled.forEach((contract, index) => {
      expect(shape(contract.source), contract.name).toEqual(shape(SYSTEM_CONTRACTS[index].source));
    });
  });

  it('compile in genesis order with the host built-ins and a restyled prelude, to the same contracts', () => {
    const lenient = newVm(restyle(PRELUDE));
    const shipped = newVm(PRELUDE);
    restyled.forEach((contract, index) => {
      const meta = { tableId: index + 1, conditions: contract.conditions, appId: contract.appId };
      const compiled = lenient.compileSource(contract.source, { ecosystem: 1, meta });
      shipped.compileSource(SYSTEM_CONTRACTS[index].source, { ecosystem: 1, meta });
      expect(compiled.names, contract.name).toEqual([contract.name]);
      const info = lenient.contractInfo(contract.name)!;
      const expected = shipped.contractInfo(contract.name)!;
      expect({ ...info, meta: undefined }, contract.name).toEqual({ ...expected, meta: undefined });
      expect(lenient.getContract(contract.name)!.writesDb).toBe(shipped.getContract(contract.name)!.writesDb);
    });
  });
});
