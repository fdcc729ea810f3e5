import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { panic } from '../errors';
import { bytesCost } from '../memory';
import { goTypeName, utf8Bytes, utf8Size, utf8Text, type Value } from '../values';
import { reserveText } from './budget';
import type { BuiltinDef } from './registry';
import { expectString } from './strings';

/**
 * Encodings and chain addresses that need no node key or hasher. The address functions take a public key as
 * bytes (HexToPub's result) or as hex text: 64 bytes X‖Y, 65 bytes 04‖X‖Y, or 33 bytes compressed.
 */

const HEX = /^[0-9a-fA-F]*$/;

function bytesArg(value: Value, fn: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') {
    const hex = value.replace(/^0x/i, '');
    if (hex.length % 2 === 0 && HEX.test(hex)) return Uint8Array.from(Buffer.from(hex, 'hex'));
    throw panic(`${fn}: the public key is not hex`);
  }
  throw panic(`${fn}: parameter 1 must be bytes, got ${goTypeName(value)}`);
}

/** The key as a secp256k1 point; a P-256 key (or any other bytes) is refused. */
function secp256k1Point(value: Value, fn: string) {
  const bytes = bytesArg(value, fn);
  const encoded = bytes.length === 64 ? Uint8Array.from([4, ...bytes]) : bytes;
  try {
    return secp256k1.Point.fromBytes(encoded);
  } catch {
    throw panic(`${fn}: invalid secp256k1 public key`);
  }
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes: Uint8Array): string {
  let number = 0n;
  for (const byte of bytes) number = (number << 8n) | BigInt(byte);
  let out = '';
  while (number > 0n) {
    out = BASE58_ALPHABET[Number(number % 58n)] + out;
    number /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = '1' + out;
  }
  return out;
}

function base58Check(payload: Uint8Array): string {
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58(Uint8Array.from([...payload, ...checksum]));
}

const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_CONSTANT = 1;
const BECH32M_CONSTANT = 0x2bc830a3;

function bech32Polymod(values: number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) checksum ^= generators[i];
  }
  return checksum >>> 0;
}

/** A segwit address (BIP-173 bech32 for version 0, BIP-350 bech32m above). */
function segwitAddress(version: number, program: Uint8Array): string {
  const words = [version];
  let accumulator = 0;
  let bits = 0;
  for (const byte of program) {
    accumulator = (accumulator << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((accumulator >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((accumulator << (5 - bits)) & 31);
  const hrp = 'bc';
  const expanded = [
    ...[...hrp].map((c) => c.charCodeAt(0) >> 5),
    0,
    ...[...hrp].map((c) => c.charCodeAt(0) & 31),
  ];
  const constant = version === 0 ? BECH32_CONSTANT : BECH32M_CONSTANT;
  const polymod = bech32Polymod([...expanded, ...words, 0, 0, 0, 0, 0, 0]) ^ constant;
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (polymod >>> (5 * (5 - i))) & 31);
  return hrp + '1' + [...words, ...checksum].map((word) => BECH32_ALPHABET[word]).join('');
}

function hash160(bytes: Uint8Array): Uint8Array {
  return ripemd160(sha256(bytes));
}

/** 0x-prefixed hex with the EIP-55 mixed-case checksum. */
function checksumHex(address: Uint8Array): string {
  const hex = Buffer.from(address).toString('hex');
  const hash = Buffer.from(keccak_256(utf8Bytes(hex))).toString('hex');
  let out = '0x';
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i], 16) > 7 ? hex[i].toUpperCase() : hex[i];
  return out;
}

/** The 64-byte X‖Y of a secp256k1 key, what Ethereum-style addresses hash. */
function uncompressed64(value: Value, fn: string): Uint8Array {
  return secp256k1Point(value, fn).toBytes(false).subarray(1);
}

function decodeBase64(text: string): string {
  const invalid = /[^A-Za-z0-9+/=]/.exec(text);
  if (invalid) throw panic(`illegal base64 data at input byte ${invalid.index}`);
  const padding = /=+$/.exec(text)?.[0].length ?? 0;
  const firstPad = text.indexOf('=');
  if (text.length % 4 !== 0 || padding > 2 || (firstPad >= 0 && firstPad < text.length - padding)) {
    throw panic(`illegal base64 data at input byte ${firstPad >= 0 ? firstPad : text.length}`);
  }
  return utf8Text(Buffer.from(text, 'base64'));
}

function taprootOutputKey(value: Value, fn: string): Uint8Array {
  const internal = secp256k1Point(value, fn).toBytes(true).subarray(1);
  const even = schnorr.utils.lift_x(BigInt('0x' + Buffer.from(internal).toString('hex')));
  const tweak = schnorr.utils.taggedHash('TapTweak', internal);
  const tweaked = even.add(secp256k1.Point.BASE.multiply(BigInt('0x' + Buffer.from(tweak).toString('hex'))));
  return tweaked.toBytes(true).subarray(1);
}

export const cryptoBuiltins: BuiltinDef[] = [
  {
    name: 'EncodeBase64',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, text) => {
      const source = expectString(text, 'EncodeBase64');
      const size = utf8Size(source);
      ctx.reserveMemory(bytesCost(size));
      reserveText(ctx, 4 * Math.ceil(size / 3));
      return Buffer.from(utf8Bytes(source)).toString('base64');
    },
  },
  {
    name: 'DecodeBase64',
    async: true,
    params: 1,
    reserves: true,
    fn: (ctx, text) => {
      const source = expectString(text, 'DecodeBase64');
      const size = Math.ceil((source.length * 3) / 4);
      ctx.reserveMemory(bytesCost(size));
      reserveText(ctx, size, true);
      return decodeBase64(source);
    },
  },
  {
    name: 'PubToHex',
    async: false,
    params: 1,
    // Text counts by its bytes (not as hex); a 64-byte key gets its 04 prefix; anything else is "".
    fn: (_ctx, value) => {
      const bytes =
        value instanceof Uint8Array
          ? value
          : typeof value === 'string'
            ? utf8Bytes(value)
            : new Uint8Array(0);
      const key = bytes.length === 64 ? Uint8Array.from([4, ...bytes]) : bytes;
      return Buffer.from(key).toString('hex');
    },
  },
  {
    name: 'EthereumAddress',
    async: false,
    params: 1,
    // Like the reference it hashes the key bytes as given: pass the 64-byte key (HexToPub's result).
    fn: (_ctx, value) => checksumHex(keccak_256(bytesArg(value, 'EthereumAddress')).subarray(12)),
  },
  {
    name: 'TronAddress',
    async: false,
    params: 1,
    fn: (_ctx, value) =>
      base58Check(Uint8Array.from([0x41, ...keccak_256(uncompressed64(value, 'TronAddress')).subarray(12)])),
  },
  {
    name: 'BitcoinLegacyAddress',
    async: false,
    params: 1,
    // P2PKH of the uncompressed key (04‖X‖Y), as keys were hashed before compression.
    fn: (_ctx, value) =>
      base58Check(
        Uint8Array.from([0, ...hash160(secp256k1Point(value, 'BitcoinLegacyAddress').toBytes(false))]),
      ),
  },
  {
    name: 'BitcoinBip32Address',
    async: false,
    params: 1,
    // P2PKH of the compressed key, as BIP-32 wallets derive it.
    fn: (_ctx, value) =>
      base58Check(
        Uint8Array.from([0, ...hash160(secp256k1Point(value, 'BitcoinBip32Address').toBytes(true))]),
      ),
  },
  {
    name: 'BitcoinBip49Address',
    async: false,
    params: 1,
    // P2SH-wrapped P2WPKH.
    fn: (_ctx, value) => {
      const keyHash = hash160(secp256k1Point(value, 'BitcoinBip49Address').toBytes(true));
      return base58Check(Uint8Array.from([5, ...hash160(Uint8Array.from([0, 20, ...keyHash]))]));
    },
  },
  {
    name: 'BitcoinBip84Address',
    async: false,
    params: 1,
    // Native segwit P2WPKH.
    fn: (_ctx, value) =>
      segwitAddress(0, hash160(secp256k1Point(value, 'BitcoinBip84Address').toBytes(true))),
  },
  {
    name: 'BitcoinBip86Address',
    async: false,
    params: 1,
    // Taproot key-path output (BIP-86: the internal key tweaked with no script tree).
    fn: (_ctx, value) => segwitAddress(1, taprootOutputKey(value, 'BitcoinBip86Address')),
  },
];
