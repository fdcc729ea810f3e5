/** JSON Schema (2020-12, as OpenAPI 3.1 and OpenRPC use it), written with the helpers below. */
export type JsonSchema = Record<string, unknown>;

const described = (schema: JsonSchema, description?: string): JsonSchema =>
  description ? { ...schema, description } : schema;

/** Small builders for the answers' shapes: one line per member keeps a route's description short. */
export const schema = {
  string: (description?: string) => described({ type: 'string' }, description),
  /** A number the node writes as a JSON number (64-bit values exactly, never rounded). */
  integer: (description?: string) => described({ type: 'integer' }, description),
  /** A 64-bit integer or an amount written as a decimal string. */
  decimalString: (description?: string) => described({ type: 'string', pattern: '^-?\\d+$' }, description),
  boolean: (description?: string) => described({ type: 'boolean' }, description),
  hex: (description?: string) => described({ type: 'string', pattern: '^[0-9a-fA-F]*$' }, description),
  base64: (description?: string) => described({ type: 'string', contentEncoding: 'base64' }, description),
  /** Members in the order the node writes them; all present unless listed in `optional`. */
  object: (
    properties: Record<string, JsonSchema>,
    options: { description?: string; optional?: readonly string[] } = {},
  ) =>
    described(
      {
        type: 'object',
        properties,
        required: Object.keys(properties).filter((name) => !options.optional?.includes(name)),
      },
      options.description,
    ),
  array: (items: JsonSchema, description?: string) => described({ type: 'array', items }, description),
  /** An object used as a map: any member name, each value of one shape. */
  map: (values: JsonSchema, description?: string) =>
    described({ type: 'object', additionalProperties: values }, description),
  nullable: (value: JsonSchema) => ({ oneOf: [value, { type: 'null' }] }),
  oneOf: (...options: JsonSchema[]) => ({ oneOf: options }),
  /** Any JSON value (contract results, rows of tables the ecosystem defines). */
  any: (description?: string) => described({}, description),
};
