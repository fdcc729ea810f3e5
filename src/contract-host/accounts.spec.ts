import { hmac } from '@noble/hashes/hmac.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import type { NodeCrypto } from '../chain/node-crypto.service';
import { createHasher, createSigner, keyIdFromPublicKey, keyIdToAddress } from '../crypto';
import type { Sql } from '../database/database.service';
import { Vm, type Value } from '../vm';
import { ACCOUNT_BUILTINS } from './accounts';
import type { HostState } from './state';

const hasher = createHasher('KECCAK256');
const signer = createSigner('ECC_Secp256k1', hasher);
const crypto = {
  hasher,
  signer,
  keyId: (publicKey: Uint8Array) => keyIdFromPublicKey(publicKey, hasher),
  address: keyIdToAddress,
} as unknown as NodeCrypto;

/** Only what the account built-ins read: the node's crypto, the caller's ecosystem and `1_ecosystems.digits`. */
function hostState(digits: string): HostState {
  const sql: Sql = {
    query: () => Promise.resolve([]),
    one: <Row>(text: string) =>
      Promise.resolve((text.includes('1_ecosystems') ? { digits } : undefined) as Row | undefined),
  };
  return {
    sql,
    crypto,
    caller: { keyId: 1n, ecosystem: 3n, roleId: 0n, account: '' },
  } as unknown as HostState;
}

async function run(body: string, digits = '2'): Promise<string> {
  const vm = new Vm();
  vm.builtins.registerAll(ACCOUNT_BUILTINS);
  vm.compileSource(`contract T {\n  action {\n    $result = ${body}\n  }\n}`, { ecosystem: 3 });
  const vars: Record<string, Value> = { ecosystem_id: 3n };
  return (await vm.runContract('T', new Map(), { vars, host: hostState(digits) })).result;
}

describe('account and crypto built-ins of the host', () => {
  const privateKey = hasher.hash(Buffer.from('seed phrase'));
  const publicKey = signer.publicKey(privateKey);
  const publicHex = Buffer.from(publicKey).toString('hex');

  it('DoubleHash hashes twice with the node hasher, as bytes', async () => {
    const expected = Buffer.from(hasher.doubleHash(Buffer.from('abc'))).toString('hex');
    expect(await run('Sprintf("%x %T", DoubleHash("abc"), DoubleHash(StringToBytes("abc")))')).toBe(
      `${expected} []uint8`,
    );
  });

  it('HMac uses the node hasher, in hex or raw', async () => {
    const mac = Buffer.from(hmac(keccak_256, Buffer.from('key'), Buffer.from('data'))).toString('hex');
    expect(await run('HMac("key", "data", false)')).toBe(mac);
    expect(await run('Size(HMac("key", "data", true)) > 0')).toBe('true');
  });

  it('CheckSign verifies a signature of the node curve and hasher', async () => {
    const signature = Buffer.from(signer.sign(privateKey, Buffer.from('message'))).toString('hex');
    expect(await run(`CheckSign("${publicHex}", "message", "${signature}")`)).toBe('true');
    expect(await run(`CheckSign("${publicHex}", "other", "${signature}")`)).toBe('false');
    await expect(run(`CheckSign("zz", "message", "${signature}")`)).rejects.toThrow('invalid public key');
  });

  it('SeedToID is the key id of the key a seed stands for', async () => {
    expect(await run('SeedToID("seed phrase")')).toBe(keyIdFromPublicKey(publicKey, hasher).toString());
  });

  it('FormatMoney with 0 digits takes the digits of the transaction ecosystem', async () => {
    expect(await run('FormatMoney("12345", 0)', '2')).toBe('123.45');
    expect(await run('FormatMoney("12345", 1)', '2')).toBe('1234.5');
    expect(await run('FormatMoney("12345", 0)', '0')).toBe('12345');
  });
});
