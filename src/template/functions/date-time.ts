import { goTimeFormat, utcMillis, wallClock } from '../../vm/builtins/datetime';
import type { Call } from '../call';
import { strToInt } from './numbers';

const TIME_LAYOUT = '2006-01-02T15:04:05';
/** The layout's elements: a number of `width` digits (`min` for the hour, which may have one), or a literal. */
const TIME_ELEMENTS: Array<{ text: string; width?: number; min?: number; max?: number; range?: string }> = [
  { text: '2006', width: 4 },
  { text: '-' },
  { text: '01', width: 2, min: 1, max: 12, range: 'month' },
  { text: '-' },
  { text: '02', width: 2 },
  { text: 'T' },
  { text: '15', width: 2, max: 23, range: 'hour' },
  { text: ':' },
  { text: '04', width: 2, max: 59, range: 'minute' },
  { text: ':' },
  { text: '05', width: 2, max: 59, range: 'second' },
];

/** `2006-01-02T15:04:05` as Unix seconds (UTC), or the error text of Go's time.Parse. */
function parseIsoTime(text: string): bigint | string {
  const quoted = JSON.stringify(text);
  const numbers: number[] = [];
  let rest = text;
  for (const element of TIME_ELEMENTS) {
    const cannot = `parsing time ${quoted} as "${TIME_LAYOUT}": cannot parse ${JSON.stringify(rest)} as "${element.text}"`;
    if (element.width === undefined) {
      if (!rest.startsWith(element.text)) return cannot;
      rest = rest.slice(element.text.length);
      continue;
    }
    // Go reads the hour with one or two digits, every other field with exactly its width.
    const digits = /^\d+/.exec(rest)?.[0] ?? '';
    const width = element.text === '15' && digits.length === 1 ? 1 : element.width;
    if (digits.length < width) return cannot;
    const value = Number(rest.slice(0, width));
    rest = rest.slice(width);
    if (element.range && (value < (element.min ?? 0) || value > element.max!)) {
      return `parsing time ${quoted}: ${element.range} out of range`;
    }
    numbers.push(value);
  }
  if (rest) return `parsing time ${quoted}: extra text: ${JSON.stringify(rest)}`;
  const [year, month, day, hour, minute, second] = numbers;
  const days = (utcMillis(year, month + 1, 1, 0, 0, 0) - utcMillis(year, month, 1, 0, 0, 0)) / 86_400_000;
  if (day < 1 || day > days) return `parsing time ${quoted}: day out of range`;
  return BigInt(utcMillis(year, month, day, hour, minute, second) / 1000);
}

function zoneExists(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const FORMAT_WORDS: Array<[string, string]> = [
  ['YYYY', '2006'],
  ['YY', '06'],
  ['MM', '01'],
  ['DD', '02'],
  ['HH', '15'],
  ['MI', '04'],
  ['SS', '05'],
];

export async function dateTimeTag(c: Call): Promise<string> {
  const r = c.r;
  const value = r.macro(c.pars.DateTime);
  if (value.length === 0 || value[0] < '0' || value[0] > '9') return '';
  const base = '1970-01-01T00:00:00';
  const padded = value.length < base.length ? value + base.slice(value.length) : value;
  let unix = parseIsoTime(padded.slice(0, 19).replace(/ /g, 'T'));
  if (typeof unix === 'string') {
    const seconds = strToInt(value);
    if (seconds <= 0n) return unix;
    unix = seconds;
  }
  let format = r.macro(c.pars.Format);
  if (!format) {
    format = (await r.langText('timeformat')).text;
    if (format === 'timeformat') format = '2006-01-02 15:04:05';
  } else {
    format = r.macro(format);
  }
  for (const [word, layout] of FORMAT_WORDS) format = format.split(word).join(layout);
  let zone = 'UTC';
  const location = r.macro(c.pars.Location);
  if (location && location !== 'UTC' && location !== 'Local') {
    if (!zoneExists(location)) return `unknown time zone ${location}`;
    zone = location;
  }
  return goTimeFormat(format, wallClock(unix, zone));
}
