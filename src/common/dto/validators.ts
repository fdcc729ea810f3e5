import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * class-validator decorators for the node's wire types, which class-validator has no word for: 64-bit
 * integers (held as bigint), byte strings sent as hex (held as Buffer), and values kept as the JSON they came
 * as. With class-validator's own `IsString`, `IsBoolean`, `IsObject`, `IsIn`, `MaxLength`, `IsOptional`, they
 * declare a DTO's fields; the type decorator of a field also says how its wire text or JSON is read
 * (`dto-fields.ts`).
 */

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const UINT64_MAX = 2n ** 64n - 1n;
export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;

const bigintIn = (value: unknown, min: bigint, max: bigint) =>
  typeof value === 'bigint' && value >= min && value <= max;

/** A signed 64-bit integer (Go's int64). */
export const IsInt64 = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isInt64',
      validator: {
        validate: (value) => bigintIn(value, INT64_MIN, INT64_MAX),
        defaultMessage: (args) => `${args?.property} must be a 64-bit integer`,
      },
    },
    options,
  );

/**
 * A signed 64-bit integer read the reference's lenient way from a path: text that is not a number is 0,
 * one out of range is clamped, so `/block/abc` is block 0 (not found) rather than a parse error.
 */
export const IsLenientInt64 = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isLenientInt64',
      validator: {
        validate: (value) => bigintIn(value, INT64_MIN, INT64_MAX),
        defaultMessage: (args) => `${args?.property} must be a 64-bit integer`,
      },
    },
    options,
  );

/** An unsigned 64-bit integer (Go's uint64). */
export const IsUint64 = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isUint64',
      validator: {
        validate: (value) => bigintIn(value, 0n, UINT64_MAX),
        defaultMessage: (args) => `${args?.property} must be an unsigned 64-bit integer`,
      },
    },
    options,
  );

/** A signed 32-bit integer (Go's int32), held as a number. */
export const IsInt32 = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isInt32',
      validator: {
        validate: (value) =>
          typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX,
        defaultMessage: (args) => `${args?.property} must be a 32-bit integer`,
      },
    },
    options,
  );

/** An integer JavaScript holds exactly (Go's int where the node uses it as a count), held as a number. */
export const IsSafeInt = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isSafeInt',
      validator: {
        validate: (value) => Number.isSafeInteger(value),
        defaultMessage: (args) => `${args?.property} must be an integer of at most 53 bits`,
      },
    },
    options,
  );

/** Bytes, sent as hex text. */
export const IsHexBytes = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isHexBytes',
      validator: {
        validate: (value) => Buffer.isBuffer(value),
        defaultMessage: (args) => `${args?.property} must be bytes in hex`,
      },
    },
    options,
  );

/** Any JSON value, kept as it came (numbers as exact text); the operation reads its shape. */
export const IsJsonValue = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isJsonValue',
      validator: {
        validate: (value) => value !== undefined,
        defaultMessage: (args) => `${args?.property} must be a JSON value`,
      },
    },
    options,
  );

/** The least a 64-bit integer field may be. */
export const MinInt64 = (min: bigint, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'minInt64',
      constraints: [min],
      validator: {
        validate: (value) => typeof value === 'bigint' && value >= min,
        defaultMessage: (args) => `${args?.property} must not be less than ${min}`,
      },
    },
    options,
  );

/** The most a 64-bit integer field may be. */
export const MaxInt64 = (max: bigint, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'maxInt64',
      constraints: [max],
      validator: {
        validate: (value) => typeof value === 'bigint' && value <= max,
        defaultMessage: (args) => `${args?.property} must not be greater than ${max}`,
      },
    },
    options,
  );

/** Why `read` refuses the value (its error's text), or undefined when it reads. */
function refusalOf(read: (value: unknown) => unknown, value: unknown): string | undefined {
  try {
    read(value);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The value reads with `read`, a function that throws with the text to answer: for a JSON value of several
 * shapes, which the handler then reads with the same function.
 */
export const ReadsWith = (name: string, read: (value: unknown) => unknown) =>
  ValidateBy(
    { name, validator: { validate: (value) => refusalOf(read, value) === undefined } },
    // A message function: the refusal's text is answered as it is, never read as a template.
    { message: (args) => refusalOf(read, args.value) ?? `${args.property} is invalid` },
  );

/**
 * The options of a rule the reference applies in its JSON-RPC handler, after decoding the arguments: its
 * refusal, `message`, is answered whole (-32602 with the message alone, no "invalid argument n:" before
 * it). Declared on the field, the rule also shows in the method's description.
 */
export const handlerRule = (
  message: string | ((args: ValidationArguments) => string),
): ValidationOptions => ({
  message,
  context: { answeredWhole: true },
});

/** The reference's refusal of a JSON-RPC number its handler finds out of range: "params 0 invalid". */
export const paramsValueInvalid = (args: ValidationArguments) =>
  // A JSON-RPC reader only ever gives a bigint here; anything else has failed the field's type already.
  `params ${typeof args.value === 'bigint' ? args.value.toString() : typeof args.value} invalid`;

/** The reference's answer to a JSON-RPC argument its handler refuses as missing (and, in some methods, out of range). */
export const PARAMS_CAN_NOT_BE_EMPTY = 'params can not be empty';

/** A rule that refuses what `isEmpty` calls empty with {@link PARAMS_CAN_NOT_BE_EMPTY}. */
export const refusedWhenEmpty = (name: string, isEmpty: (value: unknown) => boolean) =>
  ValidateBy(
    { name, validator: { validate: (value) => !isEmpty(value) } },
    handlerRule(PARAMS_CAN_NOT_BE_EMPTY),
  );

/**
 * The value must be there and not empty text: absent, null (a required argument's zero value) and `""`
 * are refused with {@link PARAMS_CAN_NOT_BE_EMPTY}. It runs in its place among the field's checks: nearest
 * the property it runs first (a text absent from a one-object call is empty, not of the wrong type); above
 * a rule that checks a JSON value's shape it runs after that rule, as the reference decodes a value before
 * its handler finds it empty.
 */
export const NotEmptyParams = () =>
  refusedWhenEmpty('notEmptyParams', (value) => value === undefined || value === null || value === '');

/**
 * {@link NotEmptyParams} for a value Go reads into a pointer (with `AbsentAsNil`): only absent and null
 * are empty; an empty text is a value, for the field's own checks.
 */
export const NotNilParams = () =>
  refusedWhenEmpty('notNilParams', (value) => value === undefined || value === null);
