import type { Sql } from '../database/database.service';
import type { BlockCache, JournalRecord } from './block-cache';
import type { ColumnInfo } from '../table-access/catalog';

/** `rollback_tx.table_name` of schema and platform-object changes. */
export const SYSTEM_JOURNAL_TABLE = '@system';

/** A column as PostgreSQL's catalogue describes it, enough to add it back as it was. */
export interface ColumnDefinition {
  name: string;
  /** `format_type` of the column, e.g. `character varying(102400)`, `numeric(30,0)`. */
  type: string;
  notNull: boolean;
  /** The default expression as PostgreSQL prints it, e.g. `''::character varying`. */
  default: string | null;
}

/**
 * A schema change, and what taking it back needs: a new table, column or view is dropped; a table that
 * lost a column, or was dropped, is made again from its former definition, its columns in their former
 * order (it holds no rows: DelColumn and DelTable refuse tables that do, and later changes are taken back
 * first); a deleted row is inserted again from its columns' text.
 */
export type SystemChange =
  | { type: 'NewTable' | 'NewView'; table: string }
  | { type: 'NewColumn'; table: string; column: string }
  | {
      type: 'DropColumn' | 'DropTable';
      table: string;
      /** DropColumn: the column dropped. */
      column?: string;
      columns: ColumnDefinition[];
      primaryKey: string[];
    }
  | { type: 'DeletedRow'; table: string; row: Record<string, string | null> };

/**
 * The rollback journal of one transaction, kept in `rollback_tx`: for every inserted row its id, for every
 * updated row the previous text of the columns it changed, for every schema change what to drop. Undoing
 * applies the records newest first, so a transaction (or, later, a block) can be taken back exactly.
 */
export class Journal {
  /**
   * @param sink where a block producer collects the records to write them in bulk with the block;
   *   without one each record is written at once.
   * @param cache the block's shared cache, told of every change so that it stays true.
   */
  constructor(
    private readonly sql: Sql,
    private readonly blockId: bigint,
    private readonly txHash: Buffer,
    private readonly sink?: JournalRecord[],
    private readonly cache?: BlockCache,
  ) {}

  async inserted(physical: string, rowKey: string): Promise<void> {
    this.cache?.observe(physical, rowKey, 'inserted');
    await this.write(physical, rowKey, '');
  }

  /** `inMemory`: the block's write-behind layer made the change and still knows the row. */
  async updated(
    physical: string,
    rowKey: string,
    previous: Record<string, string | null>,
    { inMemory = false } = {},
  ): Promise<void> {
    this.cache?.observe(physical, rowKey, inMemory ? 'changed in memory' : 'updated');
    await this.write(physical, rowKey, JSON.stringify(previous));
  }

  async system(change: SystemChange): Promise<void> {
    this.cache?.observe(change.table, change.table, 'system');
    await this.write(SYSTEM_JOURNAL_TABLE, change.table, JSON.stringify(change));
  }

  private async write(table: string, rowKey: string, data: string): Promise<void> {
    if (this.sink) {
      this.sink.push({ tx_hash: this.txHash, table_name: table, table_id: rowKey, data });
      return;
    }
    await this.sql.query(
      `INSERT INTO "rollback_tx" ("block_id", "tx_hash", "table_name", "table_id", "data") VALUES ($1, $2, $3, $4, $5)`,
      [this.blockId.toString(), this.txHash, table, rowKey, data],
    );
  }
}

/** `id` for tables keyed by id; `id,ecosystem` for 1_keys, whose key is (ecosystem, id). */
export function rowKeyOf(physical: string, id: bigint | string, ecosystem: bigint): string {
  return physical === '1_keys' ? `${id},${ecosystem}` : String(id);
}

const IDENTIFIER = /^[a-z0-9_]+$/;

function restoreExpression(column: ColumnInfo, placeholder: string): string {
  if (column.type === 'bytea') return `decode(${placeholder}, 'hex')`;
  return `${placeholder}::${column.type === 'USER-DEFINED' ? 'text' : column.type}`;
}

async function columnsOf(sql: Sql, physical: string): Promise<Map<string, ColumnInfo>> {
  const rows = await sql.query<{ column_name: string; data_type: string }>(
    `SELECT "column_name", "data_type" FROM information_schema.columns
      WHERE "table_schema" = current_schema() AND "table_name" = $1`,
    [physical],
  );
  return new Map(rows.map((row) => [row.column_name, { name: row.column_name, type: row.data_type }]));
}

/** Takes back everything the transaction `txHash` wrote, newest change first, and forgets its journal. */
export async function undoTransaction(sql: Sql, txHash: Buffer): Promise<number> {
  const records = await sql.query<{ id: string; table_name: string; table_id: string; data: string }>(
    `SELECT "id", "table_name", "table_id", "data" FROM "rollback_tx" WHERE "tx_hash" = $1 ORDER BY "id" DESC`,
    [txHash],
  );
  for (const record of records) {
    if (record.table_name === SYSTEM_JOURNAL_TABLE) {
      await undoSystemChange(sql, JSON.parse(record.data) as SystemChange);
      continue;
    }
    const physical = record.table_name;
    if (!IDENTIFIER.test(physical)) throw new Error(`journal names an invalid table ${physical}`);
    const [id, ecosystem] = record.table_id.split(',');
    const keyCondition = ecosystem === undefined ? `"id" = $1` : `"id" = $1 AND "ecosystem" = $2`;
    const keyParams = ecosystem === undefined ? [id] : [id, ecosystem];
    if (record.data === '') {
      await sql.query(`DELETE FROM "${physical}" WHERE ${keyCondition}`, keyParams);
      continue;
    }
    const previous = JSON.parse(record.data) as Record<string, string | null>;
    const columns = await columnsOf(sql, physical);
    const params: unknown[] = [...keyParams];
    const assignments = Object.entries(previous).map(([name, value]) => {
      const column = columns.get(name);
      if (!column) throw new Error(`journal names an unknown column ${physical}.${name}`);
      params.push(value);
      return `"${name}" = ${restoreExpression(column, `$${params.length}`)}`;
    });
    await sql.query(`UPDATE "${physical}" SET ${assignments.join(', ')} WHERE ${keyCondition}`, params);
  }
  await sql.query(`DELETE FROM "rollback_tx" WHERE "tx_hash" = $1`, [txHash]);
  return records.length;
}

async function undoSystemChange(sql: Sql, change: SystemChange): Promise<void> {
  if (!IDENTIFIER.test(change.table)) throw new Error(`journal names an invalid table`);
  switch (change.type) {
    case 'NewTable':
      await sql.query(`DROP TABLE IF EXISTS "${change.table}"`);
      return;
    case 'NewView':
      await sql.query(`DROP VIEW IF EXISTS "${change.table}"`);
      return;
    case 'NewColumn':
      if (!IDENTIFIER.test(change.column)) throw new Error(`journal names an invalid column`);
      await sql.query(`ALTER TABLE "${change.table}" DROP COLUMN IF EXISTS "${change.column}"`);
      return;
    case 'DropColumn':
    case 'DropTable': {
      // A column added back would come last: the empty table is made again with its columns in order.
      if (change.type === 'DropColumn') await sql.query(`DROP TABLE "${change.table}"`);
      const parts = change.columns.map(columnSql);
      if (change.primaryKey.length > 0) {
        if (!change.primaryKey.every((name) => IDENTIFIER.test(name)))
          throw new Error(`journal names an invalid key column`);
        parts.push(`PRIMARY KEY (${change.primaryKey.map((name) => `"${name}"`).join(', ')})`);
      }
      await sql.query(`CREATE TABLE "${change.table}" (${parts.join(', ')})`);
      return;
    }
    case 'DeletedRow': {
      const columns = await columnsOf(sql, change.table);
      const params: unknown[] = [];
      const names = Object.keys(change.row);
      const values = names.map((name) => {
        const column = columns.get(name);
        if (!column) throw new Error(`journal names an unknown column ${change.table}.${name}`);
        params.push(change.row[name]);
        return restoreExpression(column, `$${params.length}`);
      });
      await sql.query(
        `INSERT INTO "${change.table}" (${names.map((name) => `"${name}"`).join(', ')}) VALUES (${values.join(', ')})`,
        params,
      );
      return;
    }
  }
}

/**
 * A type and a default as PostgreSQL prints them (`numeric(30,0)`; a literal with an optional cast, as
 * `0` or `'{}'::jsonb`). The journal is the node's own, but what it runs as SQL is checked all the same.
 */
const TYPE_TEXT = /^[a-z][a-z0-9 ]*(\(\d+(,\d+)?\))?(\[\])?$/;
const DEFAULT_TEXT = /^('([^']|'')*'|-?\d+(\.\d+)?)(::[a-z][a-z0-9 ]*(\(\d+(,\d+)?\))?)?$/;

/** `"name" type [NOT NULL] [DEFAULT …]` of a column the journal describes. */
function columnSql(column: ColumnDefinition): string {
  if (!IDENTIFIER.test(column.name) || !TYPE_TEXT.test(column.type)) {
    throw new Error(`journal describes an invalid column`);
  }
  if (column.default !== null && !DEFAULT_TEXT.test(column.default)) {
    throw new Error(`journal describes an invalid default of ${column.name}`);
  }
  const notNull = column.notNull ? ' NOT NULL' : '';
  const fallback = column.default !== null ? ` DEFAULT ${column.default}` : '';
  return `"${column.name}" ${column.type}${notNull}${fallback}`;
}

/**
 * A column's value as the journal keeps it. PostgreSQL's own text of every type casts back to the same
 * value (bytea as hex), so undo is exact. `source` qualifies the column when the query has several.
 */
export function previousValueExpression(column: ColumnInfo, source = ''): string {
  const name = source ? `${source}."${column.name}"` : `"${column.name}"`;
  return column.type === 'bytea' ? `encode(${name}, 'hex')` : `${name}::text`;
}

/** The previous text of some columns of a row, as the journal keeps it. */
export async function previousValues(
  sql: Sql,
  physical: string,
  columns: ColumnInfo[],
  keyCondition: string,
  keyParams: unknown[],
): Promise<Record<string, string | null> | undefined> {
  if (columns.length === 0) return {};
  const selected = columns
    .map((column) => `${previousValueExpression(column)} AS "${column.name}"`)
    .join(', ');
  return sql.one<Record<string, string | null>>(
    `SELECT ${selected} FROM "${physical}" WHERE ${keyCondition}`,
    keyParams,
  );
}
