import type { BuiltinContext } from '../context';
import { panic } from '../errors';
import { goString } from '../format';
import type { Value } from '../values';
import type { BuiltinDef } from './registry';
import { expectString } from './strings';

/**
 * Date and time built-ins. The reference formats in the node's local time zone; this node's is UTC, so every
 * node gives the same text for the same block. `DateTimeLocation`/`UnixDateTimeLocation` take an IANA zone.
 */

/** Go's reference time in the layout the SQL-style functions use. */
const DATE_TIME_LAYOUT = '2006-01-02 15:04:05';
/** What JavaScript dates can hold: ±8.64e15 ms. */
const MAX_UNIX_SECONDS = 8_640_000_000_000n;

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday. */
  weekday: number;
  /** Seconds east of UTC. */
  offset: number;
  zoneName: string;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function unixArg(value: Value, fn: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return BigInt(Math.trunc(value));
  throw panic(`${fn}: parameter must be int, got ${goString(value)}`);
}

function millisOf(unix: bigint): number {
  if (unix > MAX_UNIX_SECONDS || unix < -MAX_UNIX_SECONDS) throw panic(`time ${unix} is out of range`);
  return Number(unix) * 1000;
}

/** `''`, `UTC` and `Local` are UTC here; any other name must be an IANA zone. */
function zoneOf(name: string): string {
  if (name === '' || name === 'UTC' || name === 'Local') return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw panic(`Load location: unknown time zone ${name}`);
  }
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

export function wallClock(unix: bigint, zone = 'UTC'): WallClock {
  const millis = millisOf(unix);
  const date = new Date(millis);
  if (zone === 'UTC') {
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
      weekday: date.getUTCDay(),
      offset: 0,
      zoneName: 'UTC',
    };
  }
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
      timeZoneName: 'short',
    });
    zoneFormats.set(zone, format);
  }
  const parts = new Map(format.formatToParts(date).map((part) => [part.type, part.value]));
  const yearOfEra = Number(parts.get('year'));
  const year = parts.get('era') === 'BC' ? 1 - yearOfEra : yearOfEra;
  const wall = {
    year,
    month: Number(parts.get('month')),
    day: Number(parts.get('day')),
    hour: Number(parts.get('hour')),
    minute: Number(parts.get('minute')),
    second: Number(parts.get('second')),
  };
  const asUtc = utcMillis(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second);
  const offset = Math.round((asUtc - millis) / 1000);
  const name = parts.get('timeZoneName') ?? '';
  return {
    ...wall,
    weekday: new Date(asUtc).getUTCDay(),
    offset,
    // Go prints the abbreviation when the zone has one, else the offset like "+08".
    zoneName: /^[A-Z]{3,5}$/.test(name) ? name : offsetText(offset, '', false, false),
  };
}

export function utcMillis(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
) {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function offsetText(offset: number, separator: string, withSeconds: boolean, withMinutes = true): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  let text = sign + pad2(Math.floor(abs / 3600));
  if (withMinutes) text += separator + pad2(Math.floor((abs % 3600) / 60));
  if (withSeconds) text += separator + pad2(abs % 60);
  return text;
}

function dayOfYear(wall: WallClock): number {
  return (
    (utcMillis(wall.year, wall.month, wall.day, 0, 0, 0) - utcMillis(wall.year, 1, 1, 0, 0, 0)) / 86_400_000 +
    1
  );
}

function yearText(year: number): string {
  return year < 0 ? '-' + String(-year).padStart(4, '0') : String(year).padStart(4, '0');
}

type Token = (wall: WallClock) => string;

/** Go layout elements, longest first where one is a prefix of another. */
const LAYOUT_TOKENS: Array<[string, Token]> = [
  ['January', (w) => MONTHS[w.month - 1]],
  ['Jan', (w) => MONTHS[w.month - 1].slice(0, 3)],
  ['Monday', (w) => WEEKDAYS[w.weekday]],
  ['Mon', (w) => WEEKDAYS[w.weekday].slice(0, 3)],
  ['MST', (w) => w.zoneName],
  ['2006', (w) => yearText(w.year)],
  ['002', (w) => String(dayOfYear(w)).padStart(3, '0')],
  ['__2', (w) => String(dayOfYear(w)).padStart(3, ' ')],
  ['01', (w) => pad2(w.month)],
  ['02', (w) => pad2(w.day)],
  ['03', (w) => pad2(w.hour % 12 === 0 ? 12 : w.hour % 12)],
  ['04', (w) => pad2(w.minute)],
  ['05', (w) => pad2(w.second)],
  ['06', (w) => pad2(((w.year % 100) + 100) % 100)],
  ['15', (w) => pad2(w.hour)],
  ['_2', (w) => String(w.day).padStart(2, ' ')],
  ['1', (w) => String(w.month)],
  ['2', (w) => String(w.day)],
  ['3', (w) => String(w.hour % 12 === 0 ? 12 : w.hour % 12)],
  ['4', (w) => String(w.minute)],
  ['5', (w) => String(w.second)],
  ['PM', (w) => (w.hour >= 12 ? 'PM' : 'AM')],
  ['pm', (w) => (w.hour >= 12 ? 'pm' : 'am')],
  ['-07:00:00', (w) => offsetText(w.offset, ':', true)],
  ['-070000', (w) => offsetText(w.offset, '', true)],
  ['-07:00', (w) => offsetText(w.offset, ':', false)],
  ['-0700', (w) => offsetText(w.offset, '', false)],
  ['-07', (w) => offsetText(w.offset, '', false, false)],
  ['Z07:00:00', (w) => (w.offset === 0 ? 'Z' : offsetText(w.offset, ':', true))],
  ['Z070000', (w) => (w.offset === 0 ? 'Z' : offsetText(w.offset, '', true))],
  ['Z07:00', (w) => (w.offset === 0 ? 'Z' : offsetText(w.offset, ':', false))],
  ['Z0700', (w) => (w.offset === 0 ? 'Z' : offsetText(w.offset, '', false))],
  ['Z07', (w) => (w.offset === 0 ? 'Z' : offsetText(w.offset, '', false, false))],
];

/** Go's time.Format for whole seconds: `.000` prints zeros, `.999` (trailing zeros dropped) prints nothing. */
export function goTimeFormat(layout: string, wall: WallClock): string {
  let out = '';
  let i = 0;
  while (i < layout.length) {
    const char = layout[i];
    if ((char === '.' || char === ',') && (layout[i + 1] === '0' || layout[i + 1] === '9')) {
      let end = i + 1;
      while (layout[end] === layout[i + 1]) end++;
      if (!/[0-9]/.test(layout[end] ?? '')) {
        if (layout[i + 1] === '0') out += char + '0'.repeat(end - i - 1);
        i = end;
        continue;
      }
    }
    const token = LAYOUT_TOKENS.find(([text]) => layout.startsWith(text, i));
    if (token) {
      out += token[1](wall);
      i += token[0].length;
      continue;
    }
    out += char;
    i++;
  }
  return out;
}

function daysIn(year: number, month: number): number {
  return (utcMillis(year, month + 1, 1, 0, 0, 0) - utcMillis(year, month, 1, 0, 0, 0)) / 86_400_000;
}

/** Go's time quoting of a text in an error: ASCII as itself (`"` and `\\` escaped), other bytes as \xNN. */
function goTimeQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || code >= 0x80) {
      for (const byte of Buffer.from(char, 'utf8')) out += '\\x' + byte.toString(16).padStart(2, '0');
    } else {
      out += char === '"' || char === '\\' ? '\\' + char : char;
    }
  }
  return out + '"';
}

function isDigitAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
}

/**
 * Go's time.Parse of a text with the layout `2006-01-02 15:04:05`, element by element: the wall-clock
 * fields, or Go's words for where it stops (`parsing time "x" as "2006-01-02 15:04:05": cannot parse "x" as
 * "2006"`, `…: month out of range`, `…: extra text: "…"`, `…: day out of range`).
 */
function parseDateTimeGo(value: string): { fields: number[] } | { error: string } {
  let rest = value;
  const cannot = (at: string, element: string) => ({
    error: `parsing time ${goTimeQuote(value)} as ${goTimeQuote(DATE_TIME_LAYOUT)}: cannot parse ${goTimeQuote(at)} as ${goTimeQuote(element)}`,
  });
  const reason = (message: string) => ({ error: `parsing time ${goTimeQuote(value)}${message}` });
  /** One or two digits (two when `fixed`), as Go's getnum reads them. */
  const number = (fixed: boolean): number | undefined => {
    if (!isDigitAt(rest, 0)) return undefined;
    const two = isDigitAt(rest, 1);
    if (!two && fixed) return undefined;
    const result = two ? Number(rest.slice(0, 2)) : Number(rest[0]);
    rest = rest.slice(two ? 2 : 1);
    return result;
  };
  /** A separator of the layout; a space there takes any number of spaces. */
  const separator = (char: string): boolean => {
    if (char === ' ') {
      if (rest.length > 0 && rest[0] !== ' ') return false;
      rest = rest.replace(/^ +/, '');
      return true;
    }
    if (rest[0] !== char) return false;
    rest = rest.slice(1);
    return true;
  };
  if (rest.length < 4 || !/^[+-]?\d*$/.test(rest.slice(0, 4))) return cannot(rest, '2006');
  const year = Number(rest.slice(0, 4).replace(/^[+-]$/, '0'));
  rest = rest.slice(4);
  const fields = [year];
  const elements: Array<[string, string, boolean, number, string]> = [
    // separator, element, two digits, bound, name of its range
    ['-', '01', true, 13, 'month'],
    ['-', '02', true, 100, ''],
    [' ', '15', false, 24, 'hour'],
    [':', '04', true, 60, 'minute'],
    [':', '05', true, 60, 'second'],
  ];
  for (const [char, element, fixed, bound, range] of elements) {
    if (!separator(char)) return cannot(rest, char);
    const hold = rest;
    const field = number(fixed);
    if (field === undefined) return cannot(hold, element);
    if (field >= bound || (range === 'month' && field === 0)) return reason(`: ${range} out of range`);
    fields.push(field);
  }
  // Fractional seconds the layout does not name are read and dropped.
  if (rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigitAt(rest, 1)) {
    rest = rest.replace(/^[.,]\d+/, '');
  }
  if (rest.length > 0) return reason(`: extra text: ${goTimeQuote(rest)}`);
  const [, month, day] = fields;
  if (day < 1 || day > daysIn(year, month)) return reason(': day out of range');
  return { fields };
}

/** Unix seconds of a wall-clock time in a zone (for a time skipped or repeated by a clock change, the first fit). */
function unixIn(fields: number[], zone: string): bigint {
  const [year, month, day, hour, minute, second] = fields;
  const asUtc = utcMillis(year, month, day, hour, minute, second) / 1000;
  if (zone === 'UTC') return BigInt(asUtc);
  let guess = asUtc - wallClock(BigInt(asUtc), zone).offset;
  const offset = wallClock(BigInt(guess), zone).offset;
  if (asUtc - offset !== guess) guess = asUtc - offset;
  return BigInt(guess);
}

function blockTime(ctx: BuiltinContext): Value {
  const value = ctx.getVar('block_time');
  const unix = typeof value === 'bigint' ? value : 0n;
  return goTimeFormat(DATE_TIME_LAYOUT, wallClock(unix));
}

export const dateTimeBuiltins: BuiltinDef[] = [
  { name: 'BlockTime', async: false, params: 0, fn: (ctx) => blockTime(ctx) },
  {
    name: 'DateTime',
    async: false,
    params: 1,
    fn: (_ctx, unix) => goTimeFormat(DATE_TIME_LAYOUT, wallClock(unixArg(unix, 'DateTime'))),
  },
  {
    name: 'DateFormat',
    async: false,
    params: 2,
    fn: (_ctx, layout, unix) =>
      goTimeFormat(expectString(layout, 'DateFormat'), wallClock(unixArg(unix, 'DateFormat'))),
  },
  {
    name: 'UnixDateTime',
    async: false,
    params: 1,
    // A text that is not `YYYY-MM-DD HH:MM:SS` gives 0, as in the reference.
    fn: (_ctx, text) => {
      const parsed = parseDateTimeGo(expectString(text, 'UnixDateTime'));
      return 'fields' in parsed ? unixIn(parsed.fields, 'UTC') : 0n;
    },
  },
  {
    name: 'DateTimeLocation',
    async: false,
    params: 2,
    fn: (_ctx, unix, location) => {
      const zone = zoneOf(expectString(location, 'DateTimeLocation', 2));
      return goTimeFormat(DATE_TIME_LAYOUT, wallClock(unixArg(unix, 'DateTimeLocation'), zone));
    },
  },
  {
    name: 'UnixDateTimeLocation',
    async: false,
    params: 2,
    fn: (_ctx, text, location) => {
      const zone = zoneOf(expectString(location, 'UnixDateTimeLocation', 2));
      const value = expectString(text, 'UnixDateTimeLocation');
      const parsed = parseDateTimeGo(value);
      if ('error' in parsed) throw panic(`Parse time: ${parsed.error}`);
      return unixIn(parsed.fields, zone);
    },
  },
  {
    name: 'AddDate',
    async: false,
    params: 4,
    // Like Go's Time.AddDate in UTC: out-of-range months and days carry over (Oct 31 + 1 month = Dec 1).
    fn: (_ctx, unix, years, months, days) => {
      const wall = wallClock(unixArg(unix, 'AddDate'));
      const millis = utcMillis(
        wall.year + Number(unixArg(years, 'AddDate')),
        wall.month + Number(unixArg(months, 'AddDate')),
        wall.day + Number(unixArg(days, 'AddDate')),
        wall.hour,
        wall.minute,
        wall.second,
      );
      if (!Number.isFinite(millis)) throw panic('AddDate: the date is out of range');
      return BigInt(millis / 1000);
    },
  },
];
