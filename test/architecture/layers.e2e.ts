import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Imports run downward. `src/` is a stack of units, lowest first; a file may import from its own unit and
 * from the units below it, never from one above. The domains at the top are in an order that follows the
 * Nest module graph (a module imports only modules before it), so two domains never import each other.
 * A unit is the longest folder of this list that holds the file; files directly in `src/` are the top.
 */
const UNITS = [
  // CPU work on threads of its own, in batches (signature checks, a block's compression)
  'threads',
  'crypto',
  'config',
  'vm',
  // the consensus core: the chain's decisions without I/O (the node and the simulator drive it)
  'consensus',
  'common',
  'template',
  // the vocabulary of route descriptions (schemas, @ApiRoute) and the OpenAPI document built from it
  'api-docs',
  // the request path every route shares: the core module, body parsing, gates, the request log, answers
  'http',
  'database',
  // the tables' rows: each domain's entities, declarations over TypeORM alone, which any code that reads or
  // writes a table names its columns and rows by (docs/architecture.md, Storage)
  'accounts/entities',
  'binaries/entities',
  'blocks/entities',
  'contracts/entities',
  'ecosystem/entities',
  'interface/entities',
  'notify/entities',
  'params/entities',
  'tables/entities',
  'tx/entities',
  'prometheus',
  // the chain's core: codecs, node identity and crypto, parameters, events, ecosystem seed, ban and limit rules
  'chain',
  // the one table-access library: catalogue, where, order, values, read permissions
  'table-access',
  'rpc',
  'contract-host',
  // the first block: the platform's parameters, tables, system contracts and pages
  'genesis',
  'contracts',
  // blocks made, received and taken back: above the contracts they run
  'producer',
  'notify',
  'system',
  'health',
  'ecosystem',
  'params',
  'accounts',
  'binaries',
  'interface',
  'tables',
  'tx',
  'auth',
  'blocks',
  'pages',
  'metrics',
  // the honor-node network: above the producer (blocks made, received, rolled back) and tx (passed on)
  'network',
  // JSON-RPC over WebSocket and its subscriptions: above the domains whose news it carries
  'live',
  'ops',
  'sdk',
  '',
] as const;

const SRC = resolve(__dirname, '../../src');

function unitOf(file: string): number {
  const path = relative(SRC, file).split('\\').join('/');
  let best = UNITS.length - 1;
  let bestLength = -1;
  UNITS.forEach((unit, index) => {
    if (unit && (path === unit || path.startsWith(`${unit}/`)) && unit.length > bestLength) {
      best = index;
      bestLength = unit.length;
    }
  });
  return best;
}

function resolveImport(from: string, specifier: string): string {
  return resolve(dirname(from), specifier);
}

const IMPORT = /(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function upwardImports(): string[] {
  const found: string[] = [];
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'),
  );
  for (const file of files) {
    const path = join(SRC, file);
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveImport(path, match[1]);
      if (!target.startsWith(SRC)) continue;
      const from = unitOf(path);
      const to = unitOf(target);
      if (to > from) {
        found.push(
          `${file} (${UNITS[from] || 'src'}) imports ${relative(SRC, target)} (${UNITS[to] || 'src'})`,
        );
      }
    }
  }
  return found;
}

/** The file an import names: `x.ts`, or `x/index.ts` for a folder. */
function importedFile(from: string, specifier: string): string | undefined {
  const target = resolveImport(from, specifier);
  return [`${target}.ts`, join(target, 'index.ts'), target].find(
    (candidate) => candidate.endsWith('.ts') && existsSync(candidate),
  );
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'),
  );
  for (const file of files) {
    const path = join(SRC, file);
    const imported = [...readFileSync(path, 'utf8').matchAll(IMPORT)]
      .map((match) => importedFile(path, match[1]))
      .filter((target): target is string => target !== undefined);
    graph.set(path, imported);
  }
  return graph;
}

/** The groups of files that import one another in a circle (strongly connected, two files or more). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, order.size);
    lowest.set(node, order.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(node, Math.min(lowest.get(node)!, lowest.get(next)!));
      } else if (stack.includes(next)) {
        lowest.set(node, Math.min(lowest.get(node)!, order.get(next)!));
      }
    }
    if (lowest.get(node) === order.get(node)) {
      const group = stack.splice(stack.indexOf(node));
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return found;
}

describe('the layers of src/', () => {
  it('every import runs downward', () => {
    expect(upwardImports()).toEqual([]);
  });

  it('the check sees an upward import (a domain imported by the chain core)', () => {
    const from = join(SRC, 'chain/chain-memo.ts');
    expect(unitOf(from)).toBeLessThan(unitOf(resolveImport(from, '../tables/tables.service')));
  });

  it('no files import one another in a circle, but within the contract language (vm/)', () => {
    // The built-ins' registry lists every family and each family registers itself in it, and the
    // compiler's parts call one another as the grammar nests (a function body holds statements, which
    // hold expressions, which hold function calls): one module of the language split over files.
    const language = join(SRC, 'vm/');
    const found = circles(importGraph())
      .filter((group) => !group.every((file) => file.startsWith(language)))
      .map((group) => group.map((file) => relative(SRC, file)));
    expect(found).toEqual([]);
  });

  it('the check sees a circle', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
