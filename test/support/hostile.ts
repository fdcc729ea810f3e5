import fc from 'fast-check';

/**
 * Generators of hostile request material for the fuzz suite: texts, path segments, query strings,
 * urlencoded, multipart and JSON bodies, tokens and JSON-RPC envelopes. Everything is bytes on the wire,
 * so nothing here is limited to what a well-behaved client library would produce.
 */

/** Percent-encodes every byte outside the unreserved set, so any text (lone surrogates too) goes through. */
export function percentEncode(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const SPECIAL_TEXTS = [
  '',
  ' ',
  "'",
  '"',
  "' OR '1'='1",
  '1; DROP TABLE "1_keys"; --',
  '1) UNION ALL (SELECT 1',
  '/* comment */',
  '\u0000',
  '\u0000abc',
  '..',
  '../../../etc/passwd',
  '-1',
  '0',
  '-9223372036854775809',
  '9223372036854775808',
  '18446744073709551616',
  '9'.repeat(400),
  '1e309',
  '0x10',
  'NaN',
  'Infinity',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '{"$eq":1}',
  '@1keys',
  '@2keys',
  '1_keys',
  '2_contracts',
  'keys->pub',
  'a->b->c',
  '$where',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  '%s%d%v%n',
  '💥',
  '\ud800',
  'é\u0301',
  '\u202e',
  '0000-0000-0000-0000-0000',
  '1833-6466-5330-0853-8266',
  '1833-6466-5330-0853-8267',
];

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_TEXTS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '9', '%', '\u00ff', '\u{1F4A5}'), fc.nat(20_000))
      .map(([unit, count]) => unit.repeat(count)),
  },
);

/** Bytes that are not UTF-8 at all. */
export const invalidUtf8 = fc.constantFrom(
  Buffer.from([0xff, 0xfe, 0xfd]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
);

export const hostileBytes: fc.Arbitrary<Buffer> = fc.oneof(
  hostileText.map((text) => Buffer.from(text, 'utf8')),
  invalidUtf8,
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

/** One path segment: well encoded, raw, or broken percent-encoding. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: hostileBytes.map(percentEncode) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('%', '%zz', '%ff%fe', '%C0%AF', '%00', '%2e%2e', '%2F', '..', '.'),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9]{1,12}$/) },
);

export const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.tuple(hostileBytes, hostileBytes), { maxLength: 8 })
      .map((pairs) =>
        pairs.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`).join('&'),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'a=%zz',
      '%ff=%fe',
      '&&&=&=',
      'a[b][c]=1',
      'limit=-1&offset=99999999999999999999',
      'ecosystem=0&ecosystem=1&ecosystem=-1',
      Array.from({ length: 5000 }, (_, i) => `k${i}=${i}`).join('&'),
    ),
  },
);

export interface BodyPlan {
  contentType?: string;
  body: Buffer;
  label: string;
}

const fieldName = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom('data', 'hashes', 'signature', 'pubkey', 'key_id', 'ecosystem', 'limit'),
  },
  { weight: 2, arbitrary: hostileBytes },
  { weight: 1, arbitrary: fc.constant('') },
);

export const urlencodedBody: fc.Arbitrary<BodyPlan> = fc
  .array(fc.tuple(fieldName, hostileBytes, fc.boolean()), { maxLength: 10 })
  .map((fields) => {
    // Some fields carry their bytes raw, which is how invalid UTF-8 reaches the parser.
    const parts = fields.map(([name, value, raw]) =>
      Buffer.concat([
        Buffer.from(typeof name === 'string' ? name : percentEncode(name)),
        Buffer.from('='),
        raw ? value : Buffer.from(percentEncode(value)),
      ]),
    );
    return {
      contentType: 'application/x-www-form-urlencoded',
      body: Buffer.concat(parts.flatMap((part, i) => (i ? [Buffer.from('&'), part] : [part]))),
      label: 'urlencoded',
    };
  });

interface PartPlan {
  name: string | Buffer | undefined;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

const partPlan: fc.Arbitrary<PartPlan> = fc.record(
  {
    name: fc.oneof(fieldName, fc.constant(undefined)),
    filename: fc.oneof(
      fc.constant(undefined),
      hostileText.map((t) => t.slice(0, 60)),
    ),
    contentType: fc.constantFrom(
      undefined,
      'application/octet-stream',
      'text/plain; charset=latin1',
      'x/y; charset=nope',
    ),
    data: hostileBytes,
  },
  { requiredKeys: ['name', 'data'] },
);

function quoted(value: string | Buffer): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.replace(/"/g, '%22'));
}

function multipartBytes(boundary: string, parts: PartPlan[], close: boolean): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data`));
    if (part.name !== undefined) chunks.push(Buffer.from('; name="'), quoted(part.name), Buffer.from('"'));
    if (part.filename !== undefined)
      chunks.push(Buffer.from('; filename="'), quoted(part.filename), Buffer.from('"'));
    chunks.push(Buffer.from('\r\n'));
    if (part.contentType) chunks.push(Buffer.from(`Content-Type: ${part.contentType}\r\n`));
    chunks.push(Buffer.from('\r\n'), part.data, Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export const multipartBody: fc.Arbitrary<BodyPlan> = fc
  .record({
    parts: fc.array(partPlan, { maxLength: 8 }),
    duplicate: fc.boolean(),
    close: fc.boolean(),
    header: fc.constantFrom('good', 'no-boundary', 'wrong-boundary', 'empty-boundary', 'quoted-boundary'),
  })
  .map(({ parts, duplicate, close, header }) => {
    const boundary = 'fuzzBoundary7MA4YWxk';
    const all = duplicate && parts.length > 0 ? [...parts, parts[0]] : parts;
    const contentType = {
      good: `multipart/form-data; boundary=${boundary}`,
      'no-boundary': 'multipart/form-data',
      'wrong-boundary': 'multipart/form-data; boundary=other',
      'empty-boundary': 'multipart/form-data; boundary=',
      'quoted-boundary': `multipart/form-data; boundary="${boundary}"`,
    }[header];
    return { contentType, body: multipartBytes(boundary, all, close), label: `multipart(${header})` };
  });

/** Bodies over the limits: a huge part, a huge field, too many parts, too many fields. */
export function oversizedBodies(limits: {
  body: number;
  formFields: number;
  multipartParts: number;
}): fc.Arbitrary<BodyPlan> {
  const boundary = 'bigBoundary';
  return fc.constantFrom<BodyPlan>(
    {
      contentType: `multipart/form-data; boundary=${boundary}`,
      body: multipartBytes(
        boundary,
        [{ name: 'file', filename: 'a.bin', data: Buffer.alloc(limits.body + 1024, 7) }],
        true,
      ),
      label: 'multipart(huge file)',
    },
    {
      contentType: `multipart/form-data; boundary=${boundary}`,
      body: multipartBytes(
        boundary,
        Array.from({ length: limits.multipartParts + 5 }, (_, i) => ({
          name: `f${i}`,
          data: Buffer.from('1'),
        })),
        true,
      ),
      label: 'multipart(too many parts)',
    },
    {
      contentType: 'application/x-www-form-urlencoded',
      body: Buffer.from(`data=${'x'.repeat(3 * 1024 * 1024)}`),
      label: 'urlencoded(3 MB)',
    },
    {
      contentType: 'application/x-www-form-urlencoded',
      body: Buffer.from(Array.from({ length: limits.formFields + 5 }, (_, i) => `f${i}=1`).join('&')),
      label: 'urlencoded(too many fields)',
    },
  );
}

/** JSON values of every shape, with big numbers and odd strings. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    hostileText,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(
      hostileText.map((t) => t.slice(0, 30)),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;

/** JSON text that a JSON library would not write: huge and odd numbers, deep nesting, duplicate keys. */
export const rawJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '123456789012345678901234567890123456789',
    '-0',
    '1e999999',
    '1.0000000000000000000000000001',
    '{"a":1,"a":2}',
    '{"__proto__":{"polluted":true}}',
    '[1,2,',
    '{"jsonrpc":"2.0","id":1,"method":"ibax.getBlockInfo","params":[1e400]}',
    '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ibax.maxBlockId"}',
    '{"jsonrpc":"2.0","id":1,"method":"ibax.getBlockInfo","params":[-9223372036854775809]}',
    '\ufeff{"jsonrpc":"2.0","id":1,"method":"ibax.maxBlockId"}',
  ),
  fc.nat(200_000).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.nat(200).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
);

export type TokenKind =
  'none' | 'session' | 'uid' | 'alg-none' | 'tampered' | 'expired' | 'foreign' | 'garbage' | 'basic';
export const tokenKind = fc.constantFrom<TokenKind>(
  'none',
  'session',
  'session',
  'uid',
  'alg-none',
  'tampered',
  'expired',
  'foreign',
  'garbage',
  'basic',
);
