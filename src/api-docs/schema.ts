/** JSON Schema (2020-12, as OpenAPI 3.1 and OpenRPC use it), written with the helpers below. */
export type JsonSchema = Record<string, unknown>;

declare const VALUE: unique symbol;

/**
 * A JSON Schema that also carries, for the compiler only, the type of the values it describes: an answer
 * declared once as a schema gives the service, the API description and the SDK the same shape
 * (`ValueOf<typeof X>`). The member never exists at run time.
 */
export type Schema<T> = JsonSchema & { readonly [VALUE]?: T };

/** The type of the values a schema describes (`unknown` for a plain one). */
export type ValueOf<S> = S extends { readonly [VALUE]?: infer T } ? T : unknown;

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** An object's members: the optional ones may be absent. */
type ObjectOf<P extends Record<string, JsonSchema>, O extends keyof P> = Flat<
  { [K in Exclude<keyof P, O>]: ValueOf<P[K]> } & { [K in O]?: ValueOf<P[K]> }
>;

const described = <T>(schema: JsonSchema, description?: string): Schema<T> =>
  description ? { ...schema, description } : schema;

/** Small builders for the answers' shapes: one line per member keeps a route's description short. */
export const schema = {
  string: (description?: string) => described<string>({ type: 'string' }, description),
  /**
   * A number the node writes as a JSON number (64-bit values exactly, never rounded): a bigint in the
   * node, and in a client reading it exactly beyond 2^53.
   */
  integer: (description?: string) => described<number | bigint>({ type: 'integer' }, description),
  /** An integer the node holds as a JS number, far below 2^53 (a count, a position in a list). */
  smallInteger: (description?: string) => described<number>({ type: 'integer' }, description),
  /** A 64-bit integer or an amount written as a decimal string. */
  decimalString: (description?: string) =>
    described<string>({ type: 'string', pattern: '^-?\\d+$' }, description),
  boolean: (description?: string) => described<boolean>({ type: 'boolean' }, description),
  hex: (description?: string) =>
    described<string>({ type: 'string', pattern: '^[0-9a-fA-F]*$' }, description),
  base64: (description?: string) =>
    described<string>({ type: 'string', contentEncoding: 'base64' }, description),
  /** Members in the order the node writes them; all present unless listed in `optional`. */
  object: <P extends Record<string, JsonSchema>, O extends keyof P & string = never>(
    properties: P,
    options: { description?: string; optional?: readonly O[] } = {},
  ) =>
    described<ObjectOf<P, O>>(
      {
        type: 'object',
        properties,
        required: Object.keys(properties).filter((name) => !options.optional?.includes(name as O)),
      },
      options.description,
    ),
  array: <S extends JsonSchema>(items: S, description?: string) =>
    described<ValueOf<S>[]>({ type: 'array', items }, description),
  /** An object used as a map: any member name, each value of one shape. */
  map: <S extends JsonSchema>(values: S, description?: string) =>
    described<Record<string, ValueOf<S>>>({ type: 'object', additionalProperties: values }, description),
  nullable: <S extends JsonSchema>(value: S): Schema<ValueOf<S> | null> => ({
    oneOf: [value, { type: 'null' }],
  }),
  oneOf: <S extends JsonSchema[]>(...options: S): Schema<ValueOf<S[number]>> => ({ oneOf: options }),
  /** Any JSON value (contract results, rows of tables the ecosystem defines). */
  any: (description?: string) => described<unknown>({}, description),
  /**
   * A value the node holds as something the schema cannot name (a rendered tree kept as the JSON text it
   * was written as): described by `schema`, typed `T` for the compiler.
   */
  writtenAs: <T>(schema: JsonSchema): Schema<T> => schema,
};
