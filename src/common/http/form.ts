import { ApiError } from '../api-error';
import type { ApiRequest } from './api-request';

/**
 * The request's form values, names matched case-insensitively. Where a name repeats, the last value wins
 * with the reference's source order: query then body for multipart, body then query otherwise.
 */
export class FormValues {
  private readonly values = new Map<string, string[]>();

  constructor(entries: Iterable<[string, string]>) {
    for (const [name, value] of entries) {
      const key = name.toLowerCase();
      const list = this.values.get(key);
      if (list) list.push(value);
      else this.values.set(key, [value]);
    }
  }

  static of(req: ApiRequest): FormValues {
    const query = queryEntries(req.query);
    if (req.multipartFields) return new FormValues([...query, ...req.multipartFields]);
    const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? req.body : {};
    return new FormValues([...bodyEntries(body as Record<string, unknown>), ...query]);
  }

  last(name: string): string | undefined {
    const list = this.values.get(name.toLowerCase());
    return list?.[list.length - 1];
  }

  first(name: string): string | undefined {
    return this.values.get(name.toLowerCase())?.[0];
  }

  entries(): [string, string][] {
    return [...this.values].map(([name, list]) => [name, list[list.length - 1]]);
  }
}

/**
 * Every form value by its name as sent (case kept), the first of repeated names winning, in the reference's
 * source order (`r.FormValue`): body then query for urlencoded, query then fields for multipart. Page
 * variables are read this way.
 */
export function firstFormValues(req: ApiRequest): Map<string, string> {
  const query = queryEntries(req.query);
  const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? req.body : {};
  const entries = req.multipartFields
    ? [...query, ...req.multipartFields]
    : [...bodyEntries(body as Record<string, unknown>), ...query];
  const values = new Map<string, string>();
  for (const [name, value] of entries) if (!values.has(name)) values.set(name, value);
  return values;
}

function queryEntries(query: unknown): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value])
      if (typeof item === 'string') entries.push([name, item]);
  }
  return entries;
}

function bodyEntries(body: Record<string, unknown>): [string, string][] {
  return queryEntries(body);
}

export type FormFieldType = 'int64' | 'int' | 'bool' | 'string' | 'hex';
type FieldValue<T extends FormFieldType> = T extends 'int64'
  ? bigint
  : T extends 'int'
    ? number
    : T extends 'bool'
      ? boolean
      : T extends 'hex'
        ? Buffer
        : string;
export type FormSpec = Record<string, FormFieldType>;
export type ParsedForm<S extends FormSpec> = { [K in keyof S]?: FieldValue<S[K]> };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const TRUE_WORDS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', 'on']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function convert(type: FormFieldType, text: string): unknown {
  switch (type) {
    case 'string':
      return text;
    case 'int64':
    case 'int': {
      if (!/^[+-]?\d{1,19}$/.test(text)) throw new Error();
      const value = BigInt(text);
      if (value < INT64_MIN || value > INT64_MAX) throw new Error();
      if (type === 'int64') return value;
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
        throw new Error();
      return Number(value);
    }
    case 'bool':
      if (TRUE_WORDS.has(text)) return true;
      if (FALSE_WORDS.has(text)) return false;
      throw new Error();
    case 'hex':
      if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text))
        throw new Error('encoding/hex: invalid hex text');
      return Buffer.from(text, 'hex');
  }
}

/**
 * Typed form fields. An empty value counts as absent; a value that does not convert fails the request with
 * the reference's error text (400 E_SERVER "schema: error converting value for \"limit\"").
 */
export function parseForm<S extends FormSpec>(form: FormValues, spec: S): ParsedForm<S> {
  const parsed: Record<string, unknown> = {};
  const failures: string[] = [];
  let details = '';
  for (const [name, type] of Object.entries(spec)) {
    const text = form.last(name);
    if (text === undefined || text === '') continue;
    try {
      parsed[name] = convert(type, text);
    } catch (error) {
      if (failures.length === 0 && (error as Error).message)
        details = `. Details: ${(error as Error).message}`;
      failures.push(name);
    }
  }
  if (failures.length > 0) {
    const others = failures.length - 1;
    const suffix = others > 0 ? ` (and ${others} other error${others > 1 ? 's' : ''})` : '';
    throw ApiError.server(`schema: error converting value for "${failures[0]}"${details}${suffix}`);
  }
  return parsed as ParsedForm<S>;
}
