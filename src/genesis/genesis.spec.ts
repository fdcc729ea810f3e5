import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config';
import { parsePrivateKeyHex, publicKeyHex04, utf8 } from '../crypto';
import {
  decodeFirstBlockTransaction,
  forSign,
  merkleRoot,
  parseBlock,
  verifyBlockHashes,
} from '../chain/codec';
import { NodeCrypto } from '../chain/node-crypto.service';
import type { KeyPair, NodeKeys } from '../chain/node-keys';
import { GENESIS_PAGES } from './genesis-pages';
import { composeGenesis } from './genesis.service';

const crypto = new NodeCrypto({ cryptoer: 'ECC_Secp256k1', hasher: 'KECCAK256' } as AppConfig);

function pair(hex: string): KeyPair {
  const privateKey = parsePrivateKeyHex(hex);
  const publicKey = crypto.signer.publicKey(privateKey);
  return { privateKey, publicKey, keyId: crypto.keyId(publicKey), file: 'memory' };
}

const founder = pair('22'.repeat(32));
const keys = { node: pair('11'.repeat(32)), founder, owner: founder, generated: false } satisfies NodeKeys;
const config = {
  networkId: 1n,
  tcpAddress: '127.0.0.1:7078',
  apiAddress: 'http://127.0.0.1:7079',
  chainTest: false,
};
const TIME_MS = 1_795_316_159_123;
const sign = (message: Uint8Array) => crypto.signer.sign(keys.node.privateKey, message);

describe('composeGenesis', () => {
  const genesis = composeGenesis({ keys, sign, crypto, config, timeMs: TIME_MS });

  it('is deterministic given the keys, the config and the time', () => {
    const again = composeGenesis({ keys, sign, crypto, config, timeMs: TIME_MS });
    expect(again.block.hash.equals(genesis.block.hash)).toBe(true);
    expect(again.block.data.equals(genesis.block.data)).toBe(true);
    expect(again.rows).toEqual(genesis.rows);
    const later = composeGenesis({ keys, sign, crypto, config, timeMs: TIME_MS + 1000 });
    expect(later.block.hash.equals(genesis.block.hash)).toBe(false);
  });

  it('makes block 1 with one FirstBlock transaction, a correct hash and the node signature', () => {
    const hash = (data: Uint8Array) => crypto.hasher.hash(data);
    const block = parseBlock(genesis.block.data);
    expect(block.header).toMatchObject({
      blockId: 1n,
      timestamp: BigInt(Math.floor(TIME_MS / 1000)),
      ecosystemId: 0n,
      keyId: keys.founder.keyId,
      nodePosition: 0n,
      version: 3,
      consensusMode: 1,
      networkId: 1n,
    });
    expect(Buffer.from(block.prevHeader.blockHash).toString('hex')).toBe(
      '40105d5bc10105c17fd72b93a8f73369e2ee6eee4d4714b7bf7bf3c2f156e601',
    );
    expect(Buffer.from(block.header.rollbacksHash).toString('hex')).toBe(
      '044852b2a670ade5407e78fb2863c51de9fcb96542a07186fe3aeda6bb8a116d',
    );
    expect(block.merkleRoot).toBe(merkleRoot(block.compressedTxs, hash));
    verifyBlockHashes(block, hash);
    expect(Buffer.from(block.header.blockHash).equals(genesis.block.hash)).toBe(true);
    const signed = utf8(forSign(block.header, block.prevHeader, block.merkleRoot));
    expect(() => crypto.signer.verify(keys.node.publicKey, signed, block.header.sign)).not.toThrow();
    expect(() => crypto.signer.verify(keys.founder.publicKey, signed, block.header.sign)).toThrow();

    expect(block.txs).toHaveLength(1);
    const firstTx = decodeFirstBlockTransaction(block.txs[0], hash);
    expect(firstTx.data.keyId).toBe(keys.founder.keyId);
    expect(Buffer.from(firstTx.data.nodePublicKey).equals(Buffer.from(keys.node.publicKey))).toBe(true);
    expect(firstTx.timestamp).toBe(BigInt(TIME_MS));
    expect(Buffer.from(firstTx.txHash).equals(genesis.block.txHash)).toBe(true);
  });

  it('seeds ecosystem 1 with its accounts, parameters and the node as the only honor node', () => {
    const of = (table: string) => genesis.rows.filter((row) => row.table === table).map((row) => row.values);
    expect(of('1_ecosystems')).toEqual([
      expect.objectContaining({ id: 1n, name: 'platform ecosystem', digits: 12 }),
    ]);
    expect(of('1_keys').map((row) => row.id)).toEqual(
      expect.arrayContaining([keys.founder.keyId, keys.node.keyId, -110277540701013350n, 0n, 5555n]),
    );
    expect(of('1_keys')).toHaveLength(5);
    expect(of('1_parameters')).toHaveLength(15);
    expect(of('1_parameters').find((row) => row.name === 'founder_account')?.value).toBe(
      keys.founder.keyId.toString(),
    );
    expect(of('1_members').map((row) => row.member_name)).toEqual([
      'founder',
      'guest',
      'black_hole',
      'white_hole',
    ]);
    expect(of('1_sections').map((row) => row.page)).toEqual(['default_page', 'developer_index']);
    expect(of('1_pages').map((row) => row.name)).toEqual([
      'developer_index',
      ...GENESIS_PAGES.map((page) => page.name),
    ]);
    expect(GENESIS_PAGES.map((page) => page.name).slice(0, 3)).toEqual([
      'default_page',
      'notifications',
      'system_keys',
    ]);
    const platform = new Map(of('1_platform_parameters').map((row) => [row.name, row.value]));
    expect(JSON.parse(String(platform.get('honor_nodes')))).toEqual([
      {
        tcp_address: '127.0.0.1:7078',
        api_address: 'http://127.0.0.1:7079',
        public_key: publicKeyHex04(keys.node.publicKey),
        unban_time: '0',
        stopped: false,
      },
    ]);
    expect(platform.get('taxes_wallet')).toBe(JSON.stringify([['1', keys.founder.keyId.toString()]]));
    expect(platform.get('private_blockchain')).toBe('1');
    const ids = genesis.rows.filter((row) => row.table === '1_tables').map((row) => row.values.id);
    expect(ids).toEqual(ids.map((_, index) => BigInt(index + 1)));
  });
});
