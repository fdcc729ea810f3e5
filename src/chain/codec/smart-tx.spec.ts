import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { bytesOfHex, hexOf } from './bytes';
import { CodecError } from './errors';
import { MsgInt, MsgValue, encode, mp } from './gomsgpack';
import {
  SmartTransaction,
  decodeSmartTransactionPayload,
  encodeSmartTransactionPayload,
  smartTxType,
  txHash,
} from './smart-tx';

// formats.md §8: the SDK-built payload, checked against vmihailenco/msgpack v5.3.5.
const GOLDEN_PAYLOAD_HEX =
  '8ea24944ce0000139cab45636f73797374656d4944d30000000000000001a54b65794944d33746af1dbeb33924a454696d65d3' +
  '000000006553f100a94e6574776f726b4944d30000000000000001a95075626c69634b6579c4403edc2c323ef5b97356c7407f' +
  '744f19b74c9f878d8c96621f7b9b058633ee02f54014e34d757894555f35feaf30fff126542937d31fcf1c83cbea021b3d59c5' +
  '04a64d617853756da0a75061794f766572a0a44c616e67a0a84578706564697465a0a85369676e65644279d300000000000000' +
  '00ac5472616e7366657253656c66c0a45554584fc0a6506172616d7381a6416d6f756e74ad31303030303030303030303030';
const GOLDEN_TX_HASH = 'e801dc3d413674d131b944ccde9dd79b8c2e1bf98a6829fa63213a45175f0fd1';
const EXAMPLE_PUBLIC_KEY =
  '3edc2c323ef5b97356c7407f744f19b74c9f878d8c96621f7b9b058633ee02f54014e34d757894555f35feaf30fff126542937d31fcf1c83cbea021b3d59c504';

function goldenTransaction(): SmartTransaction {
  return {
    id: 5020,
    ecosystemId: 1n,
    keyId: 3983063462744111396n,
    time: 1700000000n,
    networkId: 1n,
    publicKey: bytesOfHex(EXAMPLE_PUBLIC_KEY),
    maxSum: '',
    payOver: '',
    lang: '',
    expedite: '',
    signedBy: 0n,
    transferSelf: null,
    utxo: null,
    params: mp.map([['Amount', mp.str('1000000000000')]]),
  };
}

describe('SmartTransaction payload', () => {
  it('encodes the formats.md §8 payload byte for byte', () => {
    const payload = encodeSmartTransactionPayload(goldenTransaction());
    expect(payload.length).toBe(254);
    expect(hexOf(payload)).toBe(GOLDEN_PAYLOAD_HEX);
  });

  it('hashes it to the §8 tx hash with Keccak-256', () => {
    expect(hexOf(txHash(bytesOfHex(GOLDEN_PAYLOAD_HEX), keccak_256))).toBe(GOLDEN_TX_HASH);
  });

  it('decodes the §8 payload back into the same transaction', () => {
    const decoded = decodeSmartTransactionPayload(bytesOfHex(GOLDEN_PAYLOAD_HEX));
    expect(decoded).toEqual(goldenTransaction());
    expect(smartTxType(decoded)).toBe(3);
    expect(hexOf(encodeSmartTransactionPayload(decoded))).toBe(GOLDEN_PAYLOAD_HEX);
  });

  it('round-trips UTXO and TransferSelf transactions and derives their type', () => {
    const utxo: SmartTransaction = {
      ...goldenTransaction(),
      utxo: { toId: -110277540701013350n, value: '5000', comment: 'hi' },
      params: new Map(),
    };
    expect(decodeSmartTransactionPayload(encodeSmartTransactionPayload(utxo))).toEqual(utxo);
    expect(smartTxType(utxo)).toBe(5);
    const self: SmartTransaction = {
      ...utxo,
      transferSelf: { value: '7', source: 'UTXO', target: 'Account' },
    };
    expect(decodeSmartTransactionPayload(encodeSmartTransactionPayload(self))).toEqual(self);
    expect(smartTxType(self)).toBe(6);
  });

  it('writes an empty public key as nil and reads nil back as empty', () => {
    const tx = { ...goldenTransaction(), publicKey: new Uint8Array(0) };
    const payload = encodeSmartTransactionPayload(tx);
    expect(hexOf(payload)).toContain('a95075626c69634b6579c0');
    expect(decodeSmartTransactionPayload(payload).publicKey).toEqual(new Uint8Array(0));
  });

  it('keeps each param value with its wire type', () => {
    const params = mp.map([
      ['Recipient', mp.int64(-5)],
      ['Count', mp.int(3)],
      ['Ratio', mp.float64(0.5)],
      ['Data', mp.bin(Uint8Array.of(1, 2))],
      ['Flags', mp.array([true, false])],
    ]);
    const decoded = decodeSmartTransactionPayload(
      encodeSmartTransactionPayload({ ...goldenTransaction(), params }),
    );
    expect(decoded.params).toEqual(params);
    expect((decoded.params.get('Recipient') as MsgInt).wire).toBe('int64');
    expect((decoded.params.get('Count') as MsgInt).wire).toBe('fixint');
  });
});

describe('SmartTransaction decoder leniency', () => {
  it('accepts a nested Header with compact ints and a 65-byte 04-prefixed key (Weaver style)', () => {
    const payload = encode(
      mp.map([
        [
          'Header',
          mp.map([
            ['ID', mp.int(5123)],
            ['Time', mp.uint32(1700000000)],
            ['EcosystemID', mp.int(1)],
            ['KeyID', mp.int64(-8704011958613640643n)],
            ['NetworkID', mp.int(1)],
            ['PublicKey', mp.bin(bytesOfHex('04' + EXAMPLE_PUBLIC_KEY))],
            ['MaxSum', mp.str('ignored inside Header')],
          ]),
        ],
        ['Params', mp.map([['Name', 'hello']])],
        ['Lang', 'en'],
        ['SomethingNew', mp.array([1n, 2n].map(mp.int))],
      ]),
    );
    const tx = decodeSmartTransactionPayload(payload);
    expect(tx.id).toBe(5123);
    expect(tx.time).toBe(1700000000n);
    expect(tx.ecosystemId).toBe(1n);
    expect(tx.keyId).toBe(-8704011958613640643n);
    expect(tx.networkId).toBe(1n);
    expect(hexOf(tx.publicKey)).toBe(EXAMPLE_PUBLIC_KEY);
    expect(tx.maxSum).toBe('');
    expect(tx.lang).toBe('en');
    expect(tx.params).toEqual(new Map([['Name', 'hello']]));
    expect(smartTxType(tx)).toBe(3);
  });

  it('reads missing and nil fields as Go zero values', () => {
    const tx = decodeSmartTransactionPayload(
      encode(
        mp.map([
          ['KeyID', null],
          ['Params', null],
          ['UTXO', null],
        ]),
      ),
    );
    expect(tx.keyId).toBe(0n);
    expect(tx.params.size).toBe(0);
    expect(tx.utxo).toBeNull();
  });

  it('wraps a uint64 KeyID into the int64 range, as Go converts it', () => {
    const tx = decodeSmartTransactionPayload(encode(mp.map([['KeyID', mp.uint64(18336466533008538266n)]])));
    expect(tx.keyId).toBe(-110277540701013350n);
  });

  it('lets a later key win when both flattened and nested header keys are present', () => {
    const tx = decodeSmartTransactionPayload(
      encode(
        mp.map([
          ['KeyID', mp.int64(1)],
          ['Header', mp.map([['KeyID', mp.int64(2)]])],
        ]),
      ),
    );
    expect(tx.keyId).toBe(2n);
  });
});

describe('SmartTransaction decoder errors', () => {
  const decodeMap = (entries: Array<readonly [string, MsgValue]>) =>
    decodeSmartTransactionPayload(encode(mp.map(entries)));

  it('rejects a payload that is not a map', () => {
    expect(() => decodeSmartTransactionPayload(encode(mp.array([])))).toThrow(
      'SmartTransaction: expected a msgpack map, got array',
    );
    expect(() => decodeSmartTransactionPayload(new Uint8Array(0))).toThrow(/empty payload/);
    expect(() => decodeSmartTransactionPayload(bytesOfHex('8ea249'))).toThrow(CodecError);
  });

  it('names the field when a nested Header has wrong types', () => {
    expect(() => decodeMap([['Header', 'x']])).toThrow('SmartTransaction.Header: expected a map, got str');
    expect(() => decodeMap([['Header', mp.map([['KeyID', 'abc']])]])).toThrow(
      'SmartTransaction.Header.KeyID: expected an integer, got str',
    );
    expect(() => decodeMap([['Header', mp.map([['PublicKey', mp.int(4)]])]])).toThrow(
      'SmartTransaction.Header.PublicKey: expected bytes (bin), got int (fixint)',
    );
    expect(() => decodeMap([['Header', mp.map([['ID', mp.int(-1)]])]])).toThrow(
      'SmartTransaction.Header.ID: -1 is out of range',
    );
  });

  it('names the field for other wrong types', () => {
    expect(() => decodeMap([['Lang', mp.int(1)]])).toThrow('SmartTransaction.Lang: expected a string');
    expect(() => decodeMap([['Params', mp.array([])]])).toThrow('SmartTransaction.Params: expected a map');
    expect(() => decodeMap([['UTXO', mp.map([['ToID', 'x']])]])).toThrow(
      'SmartTransaction.UTXO.ToID: expected an integer, got str',
    );
    expect(() => decodeMap([['TransferSelf', mp.map([['Value', mp.int(1)]])]])).toThrow(
      'SmartTransaction.TransferSelf.Value: expected a string',
    );
  });
});
