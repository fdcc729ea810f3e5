import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CheckViolation,
  computeColumn,
  NotInMemory,
  RowStore,
  type TableShape,
} from '../../src/contract-host';
import type { Sql } from '../../src/database/database.service';
import { openEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { newDataDir } from '../support/node';

/**
 * The write-behind layer works out a column's new value in memory. Whatever it works out must be exactly
 * what PostgreSQL stores and prints for the same UPDATE, and every error it gives must be PostgreSQL's own;
 * where it cannot tell, it must say so (the write then goes to the database). Checked against the real
 * database (the server of TEST_DATABASE_URL, or an embedded one) with generated values.
 */
let sql: Sql;
let close: () => Promise<void>;
let shape: TableShape;

beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL;
  const dataDir = url ? undefined : newDataDir();
  const embedded = dataDir ? await openEmbeddedPostgres(dataDir) : undefined;
  const client = new Client(embedded ? embedded.connection : { connectionString: url });
  await client.connect();
  sql = {
    query: async (text, params) => (await client.query(text, params as unknown[])).rows,
    one: async (text, params) => (await client.query(text, params as unknown[])).rows[0],
  };
  close = async () => {
    await client.end();
    await embedded?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const table = `row_arithmetic_${process.pid}`;
  await sql.query(`DROP TABLE IF EXISTS "${table}"`);
  await sql.query(`CREATE TABLE "${table}" (
    "id" bigint PRIMARY KEY,
    "amount" numeric(30) NOT NULL DEFAULT 0 CHECK ("amount" >= 0),
    "price" numeric(12,4),
    "positive" bigint CHECK ("positive" > 0),
    "big" bigint,
    "small" smallint,
    "count" integer,
    "code" varchar(5),
    "note" text
  )`);
  await sql.query(`INSERT INTO "${table}" ("id", "amount", "positive") VALUES (1, 0, 1)`);
  shape = (await new RowStore().shape(sql, table))!;
  expect([...shape.rules.keys()].sort()).toEqual(
    ['amount', 'big', 'code', 'count', 'note', 'positive', 'price', 'small'].sort(),
  );
});

afterAll(async () => {
  await sql.query(`DROP TABLE IF EXISTS "${shape.physical}"`);
  await close();
});

const digits = (max: number) => fc.stringMatching(new RegExp(`^[1-9][0-9]{0,${max}}$`));
const numberText = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '1',
    '-1',
    '0.5',
    '-0.5',
    '1.5',
    '2.5',
    '-2.5',
    '0.00005',
    '9.99995',
    '.5',
    '5.',
  ),
  digits(35),
  digits(20).map((text) => `-${text}`),
  fc.tuple(digits(12), digits(8)).map(([whole, part]) => `${whole}.${part}`),
  fc.tuple(digits(3), fc.integer({ min: -40, max: 40 })).map(([mantissa, exp]) => `${mantissa}e${exp}`),
  fc.constantFrom('9223372036854775807', '-9223372036854775808', '32767', '-32769', '2147483648'),
  fc.constantFrom('abc', '', ' 1', '1 ', '+5', '1e', 'NaN', 'Infinity', '0x10', '1_000', '١٢'),
);
const text = fc.oneof(
  fc.string({ maxLength: 7 }),
  fc.constantFrom('abcde', 'abcdef', 'ünï', 'a\u0000b', '\uD800', '😀😀😀😀😀', '😀😀😀😀😀😀'),
);

interface Case {
  column: string;
  current: string | null;
  param: string | null;
  delta: '+' | '-' | undefined;
}

const caseOf = fc
  .constantFrom('amount', 'price', 'positive', 'big', 'small', 'count', 'code', 'note')
  .chain((column) => {
    const textual = column === 'code' || column === 'note';
    const value = textual ? text : numberText;
    return fc.record({
      column: fc.constant(column),
      current: fc.option(value, { freq: 8 }),
      param: fc.option(value, { freq: 10 }),
      delta: fc.constantFrom<'+' | '-' | undefined>(undefined, '+', '-'),
    });
  });

/** What PostgreSQL does with the update: the stored text, or its error; null when the row cannot be set up. */
async function inDatabase(test: Case): Promise<{ text: string | null } | { error: string } | null> {
  const table = `"${shape.physical}"`;
  const column = `"${test.column}"`;
  await sql.query('BEGIN');
  try {
    try {
      await sql.query(`UPDATE ${table} SET ${column} = $1 WHERE "id" = 1`, [test.current]);
    } catch {
      return null;
    }
    const current = await sql.one<{ value: string | null }>(
      `SELECT ${column}::text AS "value" FROM ${table} WHERE "id" = 1`,
    );
    // The cache holds PostgreSQL's own text of the current value.
    test.current = current!.value;
    await sql.query('SAVEPOINT "u"');
    try {
      const expression = test.delta ? `${column} ${test.delta} $1` : '$1';
      const row = await sql.one<{ value: string | null }>(
        `UPDATE ${table} SET ${column} = ${expression} WHERE "id" = 1 RETURNING ${column}::text AS "value"`,
        [test.param],
      );
      return { text: row!.value };
    } catch (error) {
      await sql.query('ROLLBACK TO SAVEPOINT "u"');
      return { error: (error as Error).message };
    }
  } finally {
    await sql.query('ROLLBACK');
  }
}

describe('a column worked out in memory', () => {
  it('is what PostgreSQL stores, or its error, or left to it', async () => {
    let worked = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(caseOf, async (test) => {
        const database = await inDatabase(test);
        if (!database) return;
        let memory: { text: string | null } | { error: string } | 'database';
        try {
          memory = {
            text: computeColumn(
              shape.rules.get(test.column)!,
              shape.physical,
              test.current,
              test.param,
              test.delta,
            ),
          };
        } catch (error) {
          if (error instanceof NotInMemory) memory = 'database';
          else if (error instanceof CheckViolation) memory = { error: error.message };
          else throw error;
        }
        if (memory === 'database') return;
        if ('text' in memory) worked++;
        else refused++;
        expect(memory, JSON.stringify(test)).toEqual(database);
      }),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 1500),
        seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31),
      },
    );
    // The property is only worth something if most cases are decided in memory.
    expect(worked).toBeGreaterThan(250);
    expect(refused).toBeGreaterThan(5);
  });
});
