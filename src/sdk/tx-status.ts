/**
 * A transaction's outcome as the node reports it: the REST client's answer and the base of the live
 * `txStatus` push, kept here so neither of those modules has to import the other for it.
 */
export interface TxStatusAnswer {
  blockid: string;
  result: string;
  penalty: number;
  errmsg?: { type?: string; error?: string; id?: string };
}
