import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtension,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
} from '@nestjs/swagger';
import { dtoFields, FORM_DTO, type DtoClass } from '../common/dto/dto-fields';
import type { ErrorCode } from '../common/error-codes';
import { fieldSchema } from './dto-schema';
import { schema as s, type JsonSchema } from './schema';

/** A value: its description, or the description with a schema (a string when none is given). */
export type FieldDoc = string | { description: string; schema?: JsonSchema; required?: boolean };

export interface RouteDoc {
  /** One line: what the route gives (the operation's title). */
  summary: string;
  /**
   * What a client needs beyond the summary: what is read, from where, in which encoding, what the values
   * mean, when it fails. Every route has one (`test/ops/api-description.e2e.ts`).
   */
  description: string;
  /** Path parameters by name (all required). */
  path?: Record<string, FieldDoc>;
  /**
   * Form values, read as the reference reads them: the query string, and for POST also an urlencoded or
   * multipart body. Optional unless marked `required`.
   */
  form?: Record<string, FieldDoc>;
  /** The answer with status 200 (the node's JSON unless `produces` says otherwise). */
  answer: JsonSchema;
  /** Media type of the answer when it is not JSON (text, images, files). */
  produces?: string;
  /** Error codes this route answers with in the `{error,msg,params}` envelope; the common ones are added. */
  errors?: ErrorCode[];
}

/** The security scheme of routes that need a session (a bearer JWT from login). */
export const SESSION_AUTH = 'session';

/** The OpenAPI extension listing a route's error codes; the document builder turns it into responses. */
export const ERROR_CODES_EXTENSION = 'x-error-codes';

/** The OpenAPI extension marking a route a CLB node does not serve (`@BlockchainRoute`). */
export const BLOCKCHAIN_ONLY_EXTENSION = 'x-blockchain-only';

function field(doc: FieldDoc): { description: string; schema: JsonSchema; required: boolean } {
  if (typeof doc === 'string') return { description: doc, schema: s.string(), required: false };
  return { description: doc.description, schema: doc.schema ?? s.string(), required: doc.required ?? false };
}

/**
 * Describes a REST route for the OpenAPI document (`/api/v2/openapi.json`, `/api/docs`): what it does, its
 * path and form values, its answer and its error codes. Every route has one: `test/ops/api-description`
 * fails on a route without it.
 */
export function ApiRoute(doc: RouteDoc, method: 'GET' | 'POST' = 'GET'): MethodDecorator {
  return (target, key, descriptor) => {
    const dto = Reflect.getMetadata(FORM_DTO, descriptor.value as object) as DtoClass | undefined;
    if (dto && (doc.path || doc.form)) {
      throw new Error(
        `${target.constructor.name}.${String(key)}: its values are declared by its @Form() DTO`,
      );
    }
    routeDecorators(dto ? { ...doc, ...dtoDocs(dto) } : doc, method)(target, key, descriptor);
  };
}

/** A DTO's fields as the route's path parameters and form values. */
function dtoDocs(dto: DtoClass): Pick<RouteDoc, 'path' | 'form'> {
  const path: Record<string, FieldDoc> = {};
  const form: Record<string, FieldDoc> = {};
  for (const field of dtoFields(dto)) {
    const doc = { description: field.description, schema: fieldSchema(field), required: !field.optional };
    if (field.inPath) path[field.wireName.form] = doc;
    else form[field.wireName.form] = doc;
  }
  return { path, form };
}

function routeDecorators(doc: RouteDoc, method: 'GET' | 'POST'): MethodDecorator {
  const decorators: (MethodDecorator | ClassDecorator)[] = [
    ApiOperation({ summary: doc.summary, description: doc.description }),
    ApiOkResponse({ description: doc.summary, schema: doc.answer as never }),
    ApiExtension(ERROR_CODES_EXTENSION, doc.errors ?? []),
    ApiProduces(doc.produces ?? 'application/json'),
  ];
  for (const [name, value] of Object.entries(doc.path ?? {})) {
    const { description, schema } = field(value);
    decorators.push(ApiParam({ name, description, required: true, schema: schema as never }));
  }
  const form = Object.entries(doc.form ?? {}).map(([name, value]) => ({ name, ...field(value) }));
  if (method === 'GET') {
    for (const { name, description, schema, required } of form) {
      decorators.push(ApiQuery({ name, description, required, schema: schema as never }));
    }
  } else if (form.length > 0) {
    decorators.push(
      ApiConsumes('application/x-www-form-urlencoded', 'multipart/form-data'),
      ApiBody({
        schema: {
          type: 'object',
          properties: Object.fromEntries(
            form.map((f) => [f.name, { ...f.schema, description: f.description }]),
          ),
          required: form.filter((f) => f.required).map((f) => f.name),
        } as never,
      }),
    );
  }
  return applyDecorators(...decorators);
}

/** `@ApiRoute` for a POST route. */
export const ApiPostRoute = (doc: RouteDoc) => ApiRoute(doc, 'POST');
