import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { bytesOfHex, concatBytes, hexOf } from './bytes';
import {
  convertClientEnvelope,
  decodeClientEnvelope,
  decodeSmartContractEnvelope,
  encodeClientEnvelope,
  encodeSmartContractEnvelope,
} from './envelope';
import { CodecError } from './errors';
import { encode, mp } from './gomsgpack';
import { decodeSmartTransactionPayload, txHash } from './smart-tx';
import { transactionTypeOf } from './tx-type';

// formats.md §8.
const GOLDEN_PAYLOAD_HEX =
  '8ea24944ce0000139cab45636f73797374656d4944d30000000000000001a54b65794944d33746af1dbeb33924a454696d65d3' +
  '000000006553f100a94e6574776f726b4944d30000000000000001a95075626c69634b6579c4403edc2c323ef5b97356c7407f' +
  '744f19b74c9f878d8c96621f7b9b058633ee02f54014e34d757894555f35feaf30fff126542937d31fcf1c83cbea021b3d59c5' +
  '04a64d617853756da0a75061794f766572a0a44c616e67a0a84578706564697465a0a85369676e65644279d300000000000000' +
  '00ac5472616e7366657253656c66c0a45554584fc0a6506172616d7381a6416d6f756e74ad31303030303030303030303030';
const GOLDEN_TX_HASH = 'e801dc3d413674d131b944ccde9dd79b8c2e1bf98a6829fa63213a45175f0fd1';
const GOLDEN_SIGNATURE =
  '65381a939f4397d31b12ea0bc1be06c776b65b23b5f48170876879a73778c86479dbdb3e3aac9f593be19e5eaccaef6a61d16d8e8f5967c3181185037fa1896f';
const GOLDEN_TIMESTAMP_MS = 1700000000123n;

/**
 * The SDK's 929-byte type-3 tx of formats.md §8, rebuilt from the parts it lists: the 26 keys of the
 * Go SmartContract struct in SDK order, zero values in their Go widths.
 */
function sdkGoldenTransaction(): Uint8Array {
  const payload = bytesOfHex(GOLDEN_PAYLOAD_HEX);
  const zeroDecimal = bytesOfHex('00000000');
  const body = mp.map([
    ['CLB', false],
    ['Rollback', false],
    ['FullAccess', false],
    ['SysUpdate', false],
    ['TxSmart', mp.raw(payload)],
    ['TxData', null],
    ['TxFuel', mp.int64(0)],
    ['TxCost', mp.int64(0)],
    ['TxUsedCost', mp.bin(zeroDecimal)],
    ['TXBlockFuel', mp.bin(zeroDecimal)],
    ['Loop', null],
    ['Hash', mp.bin(bytesOfHex(GOLDEN_TX_HASH))],
    ['Payload', mp.bin(payload)],
    ['Timestamp', mp.int64(GOLDEN_TIMESTAMP_MS)],
    ['TxSignature', mp.bin(bytesOfHex('40' + GOLDEN_SIGNATURE))],
    ['TxSize', mp.int64(0)],
    ['Size', mp.float64(0)],
    ['PublicKeys', null],
    ['Rand', null],
    ['Notifications', null],
    ['GenBlock', false],
    ['TimeLimit', mp.int64(0)],
    ['Penalty', false],
    ['TokenEcosystems', null],
    ['PrevSysPar', null],
    ['ComPercents', null],
  ]);
  return concatBytes(Uint8Array.of(3), encode(body));
}

describe('type 3/5/6 envelope', () => {
  it('rebuilds the SDK golden tx with the length and fragments formats.md §8 gives', () => {
    const tx = sdkGoldenTransaction();
    const hex = hexOf(tx);
    expect(tx.length).toBe(929);
    expect(hex.startsWith('03de001a')).toBe(true);
    for (const fragment of [
      'a3434c42c2',
      'c40400000000',
      'c420e801dc3d',
      'c4fe8ea2',
      'd30000018bcfe5687b',
      'c441406538',
      'a453697a65cb0000000000000000',
    ]) {
      expect(hex).toContain(fragment);
    }
  });

  it('decodes the SDK golden tx, skipping the keys it does not need', () => {
    const envelope = decodeSmartContractEnvelope(sdkGoldenTransaction());
    expect(envelope.type).toBe(3);
    expect(hexOf(envelope.payload)).toBe(GOLDEN_PAYLOAD_HEX);
    expect(hexOf(envelope.hash)).toBe(GOLDEN_TX_HASH);
    expect(envelope.timestamp).toBe(GOLDEN_TIMESTAMP_MS);
    expect(hexOf(envelope.signature)).toBe(GOLDEN_SIGNATURE);
    expect(envelope.txSmart).toEqual(decodeSmartTransactionPayload(envelope.payload));
    expect(envelope.txSmart?.keyId).toBe(3983063462744111396n);
    expect(hexOf(txHash(envelope.payload, keccak_256))).toBe(hexOf(envelope.hash));
  });

  it('round-trips what it emits, with TxSmart equal to the payload', () => {
    const payload = bytesOfHex(GOLDEN_PAYLOAD_HEX);
    const bytes = encodeSmartContractEnvelope({
      payload,
      hash: bytesOfHex(GOLDEN_TX_HASH),
      timestamp: GOLDEN_TIMESTAMP_MS,
      signature: bytesOfHex(GOLDEN_SIGNATURE),
    });
    expect(bytes[0]).toBe(3);
    expect(hexOf(bytes.subarray(0, 2))).toBe('0385');
    const envelope = decodeSmartContractEnvelope(bytes);
    expect(envelope).toEqual(decodeSmartContractEnvelope(sdkGoldenTransaction()));
  });

  it('takes the type from the payload content when not given', () => {
    const payload = encode(mp.map([['UTXO', mp.map([['ToID', mp.int64(5)]])]]));
    const bytes = encodeSmartContractEnvelope({
      payload,
      hash: new Uint8Array(32),
      timestamp: 1n,
      signature: new Uint8Array(64),
    });
    expect(bytes[0]).toBe(5);
    expect(decodeSmartContractEnvelope(bytes).type).toBe(5);
  });

  it('rejects malformed envelopes with CodecError', () => {
    const golden = sdkGoldenTransaction();
    expect(() => decodeSmartContractEnvelope(new Uint8Array(0))).toThrow('empty transaction');
    expect(() => decodeSmartContractEnvelope(Uint8Array.of(4, ...golden.subarray(1)))).toThrow(
      'transaction type 4 is not a smart-contract envelope (3, 5 or 6)',
    );
    expect(() => decodeSmartContractEnvelope(golden.subarray(0, 500))).toThrow(/truncated/);
    expect(() => decodeSmartContractEnvelope(Uint8Array.of(3, ...encode(mp.array([]))))).toThrow(
      'type-3 transaction: expected a msgpack map, got array',
    );
    const withoutPayload = encode(mp.map([['Hash', new Uint8Array(32)]]));
    expect(() => decodeSmartContractEnvelope(Uint8Array.of(3, ...withoutPayload))).toThrow(
      'type-3 transaction: missing Payload',
    );
    const badSignature = (signature: Uint8Array) =>
      Uint8Array.of(
        6,
        ...encode(
          mp.map([
            ['Payload', bytesOfHex(GOLDEN_PAYLOAD_HEX)],
            ['Hash', new Uint8Array(32)],
            ['Timestamp', mp.int64(1)],
            ['TxSignature', signature],
          ]),
        ),
      );
    expect(() => decodeSmartContractEnvelope(badSignature(bytesOfHex('4001')))).toThrow(
      /TxSignature truncated: prefix announces 64 bytes, 1 left/,
    );
    expect(() => decodeSmartContractEnvelope(badSignature(bytesOfHex('80')))).toThrow(
      /TxSignature: bad length prefix/,
    );
    expect(() => decodeSmartContractEnvelope(badSignature(bytesOfHex('01aabb')))).toThrow(
      /1 bytes after the signature/,
    );
    expect(() => decodeSmartContractEnvelope(badSignature(bytesOfHex('00')))).toThrow(/empty signature/);
  });
});

describe('0x80 client envelope', () => {
  it('builds the formats.md §8 form 80 81fe <payload> 40 <sig64> and reads it back', () => {
    const payload = bytesOfHex(GOLDEN_PAYLOAD_HEX);
    const signature = bytesOfHex(GOLDEN_SIGNATURE);
    const bytes = encodeClientEnvelope(payload, signature);
    expect(hexOf(bytes)).toBe('8081fe' + GOLDEN_PAYLOAD_HEX + '40' + GOLDEN_SIGNATURE);
    expect(decodeClientEnvelope(bytes)).toEqual({ payload, signature });
    expect(transactionTypeOf(bytes)).toBe(0x80);
  });

  it('reads the Weaver P-256 transaction of clients.md §5.1 (DER signature, SHA-256)', () => {
    const body =
      '83a648656164657286a24944cd1403a454696d65ce6b0259bfab45636f73797374656d494401a54b65794944d3eba8353956' +
      '7f3267a94e6574776f726b494401a95075626c69634b6579c44104ea0cdb0f9b2a8d7fa7403fe302c3f4686e0e52ef3d5d47' +
      '3df3d2c477c53bf9d76efc67d93b2b1d7042df219edda66c6c04d51e089e026bbf69e40ecedf1dd556a6506172616d7381a4' +
      '4e616d65a568656c6c6fa44c616e67a2656e';
    const der =
      '304502205dfc290d1dc6e8b4f1d726f68150a034383b58974aaf21d65616efd3b2a41d3d022100c01c71ee03fc9f54106130383a5e6f68731ea7e7a8afe1cdc5624b93f77ae587';
    const wire = bytesOfHex('8081a8' + body + '47' + der);
    expect(wire.length).toBe(243);

    const { payload, signature } = decodeClientEnvelope(wire);
    expect(hexOf(payload)).toBe(body);
    expect(hexOf(signature)).toBe(der);
    expect(hexOf(txHash(payload, sha256))).toBe(
      'dc1258ad881b651fd38950525b3593e3110a19fd0882f744d0ce2d5f0abc1e79',
    );

    const tx = decodeSmartTransactionPayload(payload);
    expect(tx.id).toBe(5123);
    expect(tx.time).toBe(1795316159n);
    expect(tx.ecosystemId).toBe(1n);
    expect(tx.networkId).toBe(1n);
    expect(tx.keyId).toBe(-1465863158328511897n);
    expect(hexOf(tx.publicKey)).toBe(
      'ea0cdb0f9b2a8d7fa7403fe302c3f4686e0e52ef3d5d473df3d2c477c53bf9d76efc67d93b2b1d7042df219edda66c6c04d51e089e026bbf69e40ecedf1dd556',
    );
    expect(tx.params).toEqual(new Map([['Name', 'hello']]));
    expect(tx.lang).toBe('en');
    expect(encodeClientEnvelope(payload, signature)).toEqual(wire);
  });

  it('reads the secp256k1 transaction of clients.md §5.2 (r‖s signature, Keccak)', () => {
    const body =
      '83a648656164657286a24944cd1403a454696d65ce6553f100ab45636f73797374656d494401a54b65794944d38735233d4e' +
      '14fa3da94e6574776f726b494401a95075626c69634b6579c44104e31491d7b402a88888d30e6103d8b93e5422884c26fd21' +
      '1b6e0c3df52c597190c0778a9f52e43b54f2f6151d670ab065439da2afde56c63718408500e25dfda7a6506172616d7381a4' +
      '4e616d65a568656c6c6fa44c616e67a2656e';
    const rs =
      '8593f5e9f029c8fe16d56b5aec1d8bcb24cfd265dd84fa79bdb4fe0b6914ebf850e3744b7be5496dede7445379fe0bff62d1ad9bd8c7ee8b8a0be68fe3f2120f';
    const wire = bytesOfHex('8081a8' + body + '40' + rs);

    const { payload, signature } = decodeClientEnvelope(wire);
    expect(hexOf(payload)).toBe(body);
    expect(hexOf(signature)).toBe(rs);
    const hash = 'ead6f6164da2dd38ebcdee2e1973c7d769e39ebdc5461e4b70df643868de99b5';
    expect(hexOf(txHash(payload, keccak_256))).toBe(hash);

    const tx = decodeSmartTransactionPayload(payload);
    expect(tx.id).toBe(5123);
    expect(tx.time).toBe(1700000000n);
    expect(tx.keyId).toBe(-8704011958613640643n);
    expect(tx.publicKey.length).toBe(64);
    expect(tx.params).toEqual(new Map([['Name', 'hello']]));
    expect(tx.lang).toBe('en');

    // The node's conversion into the stored type-3 form keeps payload and signature intact.
    const converted = convertClientEnvelope({ payload, signature }, 1700000000500n, keccak_256);
    expect(hexOf(converted.hash)).toBe(hash);
    const stored = decodeSmartContractEnvelope(converted.envelope);
    expect(stored.type).toBe(3);
    expect(stored.payload).toEqual(payload);
    expect(stored.signature).toEqual(signature);
    expect(stored.timestamp).toBe(1700000000500n);
    expect(hexOf(stored.hash)).toBe(hash);
    expect(stored.txSmart).toEqual(tx);
  });

  it('rejects malformed client envelopes with CodecError', () => {
    const good = encodeClientEnvelope(bytesOfHex(GOLDEN_PAYLOAD_HEX), bytesOfHex(GOLDEN_SIGNATURE));
    expect(() => decodeClientEnvelope(new Uint8Array(0))).toThrow('empty transaction');
    expect(() => decodeClientEnvelope(Uint8Array.of(3, ...good.subarray(1)))).toThrow(
      'transaction type 3 is not a 0x80 client envelope',
    );
    expect(() => decodeClientEnvelope(good.subarray(0, 100))).toThrow(/payload truncated/);
    expect(() => decodeClientEnvelope(good.subarray(0, good.length - 1))).toThrow(/signature truncated/);
    expect(() => decodeClientEnvelope(Uint8Array.of(...good, 0))).toThrow(/1 bytes after the signature/);
    expect(() => decodeClientEnvelope(bytesOfHex('8080'))).toThrow(/payload: bad length prefix 0x80/);
    expect(() => decodeClientEnvelope(bytesOfHex('8000'))).toThrow(/empty payload/);
    expect(() => decodeClientEnvelope(bytesOfHex('8001c000'))).toThrow(/empty signature/);
  });
});

describe('hostile input', () => {
  /** Deterministic PRNG so a failure reproduces. */
  function prng(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state / 0x80000000;
    };
  }

  const decoders: Array<[string, (bytes: Uint8Array) => unknown]> = [
    ['smart envelope', decodeSmartContractEnvelope],
    ['client envelope', decodeClientEnvelope],
    ['payload', (bytes) => decodeSmartTransactionPayload(decodeClientEnvelope(bytes).payload)],
  ];

  function expectOnlyCodecErrors(bytes: Uint8Array): void {
    for (const [name, decodeFn] of decoders) {
      try {
        decodeFn(bytes);
      } catch (error) {
        if (!(error instanceof CodecError)) {
          throw new Error(`${name} threw ${String(error)} for ${hexOf(bytes)}`);
        }
      }
    }
  }

  it('fails every truncation of the golden transactions with CodecError only', () => {
    const samples = [
      sdkGoldenTransaction(),
      encodeClientEnvelope(bytesOfHex(GOLDEN_PAYLOAD_HEX), bytesOfHex(GOLDEN_SIGNATURE)),
    ];
    for (const sample of samples) {
      for (let length = 0; length < sample.length; length++)
        expectOnlyCodecErrors(sample.subarray(0, length));
    }
  });

  it('fails random byte corruptions with CodecError only', () => {
    const random = prng(42);
    const samples = [
      sdkGoldenTransaction(),
      encodeClientEnvelope(bytesOfHex(GOLDEN_PAYLOAD_HEX), bytesOfHex(GOLDEN_SIGNATURE)),
    ];
    for (let round = 0; round < 3000; round++) {
      const sample = Uint8Array.from(samples[round % samples.length]);
      const flips = 1 + Math.floor(random() * 4);
      for (let i = 0; i < flips; i++)
        sample[Math.floor(random() * sample.length)] = Math.floor(random() * 256);
      expectOnlyCodecErrors(sample);
    }
  });
});
