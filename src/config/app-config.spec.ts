import { describe, expect, it } from 'vitest';
import { ConfigError, readEnvironment, resolveConfig } from './app-config';

const read = (env: Record<string, string>) => readEnvironment(env, '/nonexistent/.env');

describe('configuration', () => {
  it('has documented defaults', () => {
    const env = read({});
    expect(env).toMatchObject({
      PORT: 7079,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      NETWORK_ID: 1n,
      CRYPTOER: 'ECC_Secp256k1',
      HASHER: 'KECCAK256',
      NODE_MODE: 'normal',
      JSONRPC_ENABLED: true,
      JSONRPC_NAMESPACES: ['ibax', 'chain', 'net'],
      LOG_LEVEL: 'info',
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('names every wrong variable and what it accepts', () => {
    let error: ConfigError | undefined;
    try {
      read({ PORT: '70000', CRYPTOER: 'RSA', JSONRPC_NAMESPACES: 'ibax,eth', DATABASE_URL: 'mysql://x' });
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = error!.problems.join('\n');
    expect(text).toContain('PORT="70000": accepts a whole number from 1 to 65535');
    expect(text).toContain('CRYPTOER="RSA": accepts ECC_Secp256k1 or ECC_P256');
    expect(text).toContain('JSONRPC_NAMESPACES="ibax,eth": accepts a comma-separated list');
    expect(text).toContain('DATABASE_URL="mysql://x": accepts a postgres://');
  });

  it('bounds the queue and shares the slot by default, and refuses a share outside (0, 1]', () => {
    expect(read({})).toMatchObject({
      TX_QUEUE_LIMIT: 5000,
      TX_QUEUE_BYTES: 33_554_432,
      TX_QUEUE_PER_KEY: 1000,
      TX_QUEUE_SLOTS: 3,
      BLOCK_BUILD_SHARE: 0.5,
    });
    expect(read({ BLOCK_BUILD_SHARE: '0.75' }).BLOCK_BUILD_SHARE).toBe(0.75);
    expect(read({ BLOCK_BUILD_SHARE: '1' }).BLOCK_BUILD_SHARE).toBe(1);
    for (const wrong of ['0', '1.5', 'half', '-0.5']) {
      expect(() => read({ BLOCK_BUILD_SHARE: wrong })).toThrow(
        `BLOCK_BUILD_SHARE=${JSON.stringify(wrong)}: accepts a share of the slot above 0, at most 1 (e.g. 0.5)`,
      );
    }
  });

  it('names a data directory that cannot be created', () => {
    // A path below a file: mkdir fails with ENOTDIR whoever runs the test (root included).
    const env = read({ DATA_DIR: 'package.json/data' });
    let error: ConfigError | undefined;
    try {
      resolveConfig(env);
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toEqual(['DATA_DIR="package.json/data": cannot be created (ENOTDIR)']);
  });

  it('reads booleans and lists', () => {
    expect(read({ JSONRPC_ENABLED: 'false', JSONRPC_NAMESPACES: 'net, debug' })).toMatchObject({
      JSONRPC_ENABLED: false,
      JSONRPC_NAMESPACES: ['net', 'debug'],
    });
    expect(() => read({ JSONRPC_ENABLED: 'maybe' })).toThrow(/JSONRPC_ENABLED="maybe": accepts true, false/);
  });
});

describe('settings read as durations and pairs', () => {
  const dataDir = `/tmp/ibax-config-spec-${process.pid}`;

  it('key bans: counts and Go durations, with the reference defaults', () => {
    expect(resolveConfig(read({ DATA_DIR: dataDir })).keyBans).toEqual({
      badTxLimit: 5,
      windowMs: 300_000,
      banMs: 900_000,
    });
    expect(
      resolveConfig(read({ DATA_DIR: dataDir, BAN_BAD_TX: '0', BAN_BAD_TIME: '1h30m', BAN_TIME: '1.5s' }))
        .keyBans,
    ).toEqual({ badTxLimit: 0, windowMs: 5_400_000, banMs: 1500 });
    expect(() => read({ BAN_TIME: '15' })).toThrow(
      /BAN_TIME="15": accepts a duration such as 90s, 5m or 1h30m/,
    );
    expect(() => read({ BAN_BAD_TIME: '500ms' })).toThrow(/BAN_BAD_TIME="500ms": accepts a duration from 1s/);
    expect(() => read({ BAN_BAD_TX: '-1' })).toThrow(/BAN_BAD_TX/);
  });

  it("Centrifugo's server API needs its address and its key together", () => {
    expect(resolveConfig(read({ DATA_DIR: dataDir })).centrifugo.api).toBeUndefined();
    expect(
      resolveConfig(read({ DATA_DIR: dataDir, CENTRIFUGO_API_URL: 'http://c:8000', CENTRIFUGO_API_KEY: 'k' }))
        .centrifugo.api,
    ).toEqual({ url: 'http://c:8000', key: 'k' });
    expect(() => resolveConfig(read({ DATA_DIR: dataDir, CENTRIFUGO_API_URL: 'http://c:8000' }))).toThrow(
      /CENTRIFUGO_API_KEY="": needed with CENTRIFUGO_API_URL/,
    );
    expect(() => resolveConfig(read({ DATA_DIR: dataDir, CENTRIFUGO_API_KEY: 'k' }))).toThrow(
      /CENTRIFUGO_API_URL="": needed with CENTRIFUGO_API_KEY/,
    );
    expect(() => read({ CENTRIFUGO_API_URL: 'ws://c:8000' })).toThrow(
      /accepts an http:\/\/ or https:\/\/ URL/,
    );
  });
});
