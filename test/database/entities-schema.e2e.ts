import { rmSync } from 'node:fs';
import { type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getRepositoryToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityMetadata, Repository } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockEntity } from '../../src/blocks/entities';
import { ConfigModule, loadConfig } from '../../src/config';
import { DatabaseModule } from '../../src/database/database.module';
import { DatabaseService } from '../../src/database/database.service';
import { MIGRATIONS } from '../../src/database/migrations';
import { ENTITIES } from '../../src/entities';
import { createTestDatabase, newDataDir, type TestDatabase } from '../support/node';

/**
 * The entities and the migrations describe one schema. The migrations make it (the node never
 * synchronizes); the entities must say the same, or a repository reads and writes something else.
 * Compared twice: TypeORM's own diff (what `schema:log` / `migration:generate` would change) and a
 * comparison of pg_catalog with the entity metadata, which also sees what TypeORM's diff does not
 * (column order in indexes and keys, the columns of unique constraints, check expressions, extra tables).
 */

/** Tables without a primary key: their entities name a stand-in key (TypeORM needs one) and are not synchronized. */
const KEYLESS = new Set(['info_block', 'install', 'stop_daemons']);

/** Tables in the database that no entity describes: TypeORM's record of the migrations it ran. */
const NOT_ENTITIES = new Set(['migrations']);

interface TableShape {
  columns: Record<string, { type: string; nullable: boolean; default: string | null }>;
  primaryKey: string[];
  uniques: Record<string, string[]>;
  indexes: Record<string, { columns: string[]; unique: boolean; method: string; where: string | null }>;
  checks: Record<string, string>;
  foreignKeys: string[];
}

type Schema = Record<string, TableShape>;

let db: TestDatabase;
let dataDir: string;
let app: INestApplicationContext;
let dataSource: DataSource;

@Module({})
class SchemaTestModule {}

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = newDataDir();
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
  // The node's own DatabaseModule (embedded preparation, migrations), with every entity registered the way
  // domain modules register theirs.
  app = await NestFactory.createApplicationContext(
    {
      module: SchemaTestModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, TypeOrmModule.forFeature(ENTITIES)],
    },
    { logger: false },
  );
  dataSource = app.get(DataSource);
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('DatabaseModule through @nestjs/typeorm', () => {
  it('runs the migrations, never synchronizes, and serves one DataSource, DatabaseService and repositories', async () => {
    expect(dataSource.isInitialized).toBe(true);
    expect(dataSource.options.synchronize).toBe(false);
    const ran = await dataSource.query('SELECT "name" FROM "migrations" ORDER BY "id"');
    expect(ran.map((row: { name: string }) => row.name)).toEqual(MIGRATIONS.map((m) => new m().name));
    expect(app.get(DatabaseService).dataSource).toBe(dataSource);
    expect(dataSource.entityMetadatas.map((m) => m.target)).toEqual(expect.arrayContaining(ENTITIES));
    expect(dataSource.entityMetadatas).toHaveLength(ENTITIES.length);
    const blocks = app.get<Repository<BlockEntity>>(getRepositoryToken(BlockEntity));
    expect(blocks).toBeInstanceOf(Repository);
    // The DatabaseModule alone writes no block (the genesis service does); the repository reads the table.
    expect(await blocks.count()).toBe(0);
  });
});

describe('the entities and the migrations', () => {
  it('have the same tables: every fixed table has an entity, every entity a table', async () => {
    const tables = Object.keys(await databaseSchema()).filter((name) => !NOT_ENTITIES.has(name));
    expect(entityTables().sort()).toEqual(tables.sort());
  });

  it('describe the same columns, keys, indexes, unique and check constraints', async () => {
    const database = await databaseSchema();
    for (const name of NOT_ENTITIES) delete database[name];
    expect(entitySchema()).toEqual(database);
  });

  it('leave TypeORM nothing to change (its schema diff is empty)', async () => {
    expect(await typeormChanges()).toEqual([]);
  });

  it('only the tables without a primary key stand outside schema sync', () => {
    for (const metadata of dataSource.entityMetadatas) {
      expect({ table: metadata.tableName, synchronize: metadata.synchronize }).toEqual({
        table: metadata.tableName,
        synchronize: !KEYLESS.has(metadata.tableName),
      });
      if (KEYLESS.has(metadata.tableName)) expect(metadata.primaryColumns).toHaveLength(1);
    }
  });

  it('the comparisons see a difference (a column type, an index column order, a default)', async () => {
    const database = await databaseSchema();
    for (const name of NOT_ENTITIES) delete database[name];
    const block = dataSource.getMetadata(BlockEntity);

    const tx = block.findColumnWithPropertyName('tx')!;
    await withChanged(tx, { type: 'bigint' }, async () => {
      expect(entitySchema()).not.toEqual(database);
      expect(await typeormChanges()).not.toEqual([]);
    });

    const time = block.findColumnWithPropertyName('time')!;
    await withChanged(time, { default: 0 }, async () => {
      expect(entitySchema()).not.toEqual(database);
      expect(await typeormChanges()).not.toEqual([]);
    });

    const index = block.indices.find((i) => i.name === 'block_chain_node_position_time_idx')!;
    const columns = index.columns;
    index.columns = [...columns].reverse();
    try {
      expect(entitySchema()).not.toEqual(database);
    } finally {
      index.columns = columns;
    }
  });
});

/** Sets some properties of a column's metadata while `check` runs. */
async function withChanged(
  column: ColumnMetadata,
  change: Partial<ColumnMetadata>,
  check: () => Promise<void>,
): Promise<void> {
  const saved = Object.fromEntries(Object.keys(change).map((key) => [key, (column as any)[key]]));
  Object.assign(column, change);
  try {
    await check();
  } finally {
    Object.assign(column, saved);
  }
}

function entityTables(): string[] {
  return dataSource.entityMetadatas.map((metadata) => metadata.tableName);
}

/**
 * The statements TypeORM's schema builder would run to make the database match the entities. The keyless
 * tables take part too: for the diff their stand-in key is not a key (as in the database).
 */
async function typeormChanges(): Promise<string[]> {
  const keyless = dataSource.entityMetadatas.filter((metadata) => KEYLESS.has(metadata.tableName));
  const standIns = keyless.flatMap((metadata) => metadata.primaryColumns);
  for (const metadata of keyless) metadata.synchronize = true;
  for (const column of standIns) column.isPrimary = false;
  try {
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    return upQueries.map((query) => query.query);
  } finally {
    for (const metadata of keyless) metadata.synchronize = false;
    for (const column of standIns) column.isPrimary = true;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The schema the entities describe

function entitySchema(): Schema {
  const schema: Schema = {};
  for (const metadata of dataSource.entityMetadatas) schema[metadata.tableName] = entityShape(metadata);
  return schema;
}

function entityShape(metadata: EntityMetadata): TableShape {
  const columns: TableShape['columns'] = {};
  for (const column of metadata.columns) {
    columns[column.databaseName] = {
      type: entityType(column),
      nullable: column.isNullable,
      default: entityDefault(column),
    };
  }
  return {
    columns,
    primaryKey: KEYLESS.has(metadata.tableName) ? [] : metadata.primaryColumns.map((c) => c.databaseName),
    uniques: Object.fromEntries(
      metadata.uniques.map((unique) => [unique.name, unique.columns.map((c) => c.databaseName)]),
    ),
    indexes: Object.fromEntries(
      metadata.indices.map((index) => [
        index.name,
        {
          columns: index.columns.map((c) => c.databaseName),
          unique: index.isUnique,
          method: index.type ?? 'btree',
          where: index.where ?? null,
        },
      ]),
    ),
    checks: Object.fromEntries(metadata.checks.map((check) => [check.name, checkText(check.expression!)])),
    foreignKeys: metadata.foreignKeys.map((key) => key.name).sort(),
  };
}

/** The column's type as `format_type` writes it: `character varying(255)`, `numeric(30,0)`, `bigint`. */
function entityType(column: ColumnMetadata): string {
  const type = dataSource.driver.normalizeType(column);
  if (column.length) return `${type}(${column.length})`;
  if (type === 'numeric' && column.precision != null)
    return `numeric(${column.precision},${column.scale ?? 0})`;
  if (column.precision != null) throw new Error(`${column.entityMetadata.tableName}.${column.databaseName}`);
  return type;
}

function entityDefault(column: ColumnMetadata): string | null {
  if (column.isGenerated && column.generationStrategy === 'increment') return 'sequence';
  const value: unknown = column.default;
  if (value === undefined || value === null) return null;
  if (typeof value === 'function') return databaseDefault(String(value()));
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

// ---------------------------------------------------------------------------------------------------------
// The schema the migrations made, from pg_catalog

async function databaseSchema(): Promise<Schema> {
  const schema: Schema = {};
  const table = (name: string) =>
    (schema[name] ??= { columns: {}, primaryKey: [], uniques: {}, indexes: {}, checks: {}, foreignKeys: [] });

  const columns: {
    table: string;
    column: string;
    type: string;
    not_null: boolean;
    default: string | null;
  }[] = await dataSource.query(`
      SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS "type",
             a.attnotnull AS "not_null", pg_get_expr(d.adbin, d.adrelid) AS "default"
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
       WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
       ORDER BY c.relname, a.attnum`);
  for (const column of columns) {
    table(column.table).columns[column.column] = {
      type: column.type,
      nullable: !column.not_null,
      default: databaseDefault(column.default),
    };
  }

  const constraints: {
    table: string;
    name: string;
    type: string;
    columns: string | null;
    definition: string;
  }[] = await dataSource.query(`
      SELECT c.relname AS "table", con.conname AS "name", con.contype::text AS "type",
             pg_get_constraintdef(con.oid) AS "definition",
             (SELECT string_agg(a.attname, ',' ORDER BY k.ord)
                FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum) AS "columns"
        FROM pg_constraint con
        JOIN pg_class c ON c.oid = con.conrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema()
       ORDER BY c.relname, con.conname`);
  for (const constraint of constraints) {
    const shape = table(constraint.table);
    const names = constraint.columns ? constraint.columns.split(',') : [];
    if (constraint.type === 'p') shape.primaryKey = names;
    else if (constraint.type === 'u') shape.uniques[constraint.name] = names;
    else if (constraint.type === 'c') shape.checks[constraint.name] = checkText(constraint.definition);
    else if (constraint.type === 'f') shape.foreignKeys.push(constraint.name);
    // PostgreSQL 18 records NOT NULL as constraints too; nullability is compared with the columns.
    else if (constraint.type === 'n') continue;
    else
      throw new Error(`unexpected constraint ${constraint.name} (${constraint.type}) on ${constraint.table}`);
  }

  // Indexes of their own: those behind the primary key and unique constraints were compared as constraints.
  const indexes: {
    table: string;
    name: string;
    unique: boolean;
    method: string;
    columns: string | null;
    expressions: string | null;
    where: string | null;
  }[] = await dataSource.query(`
      SELECT t.relname AS "table", i.relname AS "name", ix.indisunique AS "unique", am.amname AS "method",
             pg_get_expr(ix.indexprs, ix.indrelid) AS "expressions", pg_get_expr(ix.indpred, ix.indrelid) AS "where",
             (SELECT string_agg(a.attname, ',' ORDER BY k.ord)
                FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS "columns"
        FROM pg_index ix
        JOIN pg_class t ON t.oid = ix.indrelid
        JOIN pg_class i ON i.oid = ix.indexrelid
        JOIN pg_namespace n ON n.oid = t.relnamespace
        JOIN pg_am am ON am.oid = i.relam
       WHERE n.nspname = current_schema()
         AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = ix.indexrelid)
       ORDER BY t.relname, i.relname`);
  for (const index of indexes) {
    if (index.expressions) throw new Error(`index ${index.name} is on expressions: ${index.expressions}`);
    table(index.table).indexes[index.name] = {
      columns: index.columns ? index.columns.split(',') : [],
      unique: index.unique,
      method: index.method,
      where: index.where,
    };
  }
  for (const shape of Object.values(schema)) shape.foreignKeys.sort();
  return schema;
}

/** A column default as its value: `'{}'::jsonb` → `{}`, `''::character varying` → ``, `0` → `0`. */
function databaseDefault(expression: string | null): string | null {
  if (expression === null) return null;
  if (/^nextval\(/.test(expression)) return 'sequence';
  const value = expression.replace(/::[a-z ]+(\(\d+(,\d+)?\))?$/i, '');
  const quoted = /^'(.*)'$/s.exec(value);
  return quoted ? quoted[1].replaceAll("''", "'") : value;
}

/** A check's condition without quoting, casts, parentheses or spaces: `CHECK ((expedite >= (0)::numeric))` → `expedite>=0`. */
function checkText(expression: string): string {
  return expression
    .replace(/^\s*CHECK\s*/i, '')
    .replace(/::[a-z ]+/gi, '')
    .replace(/["()\s]/g, '');
}
