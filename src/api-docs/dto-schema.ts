import {
  dtoFields,
  type Binding,
  type DtoClass,
  type DtoField,
  type FieldKind,
} from '../common/dto/dto-fields';
import type { JsonSchema } from './schema';

/** A DTO field's JSON Schema: its kind's, narrowed by its constraints (lengths, ranges, allowed values). */
export function fieldSchema(field: DtoField): JsonSchema {
  if (field.schema) return { ...field.schema };
  const schema: JsonSchema = { ...KIND_SCHEMAS[field.kind] };
  for (const meta of field.constraints) {
    const [first] = meta.constraints ?? [];
    switch (meta.name) {
      case 'maxLength':
        schema.maxLength = first;
        break;
      case 'minLength':
        schema.minLength = first;
        break;
      case 'isIn':
        schema.enum = first;
        break;
      case 'minInt64':
      case 'maxInt64':
        // Beyond 2^53 a JSON Schema number cannot hold the bound exactly; the text keeps it.
        schema[meta.name === 'minInt64' ? 'minimum' : 'maximum'] = Number(first as bigint);
        break;
      case 'isString':
        if (meta.each && field.kind === 'array') schema.items = { type: 'string' };
        break;
    }
  }
  return schema;
}

const KIND_SCHEMAS: Record<FieldKind, JsonSchema> = {
  string: { type: 'string' },
  bool: { type: 'boolean' },
  int64: { type: 'integer', format: 'int64' },
  lenientInt64: { type: 'integer', format: 'int64' },
  uint64: { type: 'integer', format: 'uint64', minimum: 0 },
  int32: { type: 'integer', format: 'int32' },
  int: { type: 'integer' },
  hex: { type: 'string', pattern: '^[0-9a-fA-F]*$' },
  object: { type: 'object' },
  array: { type: 'array' },
  json: {},
};

/** A DTO as one object's schema: its fields as members (named as `binding` names them), the ones not optional required. */
export function dtoObjectSchema(dto: DtoClass, binding: Binding, description?: string): JsonSchema {
  const fields = dtoFields(dto);
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties: Object.fromEntries(
      fields.map((field) => [
        field.wireName[binding],
        { ...fieldSchema(field), description: field.description },
      ]),
    ),
    required: fields.filter((field) => !field.optional).map((field) => field.wireName[binding]),
  };
}
