/** The first byte of every transaction binary (formats.md §2.1). */
import { CodecError } from './errors';

export const TX_TYPE = {
  firstBlock: 1,
  stopNetwork: 2,
  contract: 3,
  utxo: 5,
  transferSelf: 6,
  clientEnvelope: 0x80,
} as const;

export type TxType = (typeof TX_TYPE)[keyof typeof TX_TYPE];

const KNOWN_TYPES: ReadonlySet<number> = new Set(Object.values(TX_TYPE));

export function transactionTypeOf(bytes: Uint8Array): TxType {
  if (bytes.length === 0) throw new CodecError('empty transaction buffer');
  if (!KNOWN_TYPES.has(bytes[0])) throw new CodecError(`unsupported tx type ${bytes[0]}`);
  return bytes[0] as TxType;
}
