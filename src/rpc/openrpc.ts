import { Injectable } from '@nestjs/common';
import { ERROR_CODES, RPC_CODE, type ErrorCode, type ErrorCodeSpec } from '../common/error-codes';
import { HANDLER_CRASHED } from './rpc-error';
import type { RpcMethodDefinition } from './rpc-method.decorator';
import { RpcMethod } from './rpc-method.decorator';
import { declaredName, RpcRegistry } from './rpc-registry.service';
import { apiExamples } from '../api-docs/examples';
import { readBuildInfo } from '../common/build-info';
import { schema as s } from '../api-docs/schema';
import { dtoObjectSchema, fieldSchema } from '../api-docs/dto-schema';
import { dtoFields, refusesEmptyObject, type DtoClass } from '../common/dto/dto-fields';

/** A params DTO as OpenRPC parameters: its fields by position, or the one object a single-object method takes. */
function dtoParams(dto: DtoClass, singleObject: boolean) {
  const fields = dtoFields(dto);
  if (singleObject) {
    const notEmpty = refusesEmptyObject(dto);
    const schema = dtoObjectSchema(dto, 'rpc');
    return [
      {
        name: 'params',
        description: notEmpty
          ? 'one object with these members, at least one of them (not empty)'
          : 'one object with these members',
        required: notEmpty || fields.some((field) => !field.optional),
        schema: notEmpty
          ? { ...schema, anyOf: fields.map((field) => ({ required: [field.wireName.rpc] })) }
          : schema,
      },
    ];
  }
  return fields.map((field) => ({
    name: field.wireName.rpc,
    description: field.description,
    required: !field.optional,
    schema: fieldSchema(field),
  }));
}

/**
 * The recorded example as OpenRPC has it: the params by name (the one object of a single-object method as
 * `params`), and the result.
 */
function methodExamples(name: string, params: { name: string }[]) {
  const example = apiExamples().rpc[declaredName(name)];
  if (!example) return {};
  const values = Array.isArray(example.params) ? example.params : [example.params];
  return {
    examples: [
      {
        name: `${name}: recorded from a node`,
        params: values.map((value, index) => ({ name: params[index]?.name ?? `param${index}`, value })),
        result: { name: 'result', value: example.result },
      },
    ],
  };
}

function describeMethod(name: string, definition: RpcMethodDefinition) {
  const notes = [definition.description];
  if (definition.singleObject) notes.push('Takes one object: `params: {…}` or `params: [{…}]`.');
  if (definition.auth) notes.push('Needs a session token (`Authorization: Bearer …`).');
  const description = notes.filter(Boolean).join(' ');
  const params = definition.input ? dtoParams(definition.input, definition.singleObject) : [];
  return {
    name,
    summary: definition.summary,
    ...(description ? { description } : {}),
    paramStructure: 'by-position',
    params,
    result: { name: 'result', schema: definition.result ?? {} },
    errors: methodErrors(definition),
    ...methodExamples(name, params),
  };
}

interface MethodError {
  code: number;
  message: string;
  /** The REST error code of the same failure, where there is one. */
  data?: ErrorCode;
}

function codeError(code: ErrorCode): MethodError {
  const spec: ErrorCodeSpec = ERROR_CODES[code];
  return { code: spec.rpcCode, message: spec.rpcMessage ?? spec.message, data: code };
}

/**
 * The errors a method may answer with: its declared domain errors, then those the gateway adds — invalid
 * params (when it takes any), unauthorized or expired (with a session), the node updating or stopped (every
 * method), the internal error — one entry per JSON-RPC code and message.
 */
function methodErrors(definition: RpcMethodDefinition): MethodError[] {
  const errors = definition.errors.map(codeError);
  if (definition.input) {
    errors.push({
      code: RPC_CODE.invalidParams,
      message: 'a parameter is missing, of the wrong type or out of range (the message names it)',
    });
  }
  if (definition.auth) errors.push(codeError('E_UNAUTHORIZED'), codeError('E_TOKENEXPIRED'));
  errors.push(codeError('E_UPDATING'), codeError('E_STOPPING'));
  errors.push({ code: RPC_CODE.internalError, message: HANDLER_CRASHED });
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.code} ${error.message}`;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/**
 * `rpc.discover`: the JSON-RPC methods this node serves now (its enabled namespaces), with their
 * parameters and results, as an OpenRPC 1.2 document built from the `@RpcMethod` declarations.
 */
@Injectable()
export class OpenRpcDiscovery {
  constructor(private readonly registry: RpcRegistry) {}

  document() {
    return {
      openrpc: '1.2.6',
      info: {
        title: 'IBAX node: JSON-RPC',
        version: readBuildInfo().version,
        description:
          'JSON-RPC 2.0 at `/` and `/rpc` (POST, or GET with a JSON body). The chain namespace is served as ' +
          'both `ibax.` and `chain.`. Protocol errors use the JSON-RPC 2.0 codes; domain errors the ' +
          "reference node's (-32014 unauthorized, -32013 unknown uid, -32012 not found, -32000 others).",
      },
      methods: this.registry.served().map(([name, definition]) => describeMethod(name, definition)),
    };
  }

  @RpcMethod('discover', {
    namespaces: ['rpc'],
    summary: 'The JSON-RPC methods served now, with their parameters and results (an OpenRPC document)',
    result: s.object(
      {
        openrpc: s.string('the OpenRPC version'),
        info: s.object({ title: s.string(), version: s.string(), description: s.string() }),
        methods: s.array(s.object({ name: s.string(), params: s.array(s.object({})), result: s.object({}) })),
      },
      { description: 'OpenRPC document (https://spec.open-rpc.org)' },
    ),
  })
  discover() {
    return this.document();
  }
}
