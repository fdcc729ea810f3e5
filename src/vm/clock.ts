import { Worker } from 'node:worker_threads';

/**
 * A clock the interpreter can read for the price of one memory load. Reading the real time at every loop
 * turn would cost more than the turn itself, and counting turns says nothing about time when a turn calls
 * a slow built-in; so a worker thread bumps a shared counter every TICK_MS while an execution runs, and
 * compiled loops and calls compare it with the value they saw last. Only when it moved do they read the
 * real time (the deadline, the time slice).
 */
export const TICK_MS = 5;

/** [0]: ticks; [1]: executions running; [2]: never written, slept on. */
const state = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
const TICKS = 0;
const RUNNING = 1;
/**
 * Ticks the clock goes on for once no execution runs, before it sleeps until one starts: a block runs
 * transactions one after another, and waking the worker for each would cost a thread switch each.
 */
const LINGER_TICKS = 200;

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
let idle = 0;
for (;;) {
  if (Atomics.load(workerData, ${RUNNING}) !== 0) idle = 0;
  else if (++idle > ${LINGER_TICKS}) Atomics.wait(workerData, ${RUNNING}, 0);
  Atomics.wait(workerData, 2, 0, ${TICK_MS});
  Atomics.add(workerData, ${TICKS}, 1);
}
`;

let worker: Worker | null = null;

function ensureWorker(): void {
  if (worker) return;
  worker = new Worker(WORKER_SOURCE, { eval: true, workerData: state });
  worker.unref();
  // A clock that stopped would let loops run past their deadline: start another one.
  worker.on('error', () => (worker = null));
  worker.on('exit', () => (worker = null));
}

/** The current tick; compiled code reads it inline as `Atomics.load(CLOCK, 0)`. */
export const CLOCK = state;

export function clockTick(): number {
  return Atomics.load(state, TICKS);
}

/** An execution starts: the clock runs while at least one does (and a second longer). */
export function clockStart(): void {
  ensureWorker();
  if (Atomics.add(state, RUNNING, 1) === 0) Atomics.notify(state, RUNNING);
}

export function clockStop(): void {
  Atomics.sub(state, RUNNING, 1);
}
