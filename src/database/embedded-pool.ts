import { PGlitePool } from 'typeorm-pglite/dist/pglite-pool';

type ConnectCallback = Parameters<PGlitePool['connect']>[0];

/**
 * typeorm-pglite hands every TypeORM "connection" the same PGlite session at once, so a read issued while
 * a block's transaction is open would run inside that transaction (and a failing read would abort it).
 * PGlite is one session by nature; this pool lends it to one holder at a time, the way a pg pool of size
 * one would, so each transaction stays isolated and atomic.
 */
export class ExclusivePGlitePool extends PGlitePool {
  private tail: Promise<void> = Promise.resolve();
  /** Holders: the one with the session and those waiting for it (pg's Pool counts, for monitoring). */
  private holders = 0;

  readonly totalCount = 1;

  get idleCount(): number {
    return this.holders === 0 ? 1 : 0;
  }

  get waitingCount(): number {
    return Math.max(0, this.holders - 1);
  }

  override async connect(callback: ConnectCallback): Promise<void> {
    let releaseLease!: () => void;
    const lease = new Promise<void>((resolve) => (releaseLease = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => lease);
    this.holders++;
    await previous;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.holders--;
      releaseLease();
    };
    await super.connect((error, client) => {
      if (error) release();
      callback(error, client, release);
    });
  }
}
