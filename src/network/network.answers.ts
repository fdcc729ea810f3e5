import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the network domain, each declared once as its schema: `rpc.discover` shows it, and the
 * service takes its type from it (`ValueOf`).
 */

/**
 * Another honor node as this node sees it (`net.peers`, and the CLI): `position` among the active honor
 * nodes, `final_block_id` the highest final block it holds.
 */
export const PEER = s.object({
  position: s.nullable(s.smallInteger()),
  api_address: s.string(),
  public_key: s.string(),
  block_id: s.string(),
  final_block_id: s.string(),
  last_block_time: s.string(),
  reachable: s.boolean(),
  banned_until: s.string(),
});
export type PeerView = ValueOf<typeof PEER>;
