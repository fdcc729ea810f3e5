import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import {
  dtoFields,
  dtoValidator,
  FORM_DTO,
  type DtoClass,
  type DtoValidator,
  type FieldKind,
} from '../common/dto/dto-fields';
import { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, UINT64_MAX } from '../common/dto/validators';
import { lenientInt64 } from './path-params';
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
    return new FormValues(formEntries(req));
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
  const values = new Map<string, string>();
  for (const [name, value] of formEntries(req)) if (!values.has(name)) values.set(name, value);
  return values;
}

/** A request's form values in the reference's source order: query then fields for multipart, else body then query. */
function formEntries(req: ApiRequest): [string, string][] {
  const query = parsedEntries(req.query);
  if (req.multipartFields) return [...query, ...req.multipartFields];
  const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? req.body : {};
  return [...parsedEntries(body), ...query];
}

/** The text values of a parsed query string or urlencoded body, repeated names kept in order. */
function parsedEntries(query: unknown): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value])
      if (typeof item === 'string') entries.push([name, item]);
  }
  return entries;
}

const TRUE_WORDS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', 'on']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** An integer in text, within [min, max]: Go's strconv rules (a sign, digits, no spaces or fractions). */
function integerText(text: string, min: bigint, max: bigint): bigint {
  if (!/^[+-]?\d{1,20}$/.test(text)) throw new Error();
  const value = BigInt(text);
  if (value < min || value > max) throw new Error();
  return value;
}

/** A form or path DTO field's value read from its text: each kind as the reference's form decoder reads it. */
const TEXT_READERS: Record<FieldKind, ((text: string) => unknown) | undefined> = {
  string: (text) => text,
  bool: (text) => {
    if (TRUE_WORDS.has(text)) return true;
    if (FALSE_WORDS.has(text)) return false;
    throw new Error();
  },
  int64: (text) => integerText(text, INT64_MIN, INT64_MAX),
  lenientInt64: lenientInt64,
  uint64: (text) => integerText(text, 0n, UINT64_MAX),
  int32: (text) => Number(integerText(text, BigInt(INT32_MIN), BigInt(INT32_MAX))),
  int: (text) => Number(integerText(text, BigInt(Number.MIN_SAFE_INTEGER), BigInt(Number.MAX_SAFE_INTEGER))),
  hex: (text) => {
    if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text))
      throw new Error('encoding/hex: invalid hex text');
    return Buffer.from(text, 'hex');
  },
  object: undefined,
  array: undefined,
  json: undefined,
};

interface FormPlan {
  fields: {
    /** The DTO property the value goes to. */
    property: string;
    /** Its name in the form or path. */
    name: string;
    inPath: boolean;
    firstOfRepeated: boolean;
    read: (text: string) => unknown;
  }[];
  hasForm: boolean;
  validator: DtoValidator;
}

const plans = new WeakMap<DtoClass, FormPlan>();

/** How a DTO is read from a request, worked out once per class (when the route is declared). */
function formPlan(dto: DtoClass): FormPlan {
  let plan = plans.get(dto);
  if (plan) return plan;
  const fields = dtoFields(dto).map((field) => {
    const read = TEXT_READERS[field.kind];
    if (!read) throw new Error(`${dto.name}.${field.name}: a ${field.kind} cannot be sent in a form`);
    return {
      property: field.name,
      name: field.wireName.form,
      inPath: field.inPath,
      firstOfRepeated: field.firstOfRepeated,
      read,
    };
  });
  plan = { fields, hasForm: fields.some((field) => !field.inPath), validator: dtoValidator(dto, 'form') };
  plans.set(dto, plan);
  return plan;
}

/**
 * A route's input as its DTO: path parameters and form values (names matched case-insensitively, the last
 * of repeated names winning; an empty value counts as absent), read as the DTO's types say, then checked by
 * its constraints. A value that does not convert fails with the reference's error text (400 E_SERVER
 * "schema: error converting value for \"limit\""); a broken constraint with its message, also E_SERVER.
 */
export function readForm<T extends object>(dto: DtoClass<T>, req: ApiRequest): T {
  const plan = formPlan(dto);
  const form = plan.hasForm ? FormValues.of(req) : undefined;
  const params = (req.params ?? {}) as Record<string, string | undefined>;
  const input = new dto() as Record<string, unknown>;
  const failures: string[] = [];
  let details = '';
  for (const field of plan.fields) {
    const text = field.inPath
      ? params[field.name]
      : field.firstOfRepeated
        ? form!.first(field.name)
        : form!.last(field.name);
    if (text === undefined || text === '') continue;
    try {
      input[field.property] = field.read(text);
    } catch (error) {
      if (failures.length === 0 && (error as Error).message)
        details = `. Details: ${(error as Error).message}`;
      failures.push(field.name);
    }
  }
  if (failures.length > 0) throw conversionError(failures, details);
  const failure = plan.validator(input);
  if (failure) throw ApiError.server(failure.message);
  return input as T;
}

function conversionError(failures: string[], details: string): ApiError {
  const others = failures.length - 1;
  const suffix = others > 0 ? ` (and ${others} other error${others > 1 ? 's' : ''})` : '';
  return ApiError.server(`schema: error converting value for "${failures[0]}"${details}${suffix}`);
}

const formParameter = createParamDecorator(
  ({ dto, status }: { dto: DtoClass; status?: number }, context: ExecutionContext) => {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    if (status === undefined) return readForm(dto, req);
    try {
      return readForm(dto, req);
    } catch (error) {
      throw error instanceof ApiError ? error.withStatus(status) : error;
    }
  },
);

/**
 * The route's path and form values as the DTO the parameter is typed with (`@Form() form: ListForm`),
 * validated. `status`: the HTTP status of a refusal where the reference answers with another than 400.
 * The DTO is read and its validator built here, when the controller is declared.
 */
export function Form(options: { status?: number } = {}): ParameterDecorator {
  return (target, key, index) => {
    const types = Reflect.getMetadata('design:paramtypes', target, key!) as unknown[] | undefined;
    const dto = types?.[index];
    if (typeof dto !== 'function' || dto === Object) {
      throw new Error(
        `${target.constructor.name}.${String(key)}: @Form() needs a parameter typed with a DTO class`,
      );
    }
    formPlan(dto as DtoClass);
    Reflect.defineMetadata(FORM_DTO, dto, (target as Record<string | symbol, object>)[key!]);
    formParameter({ dto: dto as DtoClass, status: options.status })(target, key, index);
  };
}
