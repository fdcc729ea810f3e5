import { describe, expect, it } from 'vitest';
import {
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

const GUEST_ID = -110277540701013350n;
const GUEST_ADDRESS = '1833-6466-5330-0853-8266';
const GUEST_UNSIGNED = '18336466533008538266';

/** [key id, address] pairs from formats.md §1.4, rest-api.md §3, json-rpc.md §6.1, clients.md §5. */
const KNOWN_ADDRESSES: [bigint, string][] = [
  [GUEST_ID, GUEST_ADDRESS],
  [0n, '0000-0000-0000-0000-0000'],
  [5555n, '0000-0000-0000-0000-5555'],
  [3983063462744111396n, '0398-3063-4627-4411-1396'],
  [-1450197505406253194n, '1699-6546-5683-0329-8422'],
  [-6484253546138538120n, '1196-2490-5275-7101-3496'],
  [4544233900443112470n, '0454-4233-9004-4311-2470'],
  [-1465863158328511897n, '1698-0880-9153-8103-9719'],
  [-8025645506384457280n, '1042-1098-5673-2509-4336'],
  [-8704011958613640643n, '0974-2732-1150-9591-0973'],
];

describe('int64 <-> uint64', () => {
  it('reinterprets two’s complement both ways', () => {
    expect(int64ToUint64(GUEST_ID)).toBe(18336466533008538266n);
    expect(uint64ToInt64(18336466533008538266n)).toBe(GUEST_ID);
    expect(int64ToUint64(-1n)).toBe(MAX_UINT64);
    expect(uint64ToInt64(MAX_UINT64)).toBe(-1n);
    expect(int64ToUint64(MIN_INT64)).toBe(1n << 63n);
    expect(uint64ToInt64(MAX_INT64)).toBe(MAX_INT64);
  });

  it('refuses values outside the range', () => {
    expect(() => int64ToUint64(MAX_INT64 + 1n)).toThrow(RangeError);
    expect(() => int64ToUint64(MIN_INT64 - 1n)).toThrow(RangeError);
    expect(() => uint64ToInt64(-1n)).toThrow(RangeError);
    expect(() => uint64ToInt64(MAX_UINT64 + 1n)).toThrow(RangeError);
  });
});

describe('checksumDigit', () => {
  it('matches the worked example (formats.md §1.4)', () => {
    expect(checksumDigit('1833646653300853826')).toBe(6);
  });

  it('is 0 when the weighted sum is already a multiple of 10', () => {
    expect(checksumDigit('0000000000000000000')).toBe(0);
    expect(checksumDigit('0000000000000000555')).toBe(5);
  });

  it('refuses non-digits', () => {
    expect(() => checksumDigit('12a')).toThrow(RangeError);
    expect(() => checksumDigit('')).toThrow(RangeError);
  });
});

describe('withCheckDigit / hasValidChecksum', () => {
  it('replaces the last digit (formats.md §1.4 step 7)', () => {
    expect(withCheckDigit(18336466533008538269n)).toBe(18336466533008538266n);
    expect(withCheckDigit(18336466533008538266n)).toBe(18336466533008538266n);
  });

  it('stays within uint64 at the very top', () => {
    expect(withCheckDigit(MAX_UINT64)).toBe(18446744073709551614n);
  });

  it('accepts both readings of a key id', () => {
    expect(hasValidChecksum(GUEST_ID)).toBe(true);
    expect(hasValidChecksum(18336466533008538266n)).toBe(true);
    expect(hasValidChecksum(18336466533008538267n)).toBe(false);
    expect(hasValidChecksum(12n)).toBe(false);
  });
});

describe('keyIdToAddress', () => {
  it.each(KNOWN_ADDRESSES)('%s -> %s', (id, address) => {
    expect(keyIdToAddress(id)).toBe(address);
  });

  it('accepts the uint64 reading as well', () => {
    expect(keyIdToAddress(18336466533008538266n)).toBe(GUEST_ADDRESS);
  });

  it('refuses values that do not fit in 64 bits', () => {
    expect(() => keyIdToAddress(MAX_UINT64 + 1n)).toThrow(RangeError);
    expect(() => keyIdToAddress(MIN_INT64 - 1n)).toThrow(RangeError);
  });
});

describe('stringToAddress', () => {
  it.each(KNOWN_ADDRESSES)('parses the address of %s', (id, address) => {
    expect(stringToAddress(address)).toBe(id);
  });

  it('accepts the dashed, unsigned, short unsigned and signed forms', () => {
    expect(stringToAddress(GUEST_ADDRESS)).toBe(GUEST_ID);
    expect(stringToAddress(GUEST_UNSIGNED)).toBe(GUEST_ID);
    expect(stringToAddress('-110277540701013350')).toBe(GUEST_ID);
    expect(stringToAddress('5555')).toBe(5555n);
    expect(stringToAddress('-6484253546138538120')).toBe(-6484253546138538120n);
    expect(stringToAddress('3983063462744111396')).toBe(3983063462744111396n);
  });

  it('drops dashes wherever they are, as the reference does, once the text is 20 characters or more', () => {
    expect(stringToAddress('18336466-5330-0853-8266')).toBe(GUEST_ID);
  });

  it('returns 0 for a wrong check digit', () => {
    expect(stringToAddress('1833-6466-5330-0853-8267')).toBe(0n);
    expect(stringToAddress('18336466533008538267')).toBe(0n);
    expect(stringToAddress('-110277540701013351')).toBe(0n);
    expect(stringToAddress('5556')).toBe(0n);
  });

  it.each([
    '',
    '-',
    '--5',
    '+5555',
    ' 5555',
    '5555 ',
    '1e3',
    '0x10',
    '5_555',
    '1833-6466-5330-0853-826', // short with dashes: padding comes before dash removal
    '018336466533008538266', // 21 digits
    '99999999999999999999', // above 2^64-1
    '-9223372036854775809', // below -2^63
    '1833-6466-5330-0853-８２６６', // non-ASCII digits
    '1833 6466 5330 0853 8266',
  ])('returns 0 for %j', (text) => {
    expect(stringToAddress(text)).toBe(0n);
  });
});

describe('addressToId', () => {
  it.each(KNOWN_ADDRESSES)('parses the address of %s', (id, address) => {
    expect(addressToId(address)).toBe(id);
  });

  it('accepts the dashed, signed and unsigned forms, ignoring surrounding whitespace', () => {
    expect(addressToId(` ${GUEST_ADDRESS}\n`)).toBe(GUEST_ID);
    expect(addressToId('-110277540701013350')).toBe(GUEST_ID);
    expect(addressToId(GUEST_UNSIGNED)).toBe(GUEST_ID);
    expect(addressToId('5555')).toBe(5555n);
    expect(addressToId(' 5555 ')).toBe(5555n);
    expect(addressToId('0000000000000000005555')).toBe(5555n); // unsigned decimal: leading zeros are harmless
  });

  it('returns 0 for a wrong check digit', () => {
    expect(addressToId('1833-6466-5330-0853-8267')).toBe(0n);
    expect(addressToId('18336466533008538267')).toBe(0n);
    expect(addressToId('-110277540701013351')).toBe(0n);
    expect(addressToId(' 12')).toBe(0n);
  });

  it.each([
    '',
    ' ',
    '7', // shorter than 2 characters
    '-',
    '+5555',
    '1e3',
    '0x10',
    '55 55',
    '1833-6466-5330-08538266', // three dashes: neither an address nor a number
    '1833-6466-5330-0853-8266-', // five dashes
    '18446744073709551616', // 2^64
    '-9223372036854775809',
    'abcd-efgh-ijkl-mnop-qrst',
  ])('returns 0 for %j', (text) => {
    expect(addressToId(text)).toBe(0n);
  });
});
