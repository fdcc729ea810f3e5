import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareClusterTemplate, prepareEmbeddedDatabase } from '../../src/database/embedded-init';
import { newDataDir } from '../support/node';

const dataDirs: string[] = [];

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Opens the cluster and asks it something, as the node's first query would. */
async function answers(pgdata: string): Promise<string> {
  const db = await PGlite.create({ dataDir: pgdata });
  try {
    const result = await db.query<{ version: string }>("SELECT current_setting('server_version') AS version");
    return result.rows[0].version;
  } finally {
    await db.close();
  }
}

function freshPgdata(): string {
  const dir = newDataDir();
  dataDirs.push(dir);
  return join(dir, 'pgdata');
}

describe('the embedded database cluster of a first start', () => {
  it('is copied from the template made at install, and works like one made by initdb', async () => {
    const template = await prepareClusterTemplate();
    const copied = freshPgdata();
    await prepareEmbeddedDatabase(copied, template);
    const made = freshPgdata();
    await prepareEmbeddedDatabase(made, undefined);

    for (const pgdata of [copied, made]) {
      expect(existsSync(join(pgdata, 'PG_VERSION')), pgdata).toBe(true);
      // Nothing half-made is left beside it.
      expect(existsSync(`${pgdata}.initdb`)).toBe(false);
    }
    expect(readdirSync(copied).sort()).toEqual(readdirSync(made).sort());
    expect(await answers(copied)).toBe(await answers(made));
    // The template itself is only read.
    expect(existsSync(join(template, 'postmaster.pid'))).toBe(false);
  }, 60_000);
});
