import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { bytesOfHex, concatBytes, hexOf } from './bytes';
import { CodecError } from './errors';
import {
  FirstBlockData,
  buildFirstBlockTransaction,
  decodeFirstBlockTransaction,
  encodeFirstBlockPayload,
} from './first-block';
import { MsgValue, decode, encode, mp } from './gomsgpack';

const founderKey = bytesOfHex(
  '3edc2c323ef5b97356c7407f744f19b74c9f878d8c96621f7b9b058633ee02f54014e34d757894555f35feaf30fff126542937d31fcf1c83cbea021b3d59c504',
);
const nodeKey = bytesOfHex(
  'e31491d7b402a88888d30e6103d8b93e5422884c26fd211b6e0c3df52c597190c0778a9f52e43b54f2f6151d670ab065439da2afde56c63718408500e25dfda7',
);

const data: FirstBlockData = {
  keyId: 3983063462744111396n,
  time: 1700000000n,
  publicKey: founderKey,
  nodePublicKey: nodeKey,
  stopNetworkCertBundle: new Uint8Array(0),
  test: false,
  privateBlockchain: true,
};

describe('FirstBlock transaction', () => {
  it('encodes Data with Go widths, in a fixed key order', () => {
    const payload = encodeFirstBlockPayload(data);
    expect(
      hexOf(payload).startsWith('87a54b65794944d33746af1dbeb33924a454696d65d3000000006553f100a9507562'),
    ).toBe(true);
    expect(
      hexOf(payload).endsWith(
        'a454657374d30000000000000000b150726976617465426c6f636b636861696ecf0000000000000001',
      ),
    ).toBe(true);
  });

  it('builds type byte 1 + body with TxHash = DoubleHash(Payload), deterministically', () => {
    const first = buildFirstBlockTransaction(data, 1700000000123n, keccak_256);
    const second = buildFirstBlockTransaction(data, 1700000000123n, keccak_256);
    expect(first.bytes).toEqual(second.bytes);
    expect(first.bytes[0]).toBe(1);
    expect(first.payload).toEqual(encodeFirstBlockPayload(data));
    expect(first.txHash).toEqual(keccak_256(keccak_256(first.payload)));
    const body = decode(first.bytes.subarray(1)) as Map<string, MsgValue>;
    expect([...body.keys()]).toEqual(['Logger', 'DbTransaction', 'Data', 'Timestamp', 'TxHash', 'Payload']);
    expect(body.get('Logger')).toBeNull();
  });

  it('round-trips through the decoder and checks the hash when asked', () => {
    const built = buildFirstBlockTransaction(data, 1700000000123n, keccak_256);
    const decoded = decodeFirstBlockTransaction(built.bytes, keccak_256);
    expect(decoded).toEqual(built);
    expect(() => decodeFirstBlockTransaction(built.bytes, sha256)).toThrow(
      'TxHash is not DoubleHash(Payload)',
    );
  });

  it('accepts bool flags and a missing Data copy', () => {
    const payload = encode(
      mp.map([
        ['KeyID', mp.int64(1)],
        ['Test', true],
        ['PrivateBlockchain', false],
      ]),
    );
    const bytes = concatBytes(Uint8Array.of(1), encode(mp.map([['Payload', payload]])));
    const decoded = decodeFirstBlockTransaction(bytes);
    expect(decoded.data.test).toBe(true);
    expect(decoded.data.privateBlockchain).toBe(false);
    expect(decoded.data.publicKey).toEqual(new Uint8Array(0));
  });

  it('rejects a Data copy that disagrees with Payload, wrong types and other tx types', () => {
    const built = buildFirstBlockTransaction(data, 1n, keccak_256);
    const tampered = concatBytes(
      Uint8Array.of(1),
      encode(
        mp.map([
          ['Data', mp.raw(encodeFirstBlockPayload({ ...data, keyId: 5n }))],
          ['Timestamp', mp.int64(1)],
          ['TxHash', built.txHash],
          ['Payload', built.payload],
        ]),
      ),
    );
    expect(() => decodeFirstBlockTransaction(tampered)).toThrow('Data differs from Payload');
    expect(() => decodeFirstBlockTransaction(Uint8Array.of(3, ...built.bytes.subarray(1)))).toThrow(
      'transaction type 3 is not a first-block transaction',
    );
    expect(() => decodeFirstBlockTransaction(built.bytes.subarray(0, 40))).toThrow(CodecError);
    const badPayload = concatBytes(
      Uint8Array.of(1),
      encode(mp.map([['Payload', encode(mp.map([['Time', 'x']]))]])),
    );
    expect(() => decodeFirstBlockTransaction(badPayload)).toThrow(
      'first-block transaction.Payload.Time: expected an integer, got str',
    );
  });

  it('fails every truncation with CodecError only', () => {
    const bytes = buildFirstBlockTransaction(data, 1n, keccak_256).bytes;
    for (let length = 0; length < bytes.length; length++) {
      expect(() => decodeFirstBlockTransaction(bytes.subarray(0, length), keccak_256)).toThrow(CodecError);
    }
  });
});
