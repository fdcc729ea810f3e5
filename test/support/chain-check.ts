import { expect } from 'vitest';
import { parseBlock, verifyBlockHashes } from '../../src/chain/codec';
import { NodeCrypto } from '../../src/chain/node-crypto.service';
import { asBuffer, DatabaseService } from '../../src/database/database.service';
import type { TestNode } from './node';

/**
 * The chain a restarted node finds is whole: the tip is the last block, every block's hashes and
 * signature check out and its log holds its transactions, and every accepted transaction is in a block
 * or still waiting without an error. Returns the tip's height and how many accepted ones are mined.
 */
export async function expectWholeChain(
  node: TestNode,
  accepted: Iterable<string>,
): Promise<{ height: number; mined: number }> {
  const db = node.app.get(DatabaseService);
  const crypto = node.app.get(NodeCrypto);
  const tip = await db.one<{ block_id: string; hash: unknown }>(
    `SELECT "block_id", "hash" FROM "info_block"`,
  );
  const last = await db.one<{ id: string; hash: unknown }>(
    `SELECT "id", "hash" FROM "block_chain" ORDER BY "id" DESC LIMIT 1`,
  );
  expect(tip!.block_id).toBe(last!.id);
  expect(asBuffer(tip!.hash).equals(asBuffer(last!.hash))).toBe(true);

  const blocks = await db.query<{ id: string; tx: number; data: unknown; logged: string }>(
    `SELECT "b"."id", "b"."tx", "b"."data", (SELECT count(*) FROM "log_transactions" "l" WHERE "l"."block" = "b"."id") AS "logged"
     FROM "block_chain" "b" ORDER BY "b"."id"`,
  );
  for (const block of blocks) {
    const parsed = parseBlock(asBuffer(block.data));
    verifyBlockHashes(parsed, (data) => crypto.hasher.hash(data));
    expect(parsed.txs.length, `transactions of block ${block.id}`).toBe(Number(block.tx));
    expect(Number(block.logged), `log of block ${block.id}`).toBe(Number(block.tx));
  }

  const fates = await db.query<{ hash: unknown; block_id: string; error: string; waiting: boolean }>(
    `SELECT "s"."hash", "s"."block_id", "s"."error",
          EXISTS (SELECT 1 FROM "transactions" "t" WHERE "t"."hash" = "s"."hash") AS "waiting"
     FROM "transactions_status" "s"`,
  );
  const byHash = new Map(fates.map((fate) => [asBuffer(fate.hash).toString('hex'), fate]));
  let mined = 0;
  for (const hash of accepted) {
    const fate = byHash.get(hash);
    expect(fate, `status of accepted ${hash}`).toBeDefined();
    const inBlock = BigInt(fate!.block_id) > 0n;
    if (inBlock) mined++;
    // The status's text is the contract's result once mined, and empty while waiting: never an error.
    if (!inBlock) {
      expect(fate!.waiting, `${hash} is in a block or still waiting`).toBe(true);
      expect(fate!.error, `${hash} failed`).toBe('');
    }
  }
  return { height: Number(last!.id), mined };
}
