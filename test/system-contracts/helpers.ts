import { beforeAll, expect } from 'vitest';
import { NodeIdentity } from '../../src/chain/node-identity.service';
import { bytesToHex } from '../../src/crypto';
import { ContractBench, type Actor, type Outcome } from '../support/contracts';
import { useTestNode, type TestDatabase, type TestNode } from '../support/node';

/**
 * Shared steps of the system-contract tests: a real node on a real database per file, rows read back as
 * text, the exact set of rows a contract run wrote, and the journal's undo compared with the whole database.
 */

export const MAIN = 'ContractConditions("MainCondition")';
export const DEVELOPER = 'ContractConditions("DeveloperCondition")';

/** A row as PostgreSQL's text of every column (NULL → null), keyed by column name. */
export type Row = Record<string, string | null>;

export interface TableChanges {
  inserted: Row[];
  updated: { before: Row; after: Row }[];
  deleted: Row[];
}

export interface Tracked {
  outcome: Outcome;
  /** The tables that changed, except `rollback_tx` (see `journal`). */
  changes: Record<string, TableChanges>;
  /** The journal the run left in `rollback_tx`, oldest first. */
  journal: JournalEntry[];
  /** Tables the run created. */
  createdTables: string[];
  /** `bench.snapshot` of every table (and every column of every table) before the run, for after undo. */
  before: Record<string, unknown[]>;
}

/** A `rollback_tx` row of the run: `data` is '' for an insert, else the previous values it keeps. */
export interface JournalEntry {
  table_name: string;
  table_id: string;
  data: '' | Record<string, unknown>;
}

export interface Account extends Actor {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  /** The 64-byte public key as 128 hex digits. */
  pub: string;
}

export interface Harness {
  db: TestDatabase;
  node: TestNode;
  bench: ContractBench;
  /** The ecosystem-1 founder. */
  founder: Actor;
  /** The node key: registered in 1_keys, neither founder nor member nor role holder; the honor node. */
  nodeKey: Actor;
  /** A fresh key pair (not registered anywhere). */
  newAccount(ecosystem?: bigint): Account;
  /** A fresh key registered through NewUser signed by the node, in ecosystem 1 and `ecosystem` (its actor's). */
  registered(ecosystem?: bigint): Promise<Account>;
  /** Every column of every table of the database, and every row of each (`bench.snapshot`). */
  world(): Promise<Record<string, unknown[]>>;
  /** Rows of a table as text, ordered by id; `where` is SQL over the table's columns with $1… params. */
  rows(table: string, where?: string, params?: unknown[]): Promise<Row[]>;
  row(table: string, where: string, params?: unknown[]): Promise<Row | undefined>;
  /** The id the next row of a table gets: MAX(id) + 1 over every ecosystem. */
  nextId(table: string): Promise<string>;
  /** Runs the contract and reports exactly what it wrote. */
  track(actor: Actor, contract: string, params?: Record<string, unknown>): Promise<Tracked>;
  /** Runs a contract that must be refused with `type` and `message`, and checks that nothing was written. */
  refused(
    actor: Actor,
    contract: string,
    params: Record<string, unknown>,
    type: string,
    message: string | RegExp,
  ): Promise<void>;
  /** Takes the tracked run back and checks that the whole database is as before it, journal included. */
  undone(tracked: Tracked): Promise<void>;
}

/** Boots a node on a fresh database for the calling test file (`useTestNode`); the harness is filled in beforeAll. */
export function useNode(): Harness {
  const running = useTestNode();
  const harness = {} as Harness;
  beforeAll(() => {
    const bench = new ContractBench(running.node);
    const nodeKeyId = running.node.app.get(NodeIdentity).keys.node.keyId;
    Object.assign(harness, {
      db: running.db,
      node: running.node,
      bench,
      founder: bench.founder,
      nodeKey: bench.actor(nodeKeyId),
    });
    Object.assign(harness, operations(harness));
  });
  return harness;
}

const ROW_AS_TEXT = `(SELECT jsonb_object_agg("key", "value") FROM jsonb_each_text(to_jsonb(t)))`;

function operations(h: Harness): Partial<Harness> {
  const { bench } = h;

  const tableNames = async (): Promise<string[]> =>
    (
      await bench.db.query<{ table_name: string }>(
        `SELECT "table_name" FROM information_schema.tables WHERE "table_schema" = current_schema() ORDER BY 1`,
      )
    ).map((row) => row.table_name);

  const rows = async (table: string, where = 'true', params: unknown[] = []): Promise<Row[]> => {
    const found = await bench.db.query<{ row: Row }>(
      `SELECT ${ROW_AS_TEXT} AS "row" FROM "${table}" t WHERE ${where}`,
      params,
    );
    return found.map((item) => item.row).sort(byKey);
  };

  /** Rows of every table keyed by (ecosystem, id), or by the whole row where there is no id. */
  const state = async (): Promise<Map<string, Map<string, Row>>> => {
    const out = new Map<string, Map<string, Row>>();
    for (const table of await tableNames()) {
      out.set(table, new Map((await rows(table)).map((row) => [keyOf(row), row])));
    }
    return out;
  };

  const world = async () => ({
    '<columns>': (
      await bench.db.query<{ column: string }>(
        `SELECT "table_name" || '.' || "column_name" || ' ' || "data_type" AS "column" FROM information_schema.columns
          WHERE "table_schema" = current_schema() ORDER BY "table_name", "ordinal_position"`,
      )
    ).map((row) => row.column),
    ...(await bench.snapshot(await tableNames())),
  });

  const newAccount = (ecosystem = 1n): Account => {
    const signer = bench.crypto.signer;
    const privateKey = signer.generatePrivateKey();
    const publicKey = signer.publicKey(privateKey);
    const keyId = bench.crypto.keyId(publicKey);
    return { ...bench.actor(keyId, ecosystem), privateKey, publicKey, pub: bytesToHex(publicKey) };
  };

  return {
    rows,
    row: async (table, where, params) => (await rows(table, where, params))[0],
    nextId: async (table) => {
      const found = await bench.db.one<{ id: string }>(
        `SELECT COALESCE(MAX("id"), 0) + 1 AS "id" FROM "${table}"`,
      );
      return String(found!.id);
    },
    world,
    newAccount,
    registered: async (ecosystem = 1n) => {
      const account = newAccount(ecosystem);
      await bench.mustRun(h.nodeKey, 'NewUser', { NewPubkey: account.pub, Ecosystem: Number(ecosystem) });
      return account;
    },
    track: async (actor, contract, params = {}) => {
      const before = await world();
      const stateBefore = await state();
      const outcome = await bench.run(actor, contract, params);
      const stateAfter = await state();
      const changes: Record<string, TableChanges> = {};
      for (const [table, after] of stateAfter) {
        const previous = stateBefore.get(table) ?? new Map<string, Row>();
        const change: TableChanges = { inserted: [], updated: [], deleted: [] };
        for (const [key, row] of after) {
          const old = previous.get(key);
          if (!old) change.inserted.push(row);
          else if (JSON.stringify(old) !== JSON.stringify(row))
            change.updated.push({ before: old, after: row });
        }
        for (const [key, row] of previous) if (!after.has(key)) change.deleted.push(row);
        if (change.inserted.length + change.updated.length + change.deleted.length > 0)
          changes[table] = change;
      }
      for (const table of stateBefore.keys()) {
        if (!stateAfter.has(table)) throw new Error(`${contract} dropped the table ${table}`);
      }
      const createdTables = [...stateAfter.keys()].filter((table) => !stateBefore.has(table));
      const journalChange = changes.rollback_tx ?? { inserted: [], updated: [], deleted: [] };
      delete changes.rollback_tx;
      // The journal only grows, and only with rows of this transaction.
      expect(journalChange.updated).toEqual([]);
      expect(journalChange.deleted).toEqual([]);
      const hash = `\\x${outcome.txHash.toString('hex')}`;
      expect(journalChange.inserted.every((row) => row.tx_hash === hash)).toBe(true);
      const journal = journalChange.inserted
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map((row) => ({
          table_name: row.table_name!,
          table_id: row.table_id!,
          data: row.data ? (JSON.parse(row.data) as Record<string, unknown>) : ('' as const),
        }));
      return { outcome, changes, journal, createdTables, before };
    },
    refused: async (actor, contract, params, type, message) => {
      const before = await world();
      const outcome = await bench.run(actor, contract, params);
      expect(outcome.ok, `${contract} should be refused`).toBe(false);
      expect(outcome.error?.type).toBe(type);
      if (typeof message === 'string') expect(outcome.error?.message).toBe(message);
      else expect(outcome.error?.message).toMatch(message);
      expect(await world()).toEqual(before);
    },
    undone: async (tracked) => {
      expect(tracked.outcome.ok).toBe(true);
      const taken = await bench.undo(tracked.outcome.txHash);
      expect(taken).toBe(tracked.journal.length);
      await bench.contracts.resync(bench.db);
      expect(await world()).toEqual(tracked.before);
      expect(
        await bench.db.query(`SELECT 1 FROM "rollback_tx" WHERE "tx_hash" = $1`, [tracked.outcome.txHash]),
      ).toEqual([]);
    },
  };
}

/** Rows in (ecosystem, id) order, numerically; rows without an id by their text. */
function byKey(a: Row, b: Row): number {
  if (a.id === undefined || b.id === undefined) return keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0;
  const [ecoA, ecoB] = [BigInt(a.ecosystem ?? 0), BigInt(b.ecosystem ?? 0)];
  if (ecoA !== ecoB) return ecoA < ecoB ? -1 : 1;
  const [idA, idB] = [BigInt(a.id ?? 0), BigInt(b.id ?? 0)];
  return idA < idB ? -1 : idA > idB ? 1 : 0;
}

function keyOf(row: Row): string {
  if (row.id === undefined) return JSON.stringify(row);
  return row.ecosystem === undefined ? String(row.id) : `${row.ecosystem}/${row.id}`;
}

/** Expects a run to have succeeded (with its error in the failure message otherwise). */
export function expectOk(tracked: Tracked | Outcome): void {
  const outcome = 'outcome' in tracked ? tracked.outcome : tracked;
  expect(outcome.error?.message ?? '', `${outcome.error?.type}: ${outcome.error?.message}`).toBe('');
  expect(outcome.ok).toBe(true);
}

/** The journal entry of an inserted row. */
export const insertedEntry = (table: string, id: string): JournalEntry => ({
  table_name: table,
  table_id: id,
  data: '',
});

/** The journal entry of an updated row: the previous text of the changed columns. */
export const updatedEntry = (
  table: string,
  id: string,
  previous: Record<string, string | null>,
): JournalEntry => ({ table_name: table, table_id: id, data: previous });

/** A TableChanges with only inserted rows. */
export const insertedOnly = (...rows: Row[]): TableChanges => ({ inserted: rows, updated: [], deleted: [] });

/** A TableChanges with only updated rows. */
export const updatedOnly = (...pairs: { before: Row; after: Row }[]): TableChanges => ({
  inserted: [],
  updated: pairs,
  deleted: [],
});

/** An update that changed only the given columns of `before`. */
export const changed = (before: Row, columns: Row) => ({ before, after: { ...before, ...columns } });
