import { SetMetadata } from '@nestjs/common';
import type { JsonSchema } from '../api-docs/schema';
import { getMetadataStorage } from 'class-validator';
import type { DtoClass } from '../common/dto/dto-fields';
import type { ErrorCode } from '../common/error-codes';
import { paramsPlan } from './rpc-params';

/** `chain` stands for the chain namespace, served under both `ibax.` (reference, SDK) and `chain.`. */
export type RpcNamespaceGroup = 'chain' | 'net' | 'rpc' | 'admin' | 'debug';

export interface RpcMethodOptions {
  /** One line on what the method does (OpenRPC `summary`, `rpc.discover`); the description test demands it. */
  summary?: string;
  /** More on the method where one line is not enough. */
  description?: string;
  /** The shape of the result (JSON Schema). */
  result?: JsonSchema;
  /** Namespaces the method is served in; default `chain`. */
  namespaces?: RpcNamespaceGroup[];
  /** Needs a logged-in caller (a session token with a key id). */
  auth?: boolean;
  /**
   * The domain errors the method answers with (as their JSON-RPC codes and messages in `rpc.discover`).
   * Invalid params (when it takes any), unauthorized (with `auth`) and the internal error are added.
   */
  errors?: ErrorCode[];
  /**
   * The method takes one object: `params: {…}` and `params: [{…}]` both deliver it (decisions.md).
   * Its name is the one `params[0]` declares.
   */
  singleObject?: boolean;
}

export interface RpcMethodDefinition extends Required<
  Omit<RpcMethodOptions, 'singleObject' | 'summary' | 'description' | 'result' | 'errors'>
> {
  name: string;
  /**
   * The DTO of the method's params: the class its first parameter is typed with
   * (`getSections(params: SectionsParams, context)`), read and validated before the method runs.
   */
  input?: DtoClass;
  singleObject: boolean;
  summary?: string;
  description?: string;
  result?: JsonSchema;
  errors: ErrorCode[];
}

export const RPC_METHOD_METADATA = 'ibax:rpc-method';

/**
 * Declares a JSON-RPC method next to its domain. The method's first parameter, typed with a DTO class,
 * declares its params: it receives them read and validated, and the call context:
 * `(params: SomeParams, context) => result`. A method whose first parameter is not a DTO takes none.
 */
export function RpcMethod(name: string, options: RpcMethodOptions = {}): MethodDecorator {
  return (target, key, descriptor) => {
    const definition = rpcMethodDefinition(name, options, inputDto(target, key));
    SetMetadata(RPC_METHOD_METADATA, definition)(target, key, descriptor);
  };
}

/** The DTO class the method's first parameter is typed with, if it is one (class-validator declarations). */
function inputDto(target: object, key: string | symbol): DtoClass | undefined {
  const [first] = (Reflect.getMetadata('design:paramtypes', target, key) as unknown[] | undefined) ?? [];
  if (typeof first !== 'function' || first === Object || first === Array) return undefined;
  if (getMetadataStorage().getTargetValidationMetadatas(first, '', true, false).length === 0)
    return undefined;
  const dto = first as DtoClass;
  // Read and planned now, at start-up: a DTO the reader cannot handle stops the node here.
  paramsPlan(dto);
  return dto;
}

function rpcMethodDefinition(name: string, options: RpcMethodOptions, input?: DtoClass): RpcMethodDefinition {
  return {
    input,
    name,
    namespaces: options.namespaces ?? ['chain'],
    auth: options.auth ?? false,
    singleObject: options.singleObject ?? false,
    summary: options.summary,
    description: options.description,
    result: options.result,
    errors: options.errors ?? [],
  };
}
