import { action, expr, type ConformanceCase } from './types';

/** secp256k1 public key of the private key 1 (the generator), uncompressed without 04 and compressed. */
const KEY_64 =
  '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8';
const KEY_33 = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';

/** The built-ins of groups I (math), K (date and time) and J (encodings, addresses), HasSlice and FormatMoney. */
export const builtinCases: ConformanceCase[] = [
  // I. Math
  {
    name: 'Floor of floats, ints and strings',
    source: expr('Sprintf("%v %v %v %v %T", Floor(5.6), Floor(-5.5), Floor("2.5"), Floor(3), Floor(1.5))'),
    expect: { result: '5 -6 2 3 int64' },
  },
  {
    name: 'Floor of a non-number text',
    source: expr('Floor("x")'),
    expect: { error: { type: 'panic', message: 'incorrect float value', exact: true } },
  },
  {
    name: 'Round halves away from zero',
    source: expr('Sprintf("%v %v %v %v", Round(2.5), Round(-2.5), Round(0.49999999999999994), Round("7.5"))'),
    expect: { result: '3 -3 0 8' },
  },
  {
    name: 'Log, Log10, Pow and Sqrt are floats',
    source: expr('Sprintf("%v %v %v %v %v", Log(1), Log10(1000.0), Pow(2, 10), Pow("2", 0.5), Sqrt(225))'),
    expect: { result: '0 3 1024 1.4142135623730951 15' },
  },
  {
    name: 'a result that is not a finite float is an error',
    source: expr('Sqrt(-1)'),
    expect: { error: { type: 'panic', message: 'incorrect float result', exact: true } },
  },
  {
    name: 'Log of zero is an error',
    source: expr('Log(0)'),
    expect: { error: { type: 'panic', message: 'incorrect float result' } },
  },
  {
    name: 'SqrtDecimal runs Newton on 16-place decimals',
    source: expr(
      'Sprintf("%v %v %v %v %v", SqrtDecimal("16"), SqrtDecimal("1000000"), SqrtDecimal("2"), SqrtDecimal("0"), SqrtDecimal("x"))',
    ),
    expect: { result: '4 1000 1 0 0' },
  },
  {
    name: 'MathMod keeps the sign of the dividend',
    source: expr('Sprintf("%v %v %v", MathMod(7.5, 2.0), MathMod(-7.5, 2.0), MathMod(1.0, 0.0))'),
    expect: { result: '1.5 -1.5 NaN' },
  },
  {
    name: 'MathModDecimal truncates like Go decimals',
    source: expr('Sprintf("%v %v", MathModDecimal(Money(7), Money(3)), MathModDecimal(Money(-7), Money(3)))'),
    expect: { result: '1 -1' },
  },
  {
    name: 'MathModDecimal by zero',
    source: expr('MathModDecimal(Money(7), Money(0))'),
    expect: { error: { type: 'panic', message: 'decimal division by 0' } },
  },
  {
    name: 'Div of decimal texts keeps 16 places rounded half up',
    source: expr('Div("10", "3") + " " + Div("2", "3") + " " + Div("-2", "3") + " " + Div("1", "4")'),
    expect: { result: '3.3333333333333333 0.6666666666666667 -0.6666666666666667 0.25' },
  },
  {
    name: 'decimal comparisons of texts (a bad number reads as 0)',
    source: expr(
      'Sprintf("%v %v %v %v %v", GreaterThan("10", "9.5"), GreaterThanOrEqual("1", "1.0"), LessThan("abc", "1"), LessThanOrEqual("2", "1"), GreaterThan("123456789012345678901234567890", "1"))',
    ),
    expect: { result: 'true true true false true' },
  },
  {
    name: 'Random draws in [min, max)',
    source: action(
      '    var i, r int\n    var ok bool\n    ok = true\n    while i < 50 {\n      r = Random(10, 20)\n      if r < 10 || r >= 20 {\n        ok = false\n      }\n      i = i + 1\n    }\n    $result = Sprintf("%v %v %v", ok, Random(5, 6), Random(0, 1))',
    ),
    expect: { result: 'true 5 0' },
  },
  {
    name: 'Random refuses an empty or negative range',
    source: expr('Random(5, 5)'),
    expect: { error: { type: 'panic', message: 'wrong random parameters min: 5, max: 5', exact: true } },
  },
  {
    name: 'RandomFloat and RandomDecimal stay in range; RandomDecimal is whole',
    source: action(
      '    var f float\n    var m money\n    f = RandomFloat(1.0, 2.0)\n    m = RandomDecimal(Money(10), Money(20))\n    $result = Sprintf("%v %v %v", f >= 1.0 && f < 2.0, m >= 10 && m < 20, !Contains(Str(m), "."))',
    ),
    expect: { result: 'true true true' },
  },
  {
    name: 'RandomFloat refuses min >= max',
    source: expr('RandomFloat(2.0, 1.0)'),
    expect: { error: { type: 'panic', message: 'wrong random parameters min: 2, max: 1' } },
  },

  // K. Date and time (UTC on this node)
  {
    name: 'BlockTime is the block time in SQL format',
    source: expr('BlockTime()'),
    expect: { result: '2019-07-02 02:00:00' },
  },
  {
    name: 'DateTime and UnixDateTime are inverse',
    source: expr('DateTime(1532096590) + " " + Str(UnixDateTime("2018-07-20 14:23:10"))'),
    expect: { result: '2018-07-20 14:23:10 1532096590' },
  },
  {
    name: 'UnixDateTime of a text that is not a date time is 0',
    source: expr(
      'Sprintf("%v %v %v", UnixDateTime("2018-07-20"), UnixDateTime("2019-02-29 00:00:00"), UnixDateTime("2020-02-29 1:02:03"))',
    ),
    expect: { result: '0 0 1582938123' },
  },
  {
    name: 'DateTimeLocation in IANA zones',
    source: expr(
      'DateTimeLocation(1562032800, "Asia/Chongqing") + "|" + DateTimeLocation(1562032800, "Asia/Tokyo")',
    ),
    expect: { result: '2019-07-02 10:00:00|2019-07-02 11:00:00' },
  },
  {
    name: 'DateTimeLocation of an unknown zone',
    source: expr('DateTimeLocation(0, "Location/Bad")'),
    expect: {
      error: { type: 'panic', message: 'Load location: unknown time zone Location/Bad', exact: true },
    },
  },
  {
    name: 'UnixDateTimeLocation reads a wall-clock time in a zone',
    source: expr(
      'Sprintf("%v %v", UnixDateTimeLocation("2019-07-02 10:00:00", "Asia/Chongqing"), UnixDateTimeLocation("2019-07-02 11:00:00", "Asia/Tokyo"))',
    ),
    expect: { result: '1562032800 1562032800' },
  },
  {
    name: 'UnixDateTimeLocation of a text in another format',
    source: expr('UnixDateTimeLocation("2019-07-02", "Asia/Chongqing")'),
    expect: {
      error: {
        type: 'panic',
        message: 'Parse time: parsing time "2019-07-02" as "2006-01-02 15:04:05": cannot parse "" as "15"',
        exact: true,
      },
    },
  },
  {
    name: 'UnixDateTimeLocation of a day the month lacks',
    source: expr('UnixDateTimeLocation("2019-02-30 10:00:00", "UTC")'),
    expect: {
      error: {
        type: 'panic',
        message: 'Parse time: parsing time "2019-02-30 10:00:00": day out of range',
        exact: true,
      },
    },
  },
  {
    name: 'DateFormat takes a Go layout',
    source: expr(
      'DateFormat("Monday, Jan 2, 2006 at 3:04pm (MST) day 002, 06/01/02 15:04:05.000Z07:00", 1562032800)',
    ),
    expect: { result: 'Tuesday, Jul 2, 2019 at 2:00am (UTC) day 183, 19/07/02 02:00:00.000Z' },
  },
  {
    name: 'AddDate carries over like Go (Oct 31 + 1 month = Dec 1)',
    source: expr(
      'DateTime(AddDate(UnixDateTime("2019-10-31 12:00:00"), 0, 1, 0)) + "|" + DateTime(AddDate(1562032800, 1, -7, 30))',
    ),
    expect: { result: '2019-12-01 12:00:00|2020-01-01 02:00:00' },
  },

  // J. Encodings and addresses
  {
    name: 'EncodeBase64 and DecodeBase64',
    source: expr('EncodeBase64("hello, мир") + " " + DecodeBase64("aGVsbG8=")'),
    expect: { result: 'aGVsbG8sINC80LjRgA== hello' },
  },
  {
    name: 'DecodeBase64 of text that is not base64',
    source: expr('DecodeBase64("aGVsbG8")'),
    expect: { error: { type: 'panic', message: 'illegal base64 data at input byte' } },
  },
  {
    name: 'PubToHex adds 04 to a 64-byte key and takes text by its bytes',
    source: expr(`Substr(PubToHex(HexToBytes("${KEY_64}")), 0, 6) + " " + PubToHex("ab")`),
    expect: { result: '0479be 6162' },
  },
  {
    name: 'EthereumAddress has the EIP-55 checksum',
    source: expr(`EthereumAddress(HexToBytes("${KEY_64}"))`),
    expect: { result: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf' },
  },
  {
    name: 'TronAddress from an uncompressed or a compressed key',
    source: expr(`TronAddress(HexToBytes("04${KEY_64}")) + " " + TronAddress("${KEY_33}")`),
    expect: { result: 'TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC' },
  },
  {
    name: 'Bitcoin addresses: legacy, BIP-32, BIP-49, BIP-84, BIP-86',
    source: expr(
      `Sprintf("%s %s %s %s %s", BitcoinLegacyAddress("${KEY_33}"), BitcoinBip32Address("${KEY_33}"), BitcoinBip49Address("${KEY_33}"), BitcoinBip84Address("${KEY_33}"), BitcoinBip86Address(HexToBytes("${KEY_64}")))`,
    ),
    expect: {
      result:
        '1EHNa6Q4Jz2uvNExL497mE43ikXhwF6kZm 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH 3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4 bc1pmfr3p9j00pfxjh0zmgp99y8zftmd3s5pmedqhyptwy6lm87hf5sspknck9',
    },
  },
  {
    name: 'a chain address of bytes that are not a secp256k1 key',
    source: expr('BitcoinBip84Address(StringToBytes("nope"))'),
    expect: { error: { type: 'panic', message: 'BitcoinBip84Address: invalid secp256k1 public key' } },
  },

  // HasSlice and FormatMoney
  {
    name: 'HasSlice compares by type and value',
    source: action(
      '    var amounts array\n    amounts[0] = Money(3)\n    $result = Sprintf("%v %v %v %v %v", HasSlice([1, "a", 2.5], "a"), HasSlice([1], "1"), HasSlice([1, nil], nil), HasSlice(amounts, Money("3")), HasSlice(nil, 1))',
    ),
    expect: { result: 'true false true true false' },
  },
  {
    name: 'FormatMoney shifts minimal units to whole units',
    source: expr(
      'Sprintf("%s %s %s %s %s", FormatMoney("12345", 2), FormatMoney("100", 2), FormatMoney("-5", 2), FormatMoney("", 2), FormatMoney("7", 0))',
    ),
    expect: { result: '123.45 1 -0.05 0 7' },
  },
  {
    name: 'FormatMoney refuses a fraction',
    source: expr('FormatMoney("1.5", 2)'),
    expect: { error: { type: 'panic', message: 'wrong money format 1.5', exact: true } },
  },
  {
    name: 'FormatMoney refuses negative digits',
    source: expr('FormatMoney("1", -1)'),
    expect: { error: { type: 'panic', message: 'digit must be positive', exact: true } },
  },
];
