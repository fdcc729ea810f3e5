import { rmSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { freePort } from '../support/child-node';
import { newDataDir } from '../support/node';

const dataDir = newDataDir();

// Nest reports the failed start on its console logger (the node's own logger is not attached yet).
beforeAll(() => Logger.overrideLogger(false));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('fails the start at once when the database cannot be reached (no connection retries)', async () => {
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/nowhere`,
    LOG_LEVEL: 'silent',
  });
  const started = performance.now();
  await expect(createApp(config)).rejects.toThrow(/ECONNREFUSED/);
  // @nestjs/typeorm's default would retry 9 times, 3 s apart.
  expect(performance.now() - started).toBeLessThan(5_000);
});
