import { Worker } from 'node:worker_threads';

/** What {@link WorkerBatches} runs, on its worker and (should the worker fail) in this thread. */
export interface WorkerJob<Item, Result> {
  /**
   * The worker's code (CommonJS, with `workerData` in scope): it defines `function handle(item)`, which
   * returns the item's result. It must give what `inThread` gives for every item.
   */
  source: string;
  workerData?: unknown;
  inThread(item: Item): Result;
}

/**
 * One kind of CPU work on a thread of its own, so that the event loop (which admits transactions, runs
 * blocks and answers requests) goes on meanwhile. The items asked for within one turn of the event loop go
 * to the worker as one message (a client's batch of 20 signatures is one round trip). If the worker fails
 * to start or dies, what it had not answered and everything after runs in this thread: no item is lost.
 *
 * Written by hand rather than with a pool library (piscina and the like load their worker from a file of
 * its own, and the node runs as one bundled file); one thread per kind of work is what two cores allow.
 */
export class WorkerBatches<Item, Result> {
  private worker?: Worker;
  private failed = false;
  private waiting: { item: Item; resolve(result: Result): void }[] = [];
  private readonly sent = new Map<number, { item: Item; resolve(result: Result): void }[]>();
  private nextId = 0;

  constructor(private readonly job: WorkerJob<Item, Result>) {}

  run(item: Item): Promise<Result> {
    if (this.failed) return Promise.resolve(this.job.inThread(item));
    return new Promise((resolve) => {
      if (this.waiting.length === 0) setImmediate(() => this.send());
      this.waiting.push({ item, resolve });
    });
  }

  private send(): void {
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    const worker = this.failed ? undefined : this.started();
    if (!worker) {
      this.runHere(batch);
      return;
    }
    const id = this.nextId++;
    this.sent.set(id, batch);
    // Only work under way keeps the process alive: an idle worker must not hold up its exit.
    worker.ref();
    worker.postMessage({ id, items: batch.map((entry) => entry.item) });
  }

  private started(): Worker | undefined {
    if (this.worker) return this.worker;
    try {
      const worker = new Worker(
        `const { parentPort, workerData } = require('node:worker_threads');
${this.job.source}
parentPort.on('message', ({ id, items }) => parentPort.postMessage({ id, results: items.map(handle) }));`,
        { eval: true, workerData: this.job.workerData },
      );
      worker.on('message', ({ id, results }: { id: number; results: Result[] }) => {
        const batch = this.sent.get(id);
        this.sent.delete(id);
        batch?.forEach((entry, index) => entry.resolve(results[index]));
        if (this.sent.size === 0) worker.unref();
      });
      worker.on('error', () => this.fallBack());
      worker.on('exit', () => this.fallBack());
      this.worker = worker;
      return worker;
    } catch {
      this.failed = true;
      return undefined;
    }
  }

  /** The worker is gone: what it had not answered runs here, and so does everything after. */
  private fallBack(): void {
    this.failed = true;
    this.worker = undefined;
    const unanswered = [...this.sent.values()].flat();
    this.sent.clear();
    this.runHere(unanswered);
  }

  private runHere(batch: readonly { item: Item; resolve(result: Result): void }[]): void {
    for (const entry of batch) entry.resolve(this.job.inThread(entry.item));
  }

  /** Stops the worker (tests; a node's exit does not wait for it). Later items run in this thread. */
  async close(): Promise<void> {
    await this.worker?.terminate();
  }
}
