import { SetMetadata } from '@nestjs/common';
import type { JsonSchema } from '../api-docs/schema';
import type { RpcParamSpec } from './rpc-params';

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
  /** Positional parameters, in order. */
  params?: RpcParamSpec[];
  /**
   * The method takes one object: `params: {…}` and `params: [{…}]` both deliver it (decisions.md).
   * Its name is the one `params[0]` declares.
   */
  singleObject?: boolean;
}

export interface RpcMethodDefinition extends Required<
  Omit<RpcMethodOptions, 'singleObject' | 'summary' | 'description' | 'result'>
> {
  name: string;
  singleObject: boolean;
  summary?: string;
  description?: string;
  result?: JsonSchema;
}

export const RPC_METHOD_METADATA = 'ibax:rpc-method';

/**
 * Declares a JSON-RPC method next to its domain. The decorated method receives the decoded positional
 * arguments as an array and the call context: `(args, context) => result`.
 */
export function RpcMethod(name: string, options: RpcMethodOptions = {}): MethodDecorator {
  const definition: RpcMethodDefinition = {
    name,
    namespaces: options.namespaces ?? ['chain'],
    auth: options.auth ?? false,
    params: options.params ?? [],
    singleObject: options.singleObject ?? false,
    summary: options.summary,
    description: options.description,
    result: options.result,
  };
  return SetMetadata(RPC_METHOD_METADATA, definition);
}
