/**
 * Key ids (signed int64, as bigint) and their account-address text `XXXX-XXXX-XXXX-XXXX-XXXX`
 * (the same 64 bits read as uint64, 20 zero-padded decimal digits, the last one a check digit).
 */

const TWO_POW_63 = 1n << 63n;
const TWO_POW_64 = 1n << 64n;
export const MIN_INT64 = -TWO_POW_63;
export const MAX_INT64 = TWO_POW_63 - 1n;
export const MAX_UINT64 = TWO_POW_64 - 1n;

const ADDRESS_DIGITS = 20;
const DECIMAL_DIGITS = /^[0-9]+$/;
const SIGNED_DECIMAL = /^-?[0-9]+$/;

/** Reinterprets a signed int64 as uint64 (two's complement). */
export function int64ToUint64(id: bigint): bigint {
  if (id < MIN_INT64 || id > MAX_INT64) throw new RangeError(`${id} is out of the int64 range`);
  return BigInt.asUintN(64, id);
}

/** Reinterprets a uint64 as signed int64 (two's complement). */
export function uint64ToInt64(value: bigint): bigint {
  if (value < 0n || value > MAX_UINT64) throw new RangeError(`${value} is out of the uint64 range`);
  return BigInt.asIntN(64, value);
}

/** Either reading of the 64 bits, as uint64; key ids arrive signed, some callers hold them unsigned. */
function toUint64(id: bigint): bigint {
  if (id < MIN_INT64 || id > MAX_UINT64) throw new RangeError(`${id} does not fit in 64 bits`);
  return BigInt.asUintN(64, id);
}

function padToAddressDigits(value: bigint): string {
  return value.toString().padStart(ADDRESS_DIGITS, '0');
}

/**
 * Check digit of a decimal digit string (the first 19 digits of an address): digits at odd 0-based
 * positions weigh 3, at even positions 1; the digit completes the sum to a multiple of 10.
 */
export function checksumDigit(digits: string): number {
  if (!DECIMAL_DIGITS.test(digits))
    throw new RangeError(`checksumDigit needs decimal digits, got "${digits}"`);
  let even = 0;
  let odd = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = digits.charCodeAt(i) - 48;
    if (i % 2 === 0) even += digit;
    else odd += digit;
  }
  const remainder = (even + 3 * odd) % 10;
  return remainder === 0 ? 0 : 10 - remainder;
}

function hasValidCheckDigit(twentyDigits: string): boolean {
  return (
    checksumDigit(twentyDigits.slice(0, ADDRESS_DIGITS - 1)) ===
    twentyDigits.charCodeAt(ADDRESS_DIGITS - 1) - 48
  );
}

/** Whether a key id (int64, or the same bits as uint64) carries a valid check digit. */
export function hasValidChecksum(id: bigint): boolean {
  return hasValidCheckDigit(padToAddressDigits(toUint64(id)));
}

/**
 * Replaces the last decimal digit of a uint64 with the check digit of the other 19 (key_id derivation).
 * The result stays below 2^64: the only 19-digit prefix where it could overflow, 1844674407370955161,
 * has check digit 4.
 */
export function withCheckDigit(value: bigint): bigint {
  const unsigned = toUint64(value);
  const check = BigInt(checksumDigit(padToAddressDigits(unsigned).slice(0, ADDRESS_DIGITS - 1)));
  return unsigned - (unsigned % 10n) + check;
}

/** `XXXX-XXXX-XXXX-XXXX-XXXX` for a key id (int64; the uint64 reading is accepted too). */
export function keyIdToAddress(id: bigint): string {
  const digits = padToAddressDigits(toUint64(id));
  return digits.match(/.{4}/g)!.join('-');
}

function parseInt64(text: string): bigint | undefined {
  if (!SIGNED_DECIMAL.test(text)) return undefined;
  const value = BigInt(text);
  return value >= MIN_INT64 && value <= MAX_INT64 ? value : undefined;
}

function parseUint64(text: string): bigint | undefined {
  if (!DECIMAL_DIGITS.test(text)) return undefined;
  const value = BigInt(text);
  return value <= MAX_UINT64 ? value : undefined;
}

/**
 * The reference's `StringToAddress` (keyinfo, login `key_id`): the dashed address, a 20-digit (or
 * shorter, zero-padded) unsigned decimal, or a negative int64. Returns the key id as int64, or 0n when
 * the text is not one of those or the check digit is wrong; 0n is also the black hole's id, as in the reference.
 */
export function stringToAddress(text: string): bigint {
  if (text === '') return 0n;
  let digits = text;
  if (text.startsWith('-')) {
    const signed = parseInt64(text);
    if (signed === undefined) return 0n;
    digits = int64ToUint64(signed).toString();
  }
  // The reference pads before it drops the dashes, so a short text with dashes fails the length test.
  digits = digits.padStart(ADDRESS_DIGITS, '0').replaceAll('-', '');
  if (digits.length !== ADDRESS_DIGITS) return 0n;
  const value = parseUint64(digits);
  if (value === undefined || !hasValidCheckDigit(digits)) return 0n;
  return uint64ToInt64(value);
}

/**
 * The reference's `AddressToID` (balance, member): surrounding whitespace is ignored; a negative int64,
 * a text with exactly four dashes (see {@link stringToAddress}) or an unsigned decimal. Returns the key
 * id as int64, or 0n when invalid or the check digit is wrong.
 */
export function addressToId(text: string): bigint {
  const trimmed = text.trim();
  if (trimmed.length < 2) return 0n;
  let value: bigint | undefined;
  if (trimmed.startsWith('-')) {
    value = parseInt64(trimmed);
  } else if (trimmed.split('-').length === 5) {
    return stringToAddress(trimmed);
  } else {
    value = parseUint64(trimmed);
  }
  if (value === undefined || !hasValidChecksum(value)) return 0n;
  return BigInt.asIntN(64, value);
}
