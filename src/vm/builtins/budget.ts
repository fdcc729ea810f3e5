import type { BuiltinContext } from '../context';
import { MEMORY_LIMIT_EXCEEDED } from '../context';
import { panic } from '../errors';
import { goJsonEncode, goString, JSON_LENGTH, TEXT_LENGTH } from '../format';
import {
  hasTwoByteCharacter,
  isTwoByte,
  MAX_STRING_LENGTH,
  newStringCost,
  SizeFold,
  type SizeMeasure,
} from '../memory';
import type { Value } from '../values';

/**
 * What built-ins that build large values do first: work out (or bound) the size of the result, reserve its
 * memory, and charge for the work, so that an over-large result fails with "Memory limit exceeded" before
 * any of it exists.
 */

/** Reserves a string of `length` characters (two bytes each when `twoByte`) and charges for writing it. */
export function reserveText(ctx: BuiltinContext, length: number, twoByte = false): void {
  ctx.reserveMemory(newStringCost(length, twoByte));
  ctx.chargeWork(length);
}

/** The length of a value's text under `measure`, failing before building anything past the memory left. */
function measuredLength(ctx: BuiltinContext, value: Value, measure: SizeMeasure): number {
  const fold = new SizeFold(measure, textBudget(ctx));
  const length = fold.of(value);
  ctx.chargeWork(fold.visited);
  if (length === Infinity) throw panic(MEMORY_LIMIT_EXCEEDED);
  return length;
}

/** Whether any text inside a value needs two bytes per character (then so does text made of it). */
function holdsTwoByteText(value: Value): boolean {
  let found = false;
  new SizeFold({
    leaf: (item) => {
      if (typeof item === 'string' && !found && isTwoByte(item)) found = true;
      return 0;
    },
    array: () => 0,
    map: () => 0,
    key: (key) => {
      if (!found && isTwoByte(key)) found = true;
      return 0;
    },
  }).of(value);
  return found;
}

/** `goString(value)` (Go `%v`), its size reserved before it is built. */
export function textOf(ctx: BuiltinContext, value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return goString(value);
  reserveText(ctx, measuredLength(ctx, value, TEXT_LENGTH), holdsTwoByteText(value));
  return goString(value);
}

/** Reserves the text `goJsonEncode(value)` will make, and says how long it will be. */
export function sizeJson(ctx: BuiltinContext, value: Value): number {
  const length = measuredLength(ctx, value, JSON_LENGTH);
  reserveText(ctx, length, holdsTwoByteText(value));
  return length;
}

/** `goJsonEncode(value)`, its size reserved before it is built. */
export function jsonOf(ctx: BuiltinContext, value: Value): string {
  sizeJson(ctx, value);
  return goJsonEncode(value);
}

/** The largest string a built-in may still build, in characters (for those that build as they go). */
export function textBudget(ctx: BuiltinContext): number {
  return Math.min(ctx.memoryAvailable(), MAX_STRING_LENGTH);
}

/**
 * A flat copy of a piece cut from a longer string. V8 keeps a piece of 13 characters or more as a view of
 * the whole, so a short piece kept in a variable would hold all of a large text that is counted nowhere.
 */
export function detach(piece: string): string {
  if (piece.length < 13) return piece;
  return hasTwoByteCharacter(piece)
    ? Buffer.from(piece, 'utf16le').toString('utf16le')
    : Buffer.from(piece, 'latin1').toString('latin1');
}
