import { Injectable } from '@nestjs/common';
import { Journal, type BlockCache, type JournalRecord } from '../contract-host';
import type { Sql } from '../database/database.service';
import { panic } from '../vm';
import { TX_TYPE, type SmartTransaction } from '../chain/codec';

interface Output {
  output_tx_hash: unknown;
  output_key_id: string;
  output_index: number;
  output_value: string;
}

/**
 * The native coin moves of transaction types 5 and 6, without the contract engine (formats.md §2.9):
 * a UTXO transfer spends the sender's unspent outputs in the ecosystem and creates the recipient's output
 * and the sender's change; a TransferSelf moves value between the key's outputs and its account balance.
 * Spent outputs record the spending transaction; new outputs carry the block, so a block is undone by
 * its id and its transactions' hashes.
 */
@Injectable()
export class NativeTransfers {
  async run(
    sql: Sql,
    tx: SmartTransaction,
    hash: Buffer,
    blockId: bigint,
    journal: JournalRecord[],
    cache: BlockCache,
  ): Promise<{ result: string; contractName: string }> {
    if (tx.transferSelf) {
      const { value, source } = tx.transferSelf;
      const amount = BigInt(value);
      if (source.toLowerCase() === 'utxo') {
        const change = await this.spend(sql, tx, hash, amount);
        let index = 0;
        if (change > 0n) await this.output(sql, hash, index++, tx.keyId, change, tx, blockId);
        await this.addToAccount(sql, tx, hash, blockId, amount, journal, cache);
      } else {
        await this.addToAccount(sql, tx, hash, blockId, -amount, journal, cache);
        await this.output(sql, hash, 0, tx.keyId, amount, tx, blockId);
      }
      return { result: '', contractName: '' };
    }
    const utxo = tx.utxo!;
    const amount = BigInt(utxo.value);
    const change = await this.spend(sql, tx, hash, amount);
    await this.output(sql, hash, 0, utxo.toId, amount, tx, blockId);
    if (change > 0n) await this.output(sql, hash, 1, tx.keyId, change, tx, blockId);
    return { result: '', contractName: '' };
  }

  /** Marks enough of the sender's outputs spent (oldest first) and returns what is left over. */
  private async spend(sql: Sql, tx: SmartTransaction, hash: Buffer, amount: bigint): Promise<bigint> {
    const outputs = await sql.query<Output>(
      `SELECT "output_tx_hash", "output_key_id", "output_index", "output_value" FROM "spent_info"
        WHERE "output_key_id" = $1 AND "ecosystem" = $2 AND "input_tx_hash" IS NULL
        ORDER BY "block_id", "output_tx_hash", "output_index" FOR UPDATE`,
      [tx.keyId.toString(), tx.ecosystemId.toString()],
    );
    let gathered = 0n;
    let index = 0;
    for (const output of outputs) {
      if (gathered >= amount) break;
      await sql.query(
        `UPDATE "spent_info" SET "input_tx_hash" = $1, "input_index" = $2
          WHERE "output_tx_hash" = $3 AND "output_key_id" = $4 AND "output_index" = $5`,
        [hash, index++, output.output_tx_hash, output.output_key_id, output.output_index],
      );
      gathered += BigInt(output.output_value);
    }
    if (gathered < amount) {
      throw panic(`insufficient funds: the unspent outputs hold ${gathered}, the transfer needs ${amount}`);
    }
    return gathered - amount;
  }

  private async output(
    sql: Sql,
    hash: Buffer,
    index: number,
    keyId: bigint,
    value: bigint,
    tx: SmartTransaction,
    blockId: bigint,
  ): Promise<void> {
    await sql.query(
      `INSERT INTO "spent_info" ("output_tx_hash", "output_index", "output_key_id", "output_value", "ecosystem", "block_id", "type")
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        hash,
        index,
        keyId.toString(),
        value.toString(),
        tx.ecosystemId.toString(),
        blockId.toString(),
        tx.transferSelf ? TX_TYPE.transferSelf : TX_TYPE.utxo,
      ],
    );
  }

  /** Changes the key's account balance in the ecosystem, journaled like any contract write. */
  private async addToAccount(
    sql: Sql,
    tx: SmartTransaction,
    hash: Buffer,
    blockId: bigint,
    delta: bigint,
    journal: JournalRecord[],
    cache: BlockCache,
  ): Promise<void> {
    const row = await sql.one<{ amount: string }>(
      `SELECT "amount"::text AS "amount" FROM "1_keys" WHERE "id" = $1 AND "ecosystem" = $2 FOR UPDATE`,
      [tx.keyId.toString(), tx.ecosystemId.toString()],
    );
    if (!row) throw panic(`the key ${tx.keyId} has no account in ecosystem ${tx.ecosystemId}`);
    const balance = BigInt(row.amount.split('.')[0]);
    if (balance + delta < 0n) {
      throw panic(`insufficient funds: the balance is ${balance}, the transfer needs ${-delta}`);
    }
    await new Journal(sql, blockId, hash, journal, cache).updated('1_keys', `${tx.keyId},${tx.ecosystemId}`, {
      amount: row.amount,
    });
    await sql.query(`UPDATE "1_keys" SET "amount" = "amount" + $3 WHERE "id" = $1 AND "ecosystem" = $2`, [
      tx.keyId.toString(),
      tx.ecosystemId.toString(),
      delta.toString(),
    ]);
  }
}
