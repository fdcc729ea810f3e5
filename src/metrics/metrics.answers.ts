import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the chain statistics, each declared once as its schema: the API description shows it,
 * and the service takes its type from it (`ValueOf`).
 */

/** Per honor node (by position), whether it is banned now. */
export const BAN_STAT = s.array(s.object({ node_position: s.integer(), status: s.boolean('banned now') }));
export type BanStat = ValueOf<typeof BAN_STAT>;

/** Bytes the process uses. */
export const MEM_STAT = s.object({
  alloc: s.integer('JavaScript heap in use'),
  sys: s.integer('resident set size'),
});
export type MemStat = ValueOf<typeof MEM_STAT>;
