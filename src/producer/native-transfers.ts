import { Injectable } from '@nestjs/common';
import { Journal, type BlockCache, type JournalRecord } from '../contract-host';
import type { Sql } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { SpentInfoEntity } from '../accounts/entities/spent-info.entity';
import { KeyEntity } from '../accounts/entities/key.entity';
import { panic } from '../vm';
import { TX_TYPE, type SmartTransaction } from '../chain/codec';

const OUTPUTS = new EntityTable(SpentInfoEntity);
const OUTPUT = OUTPUTS.select('outputTxHash', 'outputKeyId', 'outputIndex', 'outputValue');
/** The unspent outputs of key $1 in ecosystem $2, oldest first, locked for the spend. */
const UNSPENT = `SELECT ${OUTPUT} FROM ${OUTPUTS.name}
  WHERE ${OUTPUTS.column('outputKeyId')} = $1 AND ${OUTPUTS.column('ecosystem')} = $2 AND ${OUTPUTS.column('inputTxHash')} IS NULL
  ORDER BY ${OUTPUTS.columnList('blockId', 'outputTxHash', 'outputIndex')} FOR UPDATE`;
/** Output ($3, $4, $5) spent by transaction $1 as its input $2. */
const SPEND = `UPDATE ${OUTPUTS.name} SET ${OUTPUTS.assignments({ inputTxHash: '$1', inputIndex: '$2' })}
  WHERE ${OUTPUTS.column('outputTxHash')} = $3 AND ${OUTPUTS.column('outputKeyId')} = $4 AND ${OUTPUTS.column('outputIndex')} = $5`;
const NEW_OUTPUT = OUTPUTS.insert({
  outputTxHash: '$1',
  outputIndex: '$2',
  outputKeyId: '$3',
  outputValue: '$4',
  ecosystem: '$5',
  blockId: '$6',
  type: '$7',
});
const KEYS = new EntityTable(KeyEntity);
const KEY_OF = `${KEYS.column('id')} = $1 AND ${KEYS.column('ecosystem')} = $2`;
/** Account $1's balance in ecosystem $2 as text, locked. */
const BALANCE = `SELECT ${KEYS.column('amount')}::text AS "amount" FROM ${KEYS.name} WHERE ${KEY_OF} FOR UPDATE`;
const ADD_TO_BALANCE = `UPDATE ${KEYS.name} SET ${KEYS.assignments({ amount: `${KEYS.column('amount')} + $3` })} WHERE ${KEY_OF}`;

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
    const outputs = await sql.query<RowOf<typeof OUTPUT>>(UNSPENT, [
      tx.keyId.toString(),
      tx.ecosystemId.toString(),
    ]);
    let gathered = 0n;
    let index = 0;
    for (const output of outputs) {
      if (gathered >= amount) break;
      await sql.query(SPEND, [hash, index++, output.outputTxHash, output.outputKeyId, output.outputIndex]);
      gathered += BigInt(output.outputValue);
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
    await sql.query(NEW_OUTPUT, [
      hash,
      index,
      keyId.toString(),
      value.toString(),
      tx.ecosystemId.toString(),
      blockId.toString(),
      tx.transferSelf ? TX_TYPE.transferSelf : TX_TYPE.utxo,
    ]);
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
    const row = await sql.one<Pick<KeyEntity, 'amount'>>(BALANCE, [
      tx.keyId.toString(),
      tx.ecosystemId.toString(),
    ]);
    if (!row) throw panic(`the key ${tx.keyId} has no account in ecosystem ${tx.ecosystemId}`);
    const balance = BigInt(row.amount.split('.')[0]);
    if (balance + delta < 0n) {
      throw panic(`insufficient funds: the balance is ${balance}, the transfer needs ${-delta}`);
    }
    await new Journal(sql, blockId, hash, journal, cache).updated('1_keys', `${tx.keyId},${tx.ecosystemId}`, {
      amount: row.amount,
    });
    await sql.query(ADD_TO_BALANCE, [tx.keyId.toString(), tx.ecosystemId.toString(), delta.toString()]);
  }
}
