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
