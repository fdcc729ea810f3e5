import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the tx domain, each declared once as its schema: the API description shows it, and the
 * service, the SDK and the live push take their types from it (`ValueOf`).
 */

/** A transaction's outcome: waiting (empty `blockid`), in a block, or failed (`errmsg`). */
export const TX_STATUS = s.object(
  {
    blockid: s.string('block id; empty while waiting'),
    errmsg: s.object(
      { type: s.string(), error: s.string(), id: s.string() },
      { optional: ['type', 'error', 'id'] },
    ),
    result: s.string("the contract's result"),
    penalty: s.integer(),
  },
  { optional: ['errmsg'] },
);
export type TxStatus = ValueOf<typeof TX_STATUS>;

/** What `txinfo` tells of a transaction in a block when asked (`contractinfo`). */
export const TX_DATA = s.object({
  block_id: s.integer(),
  block_hash: s.hex(),
  address: s.string(),
  ecosystem: s.integer(),
  hash: s.hex(),
  expedite: s.string(),
  contract_name: s.string(),
  params: s.any(),
  created_at: s.integer(),
  size: s.string(),
  status: s.integer(),
});
export type TxInfoData = ValueOf<typeof TX_DATA>;
