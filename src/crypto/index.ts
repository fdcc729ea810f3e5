export {
  MAX_INT64,
  MAX_UINT64,
  MIN_INT64,
  addressToId,
  checksumDigit,
  hasValidChecksum,
  int64ToUint64,
  keyIdToAddress,
  stringToAddress,
  uint64ToInt64,
  withCheckDigit,
} from './address';
export { crc64 } from './crc64';
export { CryptoError } from './errors';
export {
  HASHER_NAMES,
  createHasher,
  incrementalHash,
  isHasherName,
  loadFastHashers,
  md5,
  sha512,
  utf8,
} from './hashers';
export type { Hasher, HasherName, IncrementalHash } from './hashers';
export {
  bytesToHex,
  hexToBytes,
  keyIdFromPublicKey,
  parsePrivateKeyHex,
  parsePublicKey,
  publicKeyHex04,
} from './keys';
export { CRYPTOER_NAMES, createSigner, derToCompact, isCryptoerName } from './signers';
export type { CryptoerName, Signer } from './signers';
