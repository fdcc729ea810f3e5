import { Worker } from 'node:worker_threads';

/** What one check sends: a 64-byte r‖s signature, a 32-byte digest and a 65-byte 04‖X‖Y public key. */
const SIGNATURE_BYTES = 64;
const DIGEST_BYTES = 32;
const PUBLIC_KEY_BYTES = 65;
const ITEM_BYTES = SIGNATURE_BYTES + DIGEST_BYTES + PUBLIC_KEY_BYTES;

/**
 * The worker loads the same libsecp256k1 binding and applies the same rule as the in-thread check (high S
 * normalised first, an error is an invalid signature). It answers one message per batch, in its order.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const native = require(workerData);
parentPort.on('message', ({ id, bytes }) => {
  const items = new Uint8Array(bytes);
  const count = items.length / ${ITEM_BYTES};
  const valid = new Uint8Array(count);
  for (let index = 0; index < count; index++) {
    const at = index * ${ITEM_BYTES};
    try {
      const signature = native.signatureNormalize(items.slice(at, at + ${SIGNATURE_BYTES}));
      const digest = items.subarray(at + ${SIGNATURE_BYTES}, at + ${SIGNATURE_BYTES + DIGEST_BYTES});
      const publicKey = items.subarray(at + ${SIGNATURE_BYTES + DIGEST_BYTES}, at + ${ITEM_BYTES});
      valid[index] = native.ecdsaVerify(signature, digest, publicKey) ? 1 : 0;
    } catch {
      valid[index] = 0;
    }
  }
  parentPort.postMessage({ id, valid }, [valid.buffer]);
});
`;

interface Check {
  signature: Uint8Array;
  digest: Uint8Array;
  publicKey: Uint8Array;
  resolve(valid: boolean): void;
}

type InThreadCheck = (signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array) => boolean;

/**
 * secp256k1 signature checks on a thread of their own. At saturation libsecp256k1's verify took 12.6 % of
 * the main thread (bench/README.md, issue 28), the thread that also runs the blocks; sent here, a client's
 * checks no longer hold up a block. The checks asked for within one turn of the event loop go as one
 * message, so a client's batch costs one round trip.
 *
 * Written by hand rather than with a pool library (piscina and the like load a worker from a file of its
 * own, and the node runs as one bundled file); one thread is what two cores leave beside the main one. If
 * the worker fails, its checks and every later one run in this thread: a check is never lost.
 */
export class OffThreadVerifier {
  private worker?: Worker;
  private failed = false;
  private waiting: Check[] = [];
  private readonly sent = new Map<number, Check[]>();
  private nextId = 0;

  constructor(
    private readonly bindingPath: string,
    private readonly inThread: InThreadCheck,
  ) {}

  /** Whether `signature` (r‖s) is valid for `digest` and `publicKey` (04‖X‖Y). */
  verify(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): Promise<boolean> {
    if (
      this.failed ||
      signature.length !== SIGNATURE_BYTES ||
      digest.length !== DIGEST_BYTES ||
      publicKey.length !== PUBLIC_KEY_BYTES
    ) {
      return Promise.resolve(this.checkHere(signature, digest, publicKey));
    }
    return new Promise((resolve) => {
      if (this.waiting.length === 0) setImmediate(() => this.send());
      this.waiting.push({ signature, digest, publicKey, resolve });
    });
  }

  private checkHere(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean {
    try {
      return this.inThread(signature, digest, publicKey);
    } catch {
      return false;
    }
  }

  private send(): void {
    const checks = this.waiting;
    this.waiting = [];
    if (checks.length === 0) return;
    const worker = this.failed ? undefined : this.started();
    if (!worker) {
      this.runHere(checks);
      return;
    }
    const bytes = new Uint8Array(checks.length * ITEM_BYTES);
    checks.forEach((check, index) => {
      const at = index * ITEM_BYTES;
      bytes.set(check.signature, at);
      bytes.set(check.digest, at + SIGNATURE_BYTES);
      bytes.set(check.publicKey, at + SIGNATURE_BYTES + DIGEST_BYTES);
    });
    const id = this.nextId++;
    this.sent.set(id, checks);
    // Only checks under way keep the process alive: an idle worker must not hold up its exit.
    worker.ref();
    worker.postMessage({ id, bytes: bytes.buffer }, [bytes.buffer]);
  }

  private started(): Worker | undefined {
    if (this.worker) return this.worker;
    try {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.bindingPath });
      worker.on('message', ({ id, valid }: { id: number; valid: Uint8Array }) => {
        const checks = this.sent.get(id);
        this.sent.delete(id);
        checks?.forEach((check, index) => check.resolve(valid[index] === 1));
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

  /** The worker is gone: what it had not answered is checked here, and so is everything after. */
  private fallBack(): void {
    this.failed = true;
    this.worker = undefined;
    const unanswered = [...this.sent.values()].flat();
    this.sent.clear();
    this.runHere(unanswered);
  }

  private runHere(checks: readonly Check[]): void {
    for (const check of checks) check.resolve(this.checkHere(check.signature, check.digest, check.publicKey));
  }

  /** Stops the worker (tests; a node's exit does not wait for it). Later checks run in this thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await worker.terminate();
  }
}
