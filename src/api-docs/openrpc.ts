import { Injectable } from '@nestjs/common';
import { RPC_CODE } from '../common/error-codes';
import type { RpcMethodDefinition } from '../rpc/rpc-method.decorator';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcParamSpec } from '../rpc/rpc-params';
import { RpcRegistry } from '../rpc/rpc-registry.service';
import { readBuildInfo } from '../system/build-info';
import { schema as s, type JsonSchema } from './schema';

const TYPE_SCHEMAS: Record<string, JsonSchema> = {
  int64: { type: 'integer', format: 'int64' },
  uint64: { type: 'integer', format: 'uint64', minimum: 0 },
  int32: { type: 'integer', format: 'int32' },
  int: { type: 'integer' },
  string: { type: 'string' },
  bool: { type: 'boolean' },
  object: { type: 'object' },
};

function paramSchema(param: RpcParamSpec): JsonSchema {
  if (param.schema) return param.schema;
  return typeof param.type === 'string' ? TYPE_SCHEMAS[param.type] : {};
}

function describeMethod(name: string, definition: RpcMethodDefinition) {
  const notes = [definition.description];
  if (definition.singleObject) notes.push('Takes one object: `params: {…}` or `params: [{…}]`.');
  if (definition.auth) notes.push('Needs a session token (`Authorization: Bearer …`).');
  const description = notes.filter(Boolean).join(' ');
  return {
    name,
    summary: definition.summary,
    ...(description ? { description } : {}),
    paramStructure: 'by-position',
    params: definition.params.map((param) => ({
      name: param.name,
      ...(param.description ? { description: param.description } : {}),
      required: !param.optional,
      schema: paramSchema(param),
    })),
    result: { name: 'result', schema: definition.result ?? {} },
    ...(definition.auth
      ? { errors: [{ code: RPC_CODE.unauthorized, message: 'Unauthorized (no session, or it expired)' }] }
      : {}),
  };
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
