import { mp, type MsgMap, type MsgValue, type SmartTransaction } from '../chain/codec';
import { signTransaction, smartTransaction, type SignedTransaction } from '../chain/tx-builder';
import type { ContractInfoAnswer } from '../contracts/contracts.answers';
import { keyIdFromPublicKey, parsePrivateKeyHex, stringToAddress, type Signer } from '../crypto';

/** A contract's `data` field as `GET /contract/{name}` lists it. */
export type ContractField = ContractInfoAnswer['fields'][number];

/** What a contract call needs to know about its contract: of its description, the id (5000 + row id) as a number. */
export type ContractDescription = Pick<ContractInfoAnswer, 'name' | 'fields'> & { id: number };

/** An argument as a user writes it: text (as on a command line or in a form) or a ready JS value. */
export type ArgumentValue =
  string | number | bigint | boolean | Uint8Array | unknown[] | Record<string, unknown>;

/**
 * Arguments converted to the msgpack types the node checks them against (formats.md §2.6): int and
 * address as int64 (an address may be written as account text), float as float64, money and string as
 * str, bytes as bin (hex text accepted), array and map from JSON text or JS values, file as
 * {Name, MimeType, Body}. Names are matched to fields case-insensitively; unknown names are refused.
 */
export function contractParams(contract: ContractDescription, args: Record<string, ArgumentValue>): MsgMap {
  const fields = new Map(contract.fields.map((field) => [field.name.toLowerCase(), field]));
  const params: MsgMap = new Map();
  for (const [name, value] of Object.entries(args)) {
    const field = fields.get(name.toLowerCase());
    if (!field) throw new Error(`${contract.name} has no parameter ${name}`);
    params.set(field.name, convertArgument(field, value));
  }
  return params;
}

function convertArgument(field: ContractField, value: ArgumentValue): MsgValue {
  const fail = () => new Error(`parameter ${field.name} (${field.type}): cannot use ${String(value)}`);
  switch (field.type) {
    case 'int':
      if (typeof value === 'string' && !/^[+-]?\d+$/.test(value.trim())) throw fail();
      return mp.int64(BigInt(value as string | number | bigint));
    case 'address':
      if (typeof value === 'string') {
        const id = /^[+-]?\d+$/.test(value.trim()) ? BigInt(value.trim()) : stringToAddress(value);
        if (id === 0n && value.trim() !== '0') throw fail();
        return mp.int64(id);
      }
      return mp.int64(BigInt(value as number | bigint));
    case 'float':
      return mp.float64(Number(value));
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (/^(1|t|true)$/i.test(String(value))) return true;
      if (/^(0|f|false)$/i.test(String(value))) return false;
      throw fail();
    case 'money':
    case 'string':
      return String(value);
    case 'bytes':
      if (value instanceof Uint8Array) return value;
      if (typeof value === 'string' && /^([0-9a-fA-F]{2})*$/.test(value)) return Buffer.from(value, 'hex');
      throw fail();
    case 'array':
    case 'map':
    case 'file': {
      const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
      return jsValue(parsed);
    }
    default:
      return String(value);
  }
}

/** JS values as msgpack: integers as int64, other numbers float64, objects as maps. */
export function jsValue(value: unknown): MsgValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return mp.int64(value);
  if (typeof value === 'number') return Number.isInteger(value) ? mp.int64(value) : mp.float64(value);
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(jsValue);
  return new Map(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, jsValue(item)]));
}

export interface CallOptions {
  ecosystem?: bigint;
  networkId: bigint;
  /** `sdk` (type 3/5/6 envelope, the Go SDK) or `client` (0x80, Weaver and multikey). */
  format?: 'sdk' | 'client';
  expedite?: string;
  time?: bigint;
}

/** A signed call of `contract` by the key `privateKeyHex`. */
export function buildContractCall(
  signer: Signer,
  privateKeyHex: string,
  contract: ContractDescription,
  args: Record<string, ArgumentValue>,
  options: CallOptions,
): SignedTransaction {
  const privateKey = parsePrivateKeyHex(privateKeyHex);
  const publicKey = signer.publicKey(privateKey);
  const tx = smartTransaction({
    contractId: contract.id,
    ecosystemId: options.ecosystem ?? 1n,
    keyId: keyIdFromPublicKey(publicKey, signer.hasher),
    networkId: options.networkId,
    publicKey,
    params: contractParams(contract, args),
    expedite: options.expedite,
    time: options.time,
  });
  return signTransaction(signer, privateKey, tx, { format: options.format });
}

/** A native coin move: `transferSelf` (type 6, UTXO ↔ account) or `utxo` (type 5, to another key). */
export type CoinTransfer =
  | { transferSelf: NonNullable<SmartTransaction['transferSelf']> }
  | { utxo: NonNullable<SmartTransaction['utxo']> };

/** A signed type 5 or 6 transaction of the key `privateKeyHex`. */
export function buildCoinTransfer(
  signer: Signer,
  privateKeyHex: string,
  transfer: CoinTransfer,
  options: CallOptions,
): SignedTransaction {
  const privateKey = parsePrivateKeyHex(privateKeyHex);
  const publicKey = signer.publicKey(privateKey);
  const tx = smartTransaction({
    contractId: 0,
    ecosystemId: options.ecosystem ?? 1n,
    keyId: keyIdFromPublicKey(publicKey, signer.hasher),
    networkId: options.networkId,
    publicKey,
    time: options.time,
    ...transfer,
  });
  return signTransaction(signer, privateKey, tx, { format: options.format });
}
