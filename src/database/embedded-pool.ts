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

  override async connect(callback: ConnectCallback): Promise<void> {
    let releaseLease!: () => void;
    const lease = new Promise<void>((resolve) => (releaseLease = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => lease);
    await previous;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      releaseLease();
    };
    await super.connect((error, client) => {
      if (error) release();
      callback(error, client, release);
    });
  }
}
