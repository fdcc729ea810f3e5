import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { APP_CONFIG, type AppConfig, type RpcNamespace } from '../config';
import type { Caller } from '../common/caller';
import type { ApiRequest } from '../http/api-request';
import {
  RPC_METHOD_METADATA,
  type RpcMethodDefinition,
  type RpcNamespaceGroup,
} from './rpc-method.decorator';

export interface RpcCallContext {
  caller: Caller;
  /** The HTTP request, or the WebSocket connection's opening request: its headers (Accept-Language). */
  request: Pick<ApiRequest, 'headers'>;
  /** The WebSocket connection the call came on; undefined over HTTP, where nothing can be pushed. */
  connection?: RpcConnection;
  /** The namespace the method was called in (`ibax`, `chain`, …), set by the dispatcher. */
  namespace?: string;
}

/** A connection the node can push JSON-RPC notifications on (subscriptions), and whose end it is told of. */
export interface RpcConnection {
  readonly id: number;
  /** Whether it is still open. */
  readonly open: boolean;
  push(message: unknown): void;
  onClose(listener: () => void): void;
}

export interface RegisteredRpcMethod {
  definition: RpcMethodDefinition;
  /** Calls the method with its params: the DTO it declares, or (undeclared) the decoded positional arguments. */
  invoke(input: unknown, context: RpcCallContext): unknown;
}

/** Namespace as written in a method name → the group its methods are declared in. */
const GROUP_OF_NAMESPACE: Record<RpcNamespace, RpcNamespaceGroup> = {
  ibax: 'chain',
  chain: 'chain',
  net: 'net',
  rpc: 'rpc',
  admin: 'admin',
  debug: 'debug',
};

/** The declaration a served name stands for: `ibax.getBalance` and `chain.getBalance` are `chain.getBalance`. */
export function declaredName(served: string): string {
  const dot = served.indexOf('.');
  const namespace = served.slice(0, dot) as RpcNamespace;
  return Object.hasOwn(GROUP_OF_NAMESPACE, namespace)
    ? `${GROUP_OF_NAMESPACE[namespace]}${served.slice(dot)}`
    : served;
}

/**
 * The JSON-RPC methods, found at start-up on every provider that declares them with @RpcMethod, and the
 * namespaces currently served. `admin.startJsonRpc` / `admin.stopJsonRpc` change the latter at run time.
 */
@Injectable()
export class RpcRegistry implements OnModuleInit {
  private readonly logger = new Logger('JSON-RPC');
  private readonly methods = new Map<string, RegisteredRpcMethod>();
  private enabled: Set<RpcNamespace>;
  private running: boolean;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.enabled = withRpc(config.jsonRpc.namespaces);
    this.running = config.jsonRpc.enabled;
  }

  onModuleInit(): void {
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || wrapper.isNotMetatype) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const handler = instance[methodName] as (...args: unknown[]) => unknown;
        const definition = this.reflector.get<RpcMethodDefinition | undefined>(RPC_METHOD_METADATA, handler);
        if (!definition) continue;
        for (const group of definition.namespaces) {
          const key = `${group}.${definition.name}`;
          if (this.methods.has(key)) throw new Error(`JSON-RPC method ${key} is declared twice`);
          this.methods.set(key, {
            definition,
            invoke: (args, context) => handler.call(instance, args, context),
          });
        }
      }
    }
    this.logger.log(`${this.methods.size} methods; serving ${[...this.enabled].join(', ')}`);
  }

  /** Whether `/` answers JSON-RPC at all (config switch and admin.stopJsonRpc). */
  get serving(): boolean {
    return this.running;
  }

  resolve(method: string): RegisteredRpcMethod | undefined {
    const dot = method.indexOf('.');
    if (dot <= 0) return undefined;
    const namespace = method.slice(0, dot) as RpcNamespace;
    if (!Object.hasOwn(GROUP_OF_NAMESPACE, namespace) || !this.enabled.has(namespace)) return undefined;
    return this.methods.get(`${GROUP_OF_NAMESPACE[namespace]}.${method.slice(dot + 1)}`);
  }

  /** Every method currently served, as `namespace.method`, sorted. */
  modules(): string[] {
    return this.served().map(([name]) => name);
  }

  /** Every method currently served with its declaration, sorted by `namespace.method`. */
  served(): [string, RpcMethodDefinition][] {
    const methods: [string, RpcMethodDefinition][] = [];
    for (const namespace of this.enabled) {
      const prefix = `${GROUP_OF_NAMESPACE[namespace]}.`;
      for (const [key, method] of this.methods) {
        if (key.startsWith(prefix))
          methods.push([`${namespace}.${method.definition.name}`, method.definition]);
      }
    }
    return methods.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  start(namespaces: RpcNamespace[]): void {
    this.enabled = withRpc(namespaces);
    this.running = true;
    this.logger.log(`serving ${[...this.enabled].join(', ')}`);
  }

  stop(): void {
    this.running = false;
    this.logger.log('stopped');
  }
}

function withRpc(namespaces: readonly RpcNamespace[]): Set<RpcNamespace> {
  return new Set<RpcNamespace>([...namespaces, 'rpc']);
}
