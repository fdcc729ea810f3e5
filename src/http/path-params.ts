import { stringToAddress } from '../crypto';
import { ApiError } from '../common/api-error';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * An integer path value read the reference's lenient way: not a number → 0, out of range → clamped, so
 * `/block/abc` is simply block 0 (not found) rather than a parse error.
 */
export function lenientInt64(text: string): bigint {
  if (!/^[+-]?\d+$/.test(text)) return 0n;
  const value = BigInt(text);
  if (value > INT64_MAX) return INT64_MAX;
  if (value < INT64_MIN) return INT64_MIN;
  return value;
}

/**
 * A wallet in a path or argument (balance, keyinfo): address text, signed or unsigned decimal, with a
 * valid check digit; anything else is E_INVALIDWALLET naming the text as sent.
 */
export function walletKeyId(text: string): bigint {
  const keyId = stringToAddress(text);
  if (keyId === 0n) throw new ApiError('E_INVALIDWALLET', text);
  return keyId;
}
