import type { Sql } from '../database/database.service';
import type { TablePermissions } from '../table-access/permissions';
import { TableCatalog } from '../table-access/catalog';

/** One record of the rollback journal, as `rollback_tx` stores it. */
export interface JournalRecord {
  tx_hash: Buffer;
  table_name: string;
  table_id: string;
  data: string;
}

/**
 * What the transactions of one block may share so that each does not ask the database again: the
 * catalogue of table columns, table permissions, and the next row id of tables. Every entry is exactly
 * what the database would answer at that point of the block, because the block's own transactions are
 * the only writers: a schema change or a failed transaction (its savepoint rolled back) clears it all, a
 * change of `1_tables` clears the permissions, and an insert with an id the cache did not hand out drops
 * that table's counter.
 */
export class BlockCache {
  catalog: TableCatalog;
  private readonly permissions = new Map<string, TablePermissions | undefined>();
  private readonly nextIds = new Map<string, bigint>();
  private readonly issued = new Map<string, bigint>();

  /** The block's write-behind layer, told of rows changed by statements of their own. */
  writeBehind?: { forget(physical: string, key: string): void; clearRows(): void };

  constructor(private readonly sql: Sql) {
    this.catalog = new TableCatalog(sql);
  }

  /** The row-id counters, to be put back when a transaction that ran in memory alone fails. */
  snapshotIds(): { next: Map<string, bigint>; issued: Map<string, bigint> } {
    return { next: new Map(this.nextIds), issued: new Map(this.issued) };
  }

  restoreIds(snapshot: { next: Map<string, bigint>; issued: Map<string, bigint> }): void {
    this.nextIds.clear();
    this.issued.clear();
    for (const [table, id] of snapshot.next) this.nextIds.set(table, id);
    for (const [table, id] of snapshot.issued) this.issued.set(table, id);
  }

  /** Forget everything: after a transaction failed, or changed the schema. */
  reset(): void {
    this.catalog = new TableCatalog(this.sql);
    this.permissions.clear();
    this.nextIds.clear();
    this.issued.clear();
  }

  async tablePermissions(
    key: string,
    load: () => Promise<TablePermissions | undefined>,
  ): Promise<TablePermissions | undefined> {
    if (this.permissions.has(key)) return this.permissions.get(key);
    const permissions = await load();
    this.permissions.set(key, permissions);
    return permissions;
  }

  async nextRowId(physical: string, load: () => Promise<bigint>): Promise<bigint> {
    const id = this.nextIds.get(physical) ?? (await load());
    this.nextIds.set(physical, id + 1n);
    this.issued.set(physical, id);
    return id;
  }

  /** Told of every journal record of the block's transactions. */
  observe(
    table: string,
    rowKey: string,
    kind: 'inserted' | 'updated' | 'changed in memory' | 'system',
  ): void {
    if (kind === 'system') {
      this.reset();
      this.writeBehind?.clearRows();
      return;
    }
    if (kind === 'updated') this.writeBehind?.forget(table, rowKey);
    if (table === '1_tables') this.permissions.clear();
    if (kind === 'inserted' && this.nextIds.has(table) && this.issued.get(table)?.toString() !== rowKey) {
      this.nextIds.delete(table);
      this.issued.delete(table);
    }
  }
}
