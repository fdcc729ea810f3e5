/**
 * What the live subscriptions push, declared once for the node that pushes it and the SDK that reads it
 * (`ibax.subscribe`'s description names the members; no schema describes a push).
 */

/** A `newBlocks` push: a block as it is added to the chain. */
export interface NewBlockPush {
  block_id: number;
  /** Hex. */
  hash: string;
  /** Unix seconds. */
  time: number;
  tx_count: number;
}
