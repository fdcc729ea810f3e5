/**
 * What a contract value really costs in V8's heap: the numbers behind the VM's memory accounting
 * (`src/vm/memory.ts`). Each line builds COUNT values of one shape, keeps them in an array, and reads the
 * heap growth after a full collection; the array's own slot (8 bytes) is taken off.
 *
 *   node --expose-gc -r @swc-node/register bench/value-costs.ts
 */
import Decimal from 'decimal.js';
import { MoneyDecimal } from '../src/vm';

const COUNT = 200_000;

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
}

function perValue(name: string, make: (i: number) => unknown): number {
  collect();
  const before = process.memoryUsage().heapUsed;
  const keep = new Array<unknown>(COUNT);
  for (let i = 0; i < COUNT; i++) keep[i] = make(i);
  collect();
  const bytes = (process.memoryUsage().heapUsed - before) / COUNT - 8;
  console.log(`${name.padEnd(44)} ${bytes.toFixed(1).padStart(8)} bytes`);
  // Keeps the values alive until after the measurement.
  if (keep.length !== COUNT) throw new Error('unreachable');
  return bytes;
}

/** Flat (sequential) strings, as the database driver and the VM's built-ins produce them. */
const ascii = (n: number) => (i: number) =>
  Buffer.from(('x'.repeat(n) + i).slice(-n), 'latin1').toString('latin1');
const twoByte = (n: number) => (i: number) =>
  Buffer.from(('ж'.repeat(n) + i).slice(-n), 'utf16le').toString('utf16le');

function main(): void {
  console.log(`Node ${process.version}, ${process.arch}; ${COUNT} values per line\n`);
  perValue('int (BigInt 0 .. 2^62)', (i) => BigInt(i) * 4611686018427n);
  perValue('float (boxed double)', (i) => i + 0.5);
  for (const n of [1, 8, 16, 64, 256]) perValue(`string, ${n} one-byte chars`, ascii(n));
  for (const n of [8, 64]) perValue(`string, ${n} two-byte chars`, twoByte(n));
  perValue('string, sliced (16 of a 1 KB string)', (i) => {
    const base = 'y'.repeat(1024) + i;
    return base.slice(100, 116);
  });
  perValue('string, cons (a + b, 2 × 32 chars)', (i) => ascii(32)(i) + ascii(32)(i + 1));
  perValue('string, empty (from a built-in)', (i) => ascii(8)(i).slice(0, 0));
  perValue('array, empty []', () => []);
  for (const n of [1, 4, 16, 64]) perValue(`array of ${n} nil`, () => new Array(n).fill(null));
  for (const n of [1, 4, 16, 64, 1024]) {
    // How `a[i] = x` grows an array (runtime.ts setIndex): element by element.
    perValue(`array of ${n} nil, grown element by element`, () => {
      const a: unknown[] = [];
      for (let k = 0; k < n; k++) a.push(null);
      return a;
    });
  }
  perValue('map, empty', () => new Map());
  for (const n of [1, 4, 16, 64]) {
    perValue(`map of ${n} entries (shared keys, nil values)`, () => {
      const m = new Map<string, unknown>();
      for (let k = 0; k < n; k++) m.set(KEYS[k], null);
      return m;
    });
  }
  perValue('bytes, empty Uint8Array', () => new Uint8Array(0));
  perValue('bytes, Uint8Array(64)', () => new Uint8Array(64));
  perValue('money 0', () => new MoneyDecimal(0));
  perValue('money, 7 digits', (i) => new MoneyDecimal(1_000_000 + i));
  perValue('money, 30 digits', (i) => new MoneyDecimal('123456789012345678901234567890').plus(i));
  perValue('money, 120 digits', (i) => new MoneyDecimal('9'.repeat(119) + '1').plus(i));
  if (!(new MoneyDecimal(1) instanceof Decimal)) throw new Error('MoneyDecimal is a Decimal');
}

const KEYS = Array.from({ length: 64 }, (_, k) => `key_${k}`);

main();
