import type { TxStatus } from '../tx/tx.answers';

/**
 * A transaction's outcome as the node reports it (its one declaration is the node's answer schema,
 * `TX_STATUS`): the REST client's answer and the base of the live `txStatus` push, kept here so neither of
 * those modules has to import the other for it.
 */
export type TxStatusAnswer = TxStatus;
