import { Injectable } from '@nestjs/common';

/**
 * One change of the chain at a time in this process: making a block, applying a received one, rolling
 * back. The database orders their transactions too (each locks `info_block`), but the row store and the
 * compiled contracts live in memory, and two blocks run at once would mix their rows.
 */
@Injectable()
export class ChainLock {
  private tail: Promise<unknown> = Promise.resolve();
  private catchingUp = 0;

  /** While another honor node is known to be ahead: a block made now would only start a fork. */
  get behindPeers(): boolean {
    return this.catchingUp > 0;
  }

  /** Runs `sync` with {@link behindPeers} set (several may run at once). */
  async whileBehind<T>(sync: () => Promise<T>): Promise<T> {
    this.catchingUp++;
    try {
      return await sync();
    } finally {
      this.catchingUp--;
    }
  }

  run<T>(change: () => Promise<T>): Promise<T> {
    const result = this.tail.then(change, change);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
