import 'reflect-metadata';
import { getFromContainer, getMetadataStorage, type ValidationArguments } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * A DTO is a class whose properties carry class-validator decorators: one type decorator each (which also
 * says how the wire value is read), and constraints (`IsOptional`, `MaxLength`, `IsIn`, `MinInt64` …). This
 * file reads those declarations once per class, and compiles them into a plain function that checks a DTO
 * the way class-validator's `validate()` does, without its per-call metadata lookups and promises
 * (`dto-fields.spec.ts` checks that the two agree on generated inputs). The fields are checked in the
 * node's own order (`fieldOrder`), which is class-validator's but for a DTO that extends one that extends.
 */

/** How a field's wire value is read: its text in a form or path, its JSON value in a JSON-RPC call. */
export type FieldKind =
  | 'string'
  | 'bool'
  | 'int64'
  | 'lenientInt64'
  | 'uint64'
  | 'int32'
  | 'int'
  | 'hex'
  | 'object'
  | 'array'
  | 'json';

/** class-validator type decorators (by their constraint name) and the kind of value each declares. */
const KIND_OF_TYPE_DECORATOR: Record<string, FieldKind> = {
  isString: 'string',
  isBoolean: 'bool',
  isInt64: 'int64',
  isLenientInt64: 'lenientInt64',
  isUint64: 'uint64',
  isInt32: 'int32',
  isSafeInt: 'int',
  isHexBytes: 'hex',
  isObject: 'object',
  isArray: 'array',
  isJsonValue: 'json',
};

const DESCRIPTION = Symbol('dto:description');
const FROM_PATH = Symbol('dto:from-path');
const FIRST_OF_REPEATED = Symbol('dto:first-of-repeated');
const ABSENT_AS_NIL = Symbol('dto:absent-as-nil');
const WIRE_NAMES = Symbol('dto:wire-names');
const NOT_EMPTY_OBJECT = Symbol('dto:not-empty-object');

/** Which reader takes a DTO: a REST route's form and path, or a JSON-RPC call's params. */
export type Binding = 'form' | 'rpc';

export interface FieldDescription {
  description: string;
  /** The field's JSON Schema where its decorators cannot say it (a value of several shapes). */
  schema?: Record<string, unknown>;
}

/** What a field means, for the OpenAPI and OpenRPC documents. Every field of a DTO has one. */
export function Describe(description: string, schema?: Record<string, unknown>): PropertyDecorator {
  return (target, property) =>
    Reflect.defineMetadata(DESCRIPTION, { description, schema }, target, property as string);
}

/** The field is a path parameter of its route (`:name`), not a form value. */
export function FromPath(): PropertyDecorator {
  return (target, property) => Reflect.defineMetadata(FROM_PATH, true, target, property as string);
}

/**
 * Of a form value sent more than once, the first is the field's (Go's `r.FormValue`, which some of the
 * reference's handlers use); otherwise the last wins, as its form decoder has it.
 */
export function FirstOfRepeated(): PropertyDecorator {
  return (target, property) => Reflect.defineMetadata(FIRST_OF_REPEATED, true, target, property as string);
}

/**
 * A required JSON-RPC argument that Go reads into a pointer: absent or null, it is nil for the field's
 * checks to refuse (with `NotNilParams`, "params can not be empty"), not "missing value for required
 * argument n" as a value argument's absence is.
 */
export function AbsentAsNil(): PropertyDecorator {
  return (target, property) => Reflect.defineMetadata(ABSENT_AS_NIL, true, target, property as string);
}

/**
 * The field's name on the wire where a binding names it otherwise than its property: one DTO then serves an
 * operation whose REST form and JSON-RPC call spell a value differently (the reference's `pubkey` and
 * `public_key`), instead of two classes repeating each other field for field.
 */
export function WireNames(names: Partial<Record<Binding, string>>): PropertyDecorator {
  return (target, property) => Reflect.defineMetadata(WIRE_NAMES, names, target, property as string);
}

/**
 * A one-object JSON-RPC call must name at least one of the DTO's members: absent params, null, `{}` and an
 * object of other members alike are "params can not be empty", as the reference reads them all as one
 * empty object. A form is not held to it (the reference's REST handler reads an empty form on).
 */
export function NotEmptyObject(): ClassDecorator {
  return (target) => Reflect.defineMetadata(NOT_EMPTY_OBJECT, true, target);
}

/** Whether a one-object call of this DTO must name one of its members (`NotEmptyObject`). */
export function refusesEmptyObject(dto: DtoClass): boolean {
  return Reflect.getMetadata(NOT_EMPTY_OBJECT, dto) === true;
}

/** The DTO a route handler's `@Form()` parameter declares, on the handler (for its OpenAPI description). */
export const FORM_DTO = Symbol('dto:form');

export interface DtoField {
  /** The property's name: where a reader puts the value. */
  name: string;
  /** The value's name in each binding (`WireNames`, else the property's). */
  wireName: Record<Binding, string>;
  kind: FieldKind;
  /** `IsOptional`: absent (or null) is allowed and skips the field's other checks. */
  optional: boolean;
  inPath: boolean;
  /** A form value sent more than once: the first counts (`FirstOfRepeated`), else the last. */
  firstOfRepeated: boolean;
  /** `AbsentAsNil`: a JSON-RPC argument absent or null is left for the checks, not refused as missing. */
  absentAsNil: boolean;
  description: string;
  schema?: Record<string, unknown>;
  /** The field's class-validator declarations, in the order class-validator runs them. */
  constraints: readonly ValidationMetadata[];
}

export type DtoClass<T extends object = object> = new () => T;

const fieldsCache = new WeakMap<DtoClass, readonly DtoField[]>();

/**
 * The order of a DTO's fields: its own in declaration order, then its parent's the same way, and so up.
 * A DTO that adds a value to another extends it, and the added value comes first, as the reference's
 * positional calls have it (`appParams appId [ecosystem] …` over `ecosystemParams [ecosystem] …`). A field a
 * subclass declares again with a class-validator decorator takes the subclass's place.
 */
function fieldOrder(dto: DtoClass, metadata: readonly ValidationMetadata[]): string[] {
  const order: string[] = [];
  for (let owner: unknown = dto; typeof owner === 'function' && owner !== Function.prototype;) {
    for (const meta of metadata)
      if (meta.target === owner && !order.includes(meta.propertyName)) order.push(meta.propertyName);
    owner = Object.getPrototypeOf(owner);
  }
  return order;
}

/** The fields of a DTO class in `fieldOrder`, read once. Throws on a field it could not read or check. */
export function dtoFields(dto: DtoClass): readonly DtoField[] {
  const cached = fieldsCache.get(dto);
  if (cached) return cached;
  // class-validator's metadata of a subclass: its own declarations, then the inherited ones of a kind it
  // does not declare again for the same field (a redeclared `IsInt64` replaces the parent's; a parent's
  // `IsOptional` stays unless the subclass declares one too).
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byName = new Map<string, ValidationMetadata[]>(fieldOrder(dto, metadata).map((name) => [name, []]));
  for (const meta of metadata) byName.get(meta.propertyName)!.push(meta);
  const fields = [...byName].map(([name, constraints]): DtoField => {
    const where = `${dto.name}.${name}`;
    for (const meta of constraints) {
      if (!COMPILED_TYPES.has(meta.type)) throw new Error(`${where}: ${meta.type} is not supported in a DTO`);
      if (meta.groups?.length) throw new Error(`${where}: validation groups are not supported in a DTO`);
    }
    const kinds = constraints
      .filter((meta) => !meta.each && meta.name !== undefined && meta.name in KIND_OF_TYPE_DECORATOR)
      .map((meta) => KIND_OF_TYPE_DECORATOR[meta.name!]);
    if (kinds.length !== 1)
      throw new Error(`${where}: needs exactly one type decorator, has ${kinds.length}`);
    const doc = Reflect.getMetadata(DESCRIPTION, dto.prototype as object, name) as
      FieldDescription | undefined;
    if (!doc?.description) throw new Error(`${where}: needs @Describe`);
    if (kinds[0] === 'json' && !doc.schema)
      throw new Error(`${where}: a JSON value needs its schema in @Describe`);
    const wireNames = Reflect.getMetadata(WIRE_NAMES, dto.prototype as object, name) as
      Partial<Record<Binding, string>> | undefined;
    return {
      name,
      wireName: { form: wireNames?.form ?? name, rpc: wireNames?.rpc ?? name },
      kind: kinds[0],
      optional: constraints.some(
        (meta) => meta.type === 'conditionalValidation' && meta.name === 'isOptional',
      ),
      inPath: Reflect.getMetadata(FROM_PATH, dto.prototype as object, name) === true,
      firstOfRepeated: Reflect.getMetadata(FIRST_OF_REPEATED, dto.prototype as object, name) === true,
      absentAsNil: Reflect.getMetadata(ABSENT_AS_NIL, dto.prototype as object, name) === true,
      description: doc.description,
      schema: doc.schema,
      constraints,
    };
  });
  fieldsCache.set(dto, fields);
  return fields;
}

/** The declaration types the compiled validator runs; anything else is refused when the DTO is read. */
const COMPILED_TYPES = new Set(['customValidation', 'conditionalValidation', 'isDefined']);

export interface DtoFailure {
  property: string;
  /** The constraint that failed (class-validator's name for it, e.g. `maxLength`). */
  constraint: string;
  message: string;
  /** A rule the reference applies in its handler (`handlerRule`): JSON-RPC answers its message alone. */
  answeredWhole?: true;
}

/** Checks a DTO instance: the first failure, or undefined when it is valid. */
export type DtoValidator = (dto: object) => DtoFailure | undefined;

interface ValidatorConstraint {
  validate(value: unknown, args: ValidationArguments): unknown;
  defaultMessage?(args: ValidationArguments): string;
}

type FieldCheck = (instance: Record<string, unknown>) => DtoFailure | undefined;

/** A validator's failures name each field as its binding does, or by its property without one. */
type Naming = Binding | 'property';

const checksCache = new Map<Naming, WeakMap<DtoClass, readonly FieldCheck[]>>();
const validatorCache = new Map<Naming, WeakMap<DtoClass, DtoValidator>>();

function cacheFor<T>(caches: Map<Naming, WeakMap<DtoClass, T>>, naming: Naming): WeakMap<DtoClass, T> {
  let cache = caches.get(naming);
  if (!cache) caches.set(naming, (cache = new WeakMap()));
  return cache;
}

function fieldChecks(dto: DtoClass, naming: Naming): readonly FieldCheck[] {
  const cache = cacheFor(checksCache, naming);
  let checks = cache.get(dto);
  if (!checks) {
    checks = dtoFields(dto).map((field) =>
      compileField(dto, field, naming === 'property' ? field.name : field.wireName[naming]),
    );
    cache.set(dto, checks);
  }
  return checks;
}

/**
 * The DTO's checks as one function, built once per class. It runs what class-validator's executor runs for
 * these declarations, field by field in `fieldOrder` and each field's in class-validator's order: a property
 * whose condition (`IsOptional`, `ValidateIf`) says no is skipped; otherwise every constraint's own
 * `validate` is called (on each element for `each: true`).
 */
export function dtoValidator(dto: DtoClass, naming: Naming = 'property'): DtoValidator {
  const cache = cacheFor(validatorCache, naming);
  const cached = cache.get(dto);
  if (cached) return cached;
  const checks = fieldChecks(dto, naming);
  const validator: DtoValidator = (instance) => {
    for (const check of checks) {
      const failure = check(instance as Record<string, unknown>);
      if (failure) return failure;
    }
    return undefined;
  };
  cache.set(dto, validator);
  return validator;
}

/** Every field's first failure, in `fieldOrder` (class-validator's `validate()` reports the same fields). */
export function dtoFailures(dto: DtoClass, instance: object): DtoFailure[] {
  return fieldChecks(dto, 'property')
    .map((check) => check(instance as Record<string, unknown>))
    .filter((failure): failure is DtoFailure => failure !== undefined);
}

function compileField(
  dto: DtoClass,
  field: DtoField,
  /** The field's name in the failures (the property's, or its binding's wire name). */
  named: string,
): (instance: Record<string, unknown>) => DtoFailure | undefined {
  const conditions = field.constraints
    .filter((meta) => meta.type === 'conditionalValidation')
    .map((meta) => meta.constraints[0] as (object: object, value: unknown) => boolean);
  const rules = field.constraints
    .filter((meta) => meta.type !== 'conditionalValidation')
    .map((meta) => ({
      meta,
      constraint: getFromContainer(meta.constraintCls as new () => ValidatorConstraint),
    }));
  const property = field.name;
  return (instance) => {
    const value = instance[property];
    for (const condition of conditions) if (!condition(instance, value)) return undefined;
    for (const { meta, constraint } of rules) {
      const args: ValidationArguments = {
        targetName: dto.name,
        property: named,
        object: instance,
        value,
        constraints: meta.constraints,
      };
      const valid =
        meta.each && Array.isArray(value)
          ? value.every((item: unknown) => holds(constraint.validate(item, { ...args, value: item })))
          : holds(constraint.validate(value, args));
      if (!valid) {
        const failure: DtoFailure = {
          property: named,
          constraint: meta.name ?? meta.type,
          message: messageOf(meta, constraint, args),
        };
        if ((meta.context as { answeredWhole?: boolean } | undefined)?.answeredWhole)
          failure.answeredWhole = true;
        return failure;
      }
    }
    return undefined;
  };
}

function holds(result: unknown): boolean {
  if (result instanceof Promise) throw new Error('asynchronous validators are not supported in a DTO');
  return Boolean(result);
}

/**
 * A message declared as a function is the constraint's text as it is (it may quote the value, which may
 * hold a token); a declared or default template gets class-validator's `$property`-style tokens filled in.
 */
function messageOf(
  meta: ValidationMetadata,
  constraint: ValidatorConstraint,
  args: ValidationArguments,
): string {
  if (typeof meta.message === 'function') return meta.message(args);
  const template = meta.message ?? constraint.defaultMessage?.(args) ?? `${args.property} is invalid`;
  return template
    .replace(/\$property/g, args.property)
    .replace(/\$target/g, args.targetName)
    .replace(/\$value/g, () => textOf(args.value))
    .replace(/\$constraint(\d+)/g, (_, index: string) => String(args.constraints?.[Number(index) - 1]));
}

function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
