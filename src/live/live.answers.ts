/**
 * What one subscribes to and what the live subscriptions push, declared once for the node and the SDK
 * (`ibax.subscribe`'s description names a push's members; no schema describes a push).
 */

/** The kinds of subscription: new blocks, transaction outcomes, notification counts. */
export const SUBSCRIPTION_KINDS = ['newBlocks', 'txStatus', 'notifications'] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];

/** A `newBlocks` push: a block as it is added to the chain. */
export interface NewBlockPush {
  block_id: number;
  /** Hex. */
  hash: string;
  /** Unix seconds. */
  time: number;
  tx_count: number;
}
