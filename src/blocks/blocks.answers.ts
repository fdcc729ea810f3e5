import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the blocks domain, each declared once as its schema: the API description shows it, and
 * the routes and methods that shape it take their types from it (`ValueOf`). Byte fields are text: base64
 * on REST, hex on JSON-RPC.
 */

/** A block in brief. */
export const BLOCK_SUMMARY = s.object({
  hash: s.string('block hash'),
  ecosystem_id: s.integer(),
  key_id: s.integer('key of the node that made it'),
  time: s.integer('Unix time, seconds'),
  tx_count: s.integer(),
  rollbacks_hash: s.string(),
  node_position: s.integer(),
  consensus_mode: s.integer(),
});
export type BlockInBrief = ValueOf<typeof BLOCK_SUMMARY>;

const TX_BRIEF = s.object({
  hash: s.string(),
  contract_name: s.string(),
  params: s.nullable(s.map(s.any())),
  key_id: s.integer(),
});

/** Per block (keyed by height, as text) its transactions in brief. */
export const BLOCKS_TX_INFO = s.map(s.array(TX_BRIEF), 'by block id: its transactions in brief');
export type BlocksTxInfo = ValueOf<typeof BLOCKS_TX_INFO>;

/**
 * A block in detail. The reference's members, plus the interface document's spellings where they differ
 * (`rollback_hash`; `sys_update` on REST): a superset no client is hurt by (decisions.md).
 */
export const DETAILED_BLOCK = s.object(
  {
    header: s.object({
      block_id: s.integer(),
      time: s.integer(),
      key_id: s.integer(),
      node_position: s.integer(),
      version: s.integer(),
    }),
    hash: s.string(),
    node_position: s.integer(),
    key_id: s.integer(),
    time: s.integer(),
    tx_count: s.integer(),
    size: s.string(
      'size of the stored block: two decimals and a unit, no space, e.g. "1.20KiB" or "512.00B"',
    ),
    rollbacks_hash: s.string(),
    rollback_hash: s.string('the same, as the interface document spells it'),
    merkle_root: s.string(),
    bin_data: s.string('the block as stored'),
    sys_update: s.boolean('REST only'),
    stop_count: s.integer(),
    transactions: s.array(
      s.object({
        hash: s.string(),
        contract_name: s.string(),
        params: s.any(),
        key_id: s.integer(),
        time: s.integer(),
        type: s.integer(),
        size: s.string('size of its payload, as the block size, e.g. "412.00B"'),
      }),
    ),
  },
  { optional: ['sys_update'] },
);
export type DetailedBlock = ValueOf<typeof DETAILED_BLOCK>;

/** Blocks in detail, keyed by height as text. */
export const DETAILED_BLOCKS = s.map(DETAILED_BLOCK, 'by block id');
export type DetailedBlocks = ValueOf<typeof DETAILED_BLOCKS>;
