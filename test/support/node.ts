import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import type { DestinationStream } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app';
import { NodeIdentity } from '../../src/chain/node-identity.service';
import { loadConfig, type AppConfig } from '../../src/config';
import { bytesToHex } from '../../src/crypto';
import { IbaxClient } from '../../src/sdk';

export interface TestNode {
  app: NestExpressApplication;
  config: AppConfig;
  url: string;
  client: IbaxClient;
  founderKey: string;
  nodeKey: string;
  dataDir: string;
  /** Stops the app; keeps the data (for restart tests) unless `remove` is set. */
  stop(remove?: boolean): Promise<void>;
}

export interface TestDatabase {
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A database for one test file: a fresh database on the PostgreSQL server of TEST_DATABASE_URL when it is
 * set (CI), the embedded database in the node's data directory otherwise. Never a mock.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { url: undefined, drop: async () => {} };
  const name = `ibax_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export function newDataDir(): string {
  const dir = join(process.cwd(), '.test-data', `${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Boots the real node (REST + JSON-RPC) on a random local port. */
export async function startNode(
  options: {
    env?: Record<string, string>;
    dataDir?: string;
    databaseUrl?: string;
    /** Where the node's JSON log lines go (with LOG_LEVEL set in `env`); default: nowhere. */
    logDestination?: DestinationStream;
  } = {},
): Promise<TestNode> {
  const dataDir = options.dataDir ?? newDataDir();
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '7079',
    LOG_LEVEL: 'silent',
    DATABASE_URL: options.databaseUrl,
    JSONRPC_NAMESPACES: 'ibax,chain,net,admin,debug',
    ...options.env,
  };
  const config = loadConfig(env);
  const app = await createApp(config, { logDestination: options.logDestination });
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const keys = app.get(NodeIdentity).keys;
  return {
    app,
    config,
    url,
    client: new IbaxClient(url, { cryptoer: config.cryptoer, hasher: config.hasher }),
    founderKey: keys.founder ? bytesToHex(keys.founder.privateKey) : '',
    nodeKey: bytesToHex(keys.node.privateKey),
    dataDir,
    stop: async (remove = false) => {
      await app.close();
      if (remove) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Boots one node (on a fresh test database) for a test file, before its tests, and stops it and drops
 * the database after them. The returned handle's `node` is set once the file's tests start.
 */
export function useTestNode(
  options: { env?: Record<string, string>; logDestination?: DestinationStream } = {},
): {
  node: TestNode;
  db: TestDatabase;
} {
  const handle = {} as { node: TestNode; db: TestDatabase };
  beforeAll(async () => {
    handle.db = await createTestDatabase();
    handle.node = await startNode({ databaseUrl: handle.db.url, ...options });
  });
  afterAll(async () => {
    await handle.node?.stop(true);
    await handle.db?.drop();
  });
  return handle;
}
