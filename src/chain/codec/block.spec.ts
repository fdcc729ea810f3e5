import { keccak_256 } from '@noble/hashes/sha3.js';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  buildBlock,
  blockHash,
  compressTx,
  compressTxLater,
  decompressTx,
  forSha,
  forSign,
  merkleRoot,
  parseBlock,
  verifyBlockHashes,
} from './block';
import {
  BlockData,
  BlockHeader,
  blockHeader,
  decodeBlockData,
  decodeBlockHeader,
  encodeBlockData,
  encodeBlockHeader,
} from './block-proto';
import { asciiBytes, bytesOfHex, hexOf } from './bytes';
import { CodecError } from './errors';

const hexDoubleHash = (data: Uint8Array): string => hexOf(keccak_256(keccak_256(data)));
const hexDH = (text: string): string => hexDoubleHash(asciiBytes(text));

describe('Keccak genesis constants (formats.md §8)', () => {
  it('match Hash("0"), DoubleHash("0") and Hash("[]")', () => {
    expect(hexOf(keccak_256(asciiBytes('0')))).toBe(
      '044852b2a670ade5407e78fb2863c51de9fcb96542a07186fe3aeda6bb8a116d',
    );
    expect(hexDH('0')).toBe('40105d5bc10105c17fd72b93a8f73369e2ee6eee4d4714b7bf7bf3c2f156e601');
    expect(hexOf(keccak_256(asciiBytes('[]')))).toBe(
      '518674ab2b227e5f11e9084f615d57663cde47bce1ba168b4c19c7ee22a73d70',
    );
  });
});

describe('merkle root', () => {
  const txs = ['tx-a', 'tx-b', 'tx-c'].map((text) => asciiBytes(text));
  const leaf = (tx: Uint8Array): string => hexDH(hexDoubleHash(tx)); // T0 = hex(DH(L0)), L0 = hex(DH(tx))

  it('of an empty block is hex(DoubleHash("0"))', () => {
    expect(merkleRoot([], keccak_256)).toBe(
      '40105d5bc10105c17fd72b93a8f73369e2ee6eee4d4714b7bf7bf3c2f156e601',
    );
  });

  it('of one tx is its level-0 node', () => {
    expect(merkleRoot(txs.slice(0, 1), keccak_256)).toBe(leaf(txs[0]));
  });

  it('of two txs hashes the concatenated hex texts', () => {
    expect(merkleRoot(txs.slice(0, 2), keccak_256)).toBe(hexDH(leaf(txs[0]) + leaf(txs[1])));
  });

  it('of three txs promotes the odd last node unchanged', () => {
    const pair = hexDH(leaf(txs[0]) + leaf(txs[1]));
    expect(merkleRoot(txs, keccak_256)).toBe(hexDH(pair + leaf(txs[2])));
  });

  it('of five txs promotes across two levels', () => {
    const five = [...txs, asciiBytes('tx-d'), asciiBytes('tx-e')];
    const [a, b, c, d, e] = five.map(leaf);
    expect(merkleRoot(five, keccak_256)).toBe(hexDH(hexDH(hexDH(a + b) + hexDH(c + d)) + e));
  });
});

describe('ForSha / ForSign text', () => {
  const header = blockHeader({
    blockId: 42n,
    timestamp: 1700000000n,
    ecosystemId: 0n,
    keyId: -110277540701013350n,
    nodePosition: 3n,
    version: 3,
    consensusMode: 1,
    networkId: 1n,
  });
  const prev = {
    blockId: 41n,
    blockHash: new Uint8Array(32).fill(0x11),
    rollbacksHash: new Uint8Array(32).fill(0xab),
  };
  const root = 'cd'.repeat(32);
  const prevHash = '11'.repeat(32);
  const prevRollbacks = 'ab'.repeat(32);

  it('orders ForSha as id, prev hash, root, time, ecosystem, key, position, network, prev rollbacks', () => {
    expect(forSha(header, prev, root)).toBe(
      `42,${prevHash},${root},1700000000,0,-110277540701013350,3,1,${prevRollbacks}`,
    );
  });

  it('orders ForSign as 0, id, prev hash, time, ecosystem, key, position, root, network, prev rollbacks', () => {
    expect(forSign(header, prev, root)).toBe(
      `0,42,${prevHash},1700000000,0,-110277540701013350,3,${root},1,${prevRollbacks}`,
    );
  });

  it('leaves the rollbacks hash out before version 2', () => {
    const v1 = { ...header, version: 1 };
    expect(forSha(v1, prev, root)).toBe(`42,${prevHash},${root},1700000000,0,-110277540701013350,3,1`);
    expect(forSign(v1, prev, root)).toBe(`0,42,${prevHash},1700000000,0,-110277540701013350,3,${root},1`);
  });

  it('hashes ForSha twice for the block hash', () => {
    expect(hexOf(blockHash(header, prev, root, keccak_256))).toBe(hexDH(forSha(header, prev, root)));
  });
});

describe('block protobuf', () => {
  const fullHeader: BlockHeader = {
    blockId: 9_007_199_254_740_993n,
    timestamp: 1700000000n,
    ecosystemId: 0n,
    keyId: -110277540701013350n,
    nodePosition: 2n,
    sign: Uint8Array.of(1, 2, 3),
    blockHash: new Uint8Array(32).fill(7),
    rollbacksHash: new Uint8Array(32).fill(8),
    version: 3,
    consensusMode: 1,
    candidateNodes: new Uint8Array(0),
    networkId: 1n,
  };

  it('writes int64 as varints, zero fields omitted, as proto3 does', () => {
    expect(hexOf(encodeBlockHeader(blockHeader({ blockId: 1n, keyId: -1n })))).toBe(
      '080120ffffffffffffffffff01',
    );
    expect(hexOf(encodeBlockHeader(blockHeader({ version: 3, networkId: 1n })))).toBe('48036001');
    expect(encodeBlockHeader(blockHeader()).length).toBe(0);
  });

  it('round-trips int64 values beyond 2^53 without loss', () => {
    for (const keyId of [-110277540701013350n, 6667782293976713160n, -(2n ** 63n), 2n ** 63n - 1n]) {
      const header = { ...fullHeader, keyId };
      expect(decodeBlockHeader(encodeBlockHeader(header))).toEqual(header);
    }
  });

  it('round-trips a full BlockData with after-txs', () => {
    const block: BlockData = {
      header: fullHeader,
      prevHeader: blockHeader({ blockId: 1n, blockHash: Uint8Array.of(9) }),
      merkleRoot: asciiBytes('ab'.repeat(32)),
      binData: new Uint8Array(0),
      txFullData: [Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2, 3)],
      afterTxs: {
        txs: [
          {
            usedTx: Uint8Array.of(5),
            lts: {
              hash: Uint8Array.of(5),
              block: 2n,
              timestamp: 1700000000123n,
              address: 6667782293976713160n,
              ecosystemId: 1n,
              contractName: '@1NewContract',
              invokeStatus: 1,
            },
            updTxStatus: {
              hash: Uint8Array.of(5),
              blockId: 2n,
              code: 2,
              result: 'ok',
              error: '',
            },
          },
          { usedTx: Uint8Array.of(6), lts: null, updTxStatus: null },
        ],
        rts: [
          {
            id: 1n,
            blockId: 2n,
            txHash: Uint8Array.of(5),
            nameTable: '1_keys',
            tableId: '-110277540701013350,1',
            data: '{"amount":"1"}',
            dataHash: Uint8Array.of(4),
          },
        ],
      },
      sysUpdate: true,
    };
    expect(decodeBlockData(encodeBlockData(block))).toEqual(block);
  });

  it('rejects values protobuf cannot carry, and garbage bytes', () => {
    expect(() => encodeBlockHeader({ ...fullHeader, keyId: 2n ** 63n })).toThrow(
      /BlockHeader.keyId: expected an int64/,
    );
    expect(() => encodeBlockHeader({ ...fullHeader, version: 1.5 })).toThrow(
      /BlockHeader.version: expected an int32/,
    );
    expect(() => decodeBlockData(bytesOfHex('0aff'))).toThrow(CodecError);
    expect(() => decodeBlockData(bytesOfHex('0f'))).toThrow(/malformed BlockData protobuf/);
  });
});

describe('buildBlock / parseBlock', () => {
  const genesisPrev = {
    blockId: 0n,
    blockHash: keccak_256(keccak_256(asciiBytes('0'))),
    rollbacksHash: keccak_256(asciiBytes('0')),
  };
  const header = {
    blockId: 1n,
    timestamp: 1700000000n,
    ecosystemId: 0n,
    keyId: 6667782293976713160n,
    nodePosition: 0n,
    version: 3,
    consensusMode: 1,
    candidateNodes: new Uint8Array(0),
    networkId: 1n,
  };
  const txs = [asciiBytes('first tx'.repeat(20)), Uint8Array.of(3, 1, 2, 3), Uint8Array.of(1)];
  const signed: Uint8Array[] = [];
  const sign = (message: Uint8Array): Uint8Array => {
    signed.push(message);
    return new Uint8Array(64).fill(0x5a);
  };

  const build = () =>
    buildBlock({
      header,
      prevHeader: genesisPrev,
      txs,
      rollbacksHash: keccak_256(asciiBytes('[]')),
      hash: keccak_256,
      sign,
    });

  it('compresses txs, computes root, hash and signature, and parses back', () => {
    const built = build();
    expect(built.compressedTxs).toEqual(txs.map(compressTx));
    expect(built.compressedTxs.map((bytes) => new Uint8Array(inflateSync(bytes)))).toEqual(txs);
    expect(built.merkleRoot).toBe(merkleRoot(built.compressedTxs, keccak_256));
    expect(built.header.rollbacksHash).toEqual(keccak_256(asciiBytes('[]')));
    expect(built.blockHash).toEqual(blockHash(built.header, genesisPrev, built.merkleRoot, keccak_256));
    expect(Buffer.from(signed[signed.length - 1]).toString('latin1')).toBe(
      forSign(built.header, genesisPrev, built.merkleRoot),
    );
    expect(forSign(built.header, genesisPrev, built.merkleRoot)).toBe(
      `0,1,40105d5bc10105c17fd72b93a8f73369e2ee6eee4d4714b7bf7bf3c2f156e601,1700000000,0,6667782293976713160,0,` +
        `${built.merkleRoot},1,044852b2a670ade5407e78fb2863c51de9fcb96542a07186fe3aeda6bb8a116d`,
    );

    const parsed = parseBlock(built.bytes);
    expect(parsed.header).toEqual(built.header);
    expect(parsed.header.sign).toEqual(built.signature);
    expect(parsed.prevHeader).toEqual(blockHeader(genesisPrev));
    expect(parsed.merkleRoot).toBe(built.merkleRoot);
    expect(parsed.txs).toEqual(txs);
    expect(parsed.data.afterTxs).toBeNull();
    verifyBlockHashes(parsed, keccak_256);
  });

  it('is deterministic', () => {
    expect(build().bytes).toEqual(build().bytes);
  });

  it('detects a tampered merkle root or header', () => {
    const parsed = parseBlock(build().bytes);
    expect(() =>
      verifyBlockHashes({ ...parsed, compressedTxs: parsed.compressedTxs.slice(1) }, keccak_256),
    ).toThrow(/merkle root/);
    expect(() =>
      verifyBlockHashes({ ...parsed, header: { ...parsed.header, timestamp: 1n } }, keccak_256),
    ).toThrow(/block hash/);
  });

  it('refuses blocks without headers, corrupt zlib data and oversized txs', () => {
    const empty: BlockData = {
      header: null,
      prevHeader: null,
      merkleRoot: new Uint8Array(0),
      binData: new Uint8Array(0),
      txFullData: [],
      afterTxs: null,
      sysUpdate: false,
    };
    expect(() => parseBlock(encodeBlockData(empty))).toThrow('block has no header');
    expect(() => parseBlock(encodeBlockData({ ...empty, header: blockHeader() }))).toThrow(
      'block has no previous header',
    );
    const withTxs = (txFullData: Uint8Array[]) =>
      encodeBlockData({ ...empty, header: blockHeader(), prevHeader: blockHeader(), txFullData });
    expect(() => parseBlock(withTxs([Uint8Array.of(1, 2, 3)]))).toThrow(/cannot decompress/);
    const bomb = compressTx(new Uint8Array(1_000_000));
    expect(() => parseBlock(withTxs([bomb]), { maxTxSize: 1000 })).toThrow(CodecError);
    expect(parseBlock(withTxs([bomb])).txs[0].length).toBe(1_000_000);
  });

  it('fails every truncation and random corruption with CodecError only', () => {
    const bytes = build().bytes;
    const attempt = (sample: Uint8Array): void => {
      try {
        verifyBlockHashes(parseBlock(sample, { maxTxSize: 10_000 }), keccak_256);
      } catch (error) {
        if (!(error instanceof CodecError)) throw new Error(`${String(error)} for ${hexOf(sample)}`);
      }
    };
    for (let length = 0; length < bytes.length; length++) attempt(bytes.subarray(0, length));
    let state = 7;
    const random = (): number => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
    for (let round = 0; round < 600; round++) {
      const sample = Uint8Array.from(bytes);
      sample[Math.floor(random() * sample.length)] = Math.floor(random() * 256);
      attempt(sample);
    }
  });
});

describe('compressTx and compressTxLater', () => {
  it('compresses on another thread to the very bytes compressTx gives, views into larger buffers too', async () => {
    const txs = [
      new Uint8Array(0),
      new Uint8Array(300).fill(7),
      Uint8Array.from({ length: 5000 }, (_, i) => i % 251),
      ...Array.from({ length: 600 }, (_, i) => Uint8Array.from({ length: 40 + i }, (_, j) => (i * j) % 256)),
    ];
    const pooled = Buffer.from('a view into a larger buffer, as Node pools small ones'.repeat(3));
    txs.push(pooled.subarray(2, 60));
    const later = await Promise.all(txs.map(compressTxLater));
    expect(later.map((tx) => Buffer.from(tx).toString('hex'))).toEqual(
      txs.map((tx) => Buffer.from(compressTx(tx)).toString('hex')),
    );
  });

  it('sizes the window to the transaction, and any inflater reads it back', () => {
    for (const length of [0, 1, 200, 511, 512, 4000, 40_000, 200_000]) {
      const tx = Uint8Array.from({ length }, (_, i) => (i * 7 + (i >> 5)) % 256);
      const compressed = compressTx(tx);
      // The zlib header's CINFO: log2(window) - 8, at most 7 (32 kB).
      const windowBits = (compressed[0] >> 4) + 8;
      expect(windowBits).toBe(Math.min(15, Math.max(9, Math.ceil(Math.log2(length + 1)))));
      expect(inflateSync(compressed)).toEqual(Buffer.from(tx));
      expect(decompressTx(compressed, 1_000_000)).toEqual(tx);
    }
  });
});
