import { Inject, Injectable, Logger } from '@nestjs/common';
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { ApiError } from '../common/api-error';
import { jsonDepthExceeds } from '../common/json-depth';
import { APP_CONFIG, type AppConfig, type RequestLimits } from '../config';
import { RPC_CODE } from '../common/error-codes';
import { rpcErrorBody } from '../http/responses';
import { NodeStateService } from '../common/node-state.service';
import { requireSession } from '../common/token.service';
import { PrometheusMetrics, UNKNOWN_RPC_METHOD } from '../prometheus/prometheus-metrics';
import { HANDLER_CRASHED, RpcError } from './rpc-error';
import { decodeDtoParams, NoParams } from './rpc-params';
import { RpcRegistry, type RegisteredRpcMethod, type RpcCallContext } from './rpc-registry.service';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** An id as the client sent it: numbers keep their exact text. */
type RpcId = string | { toGoJson(): string } | null;

export interface RpcResponse {
  jsonrpc: '2.0';
  id: RpcId;
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * JSON-RPC 2.0 whatever carries it (an HTTP body, a WebSocket message): the text parsed with its limits
 * (nesting depth, batch size), each call checked (envelope, namespace, node state, session, params) and
 * answered in order; notifications (no id) get no answer. Methods are plain domain operations.
 */
@Injectable()
export class RpcDispatcher {
  private readonly logger = new Logger('JSON-RPC');
  private readonly limits: RequestLimits;

  constructor(
    private readonly registry: RpcRegistry,
    private readonly nodeState: NodeStateService,
    private readonly metrics: PrometheusMetrics,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limits = config.limits;
  }

  /**
   * Answers a message: one response, the responses of a batch, or `undefined` when nothing is to be sent
   * (only notifications). Text that cannot be read is answered with a parse error.
   */
  async dispatch(
    message: Buffer | string,
    context: RpcCallContext,
  ): Promise<RpcResponse | RpcResponse[] | undefined> {
    let payload: unknown;
    try {
      const text = typeof message === 'string' ? message : utf8.decode(message);
      if (jsonDepthExceeds(text, this.limits.jsonDepth)) {
        return protocolError(
          RPC_CODE.parseError,
          `Parse error: nesting deeper than ${this.limits.jsonDepth}`,
        );
      }
      payload = parseLossless(text);
    } catch (error) {
      const reason = error instanceof TypeError ? 'body is not valid UTF-8' : (error as Error).message;
      return protocolError(RPC_CODE.parseError, `Parse error: ${reason}`);
    }
    if (!Array.isArray(payload)) return this.call(payload, context);
    if (payload.length === 0) return protocolError(RPC_CODE.invalidRequest, 'empty batch request');
    if (payload.length > this.limits.rpcBatch) {
      return protocolError(
        RPC_CODE.invalidRequest,
        `batch of ${payload.length} calls exceeds the limit of ${this.limits.rpcBatch}`,
      );
    }
    const responses: RpcResponse[] = [];
    for (const item of payload) {
      const response = await this.call(item, context);
      if (response) responses.push(response);
    }
    return responses.length > 0 ? responses : undefined;
  }

  /** One request object; `undefined` for a notification (no id), which gets no reply. */
  private async call(request: unknown, context: RpcCallContext): Promise<RpcResponse | undefined> {
    if (
      request === null ||
      typeof request !== 'object' ||
      Array.isArray(request) ||
      isLosslessNumber(request)
    ) {
      return failure(null, RpcError.invalidRequest('Invalid Request: expected an object'));
    }
    const envelope = request as Record<string, unknown>;
    const hasId = Object.hasOwn(envelope, 'id');
    const id = readId(envelope.id);
    if (id === undefined)
      return failure(null, RpcError.invalidRequest('Invalid Request: id must be a string, a number or null'));
    if (envelope.jsonrpc !== undefined && envelope.jsonrpc !== '2.0') {
      return failure(id, RpcError.invalidRequest('Invalid Request: jsonrpc must be "2.0"'));
    }
    if (typeof envelope.method !== 'string' || envelope.method === '') {
      return failure(id, RpcError.invalidRequest('Invalid Request: method must be a non-empty string'));
    }
    const reply = (response: RpcResponse) => (hasId ? response : undefined);
    const method = envelope.method;
    // Looked up once: the call and its metric see the same method even if admin.startJsonRpc changes the
    // served namespaces between the two.
    const registered = this.registry.resolve(method);
    const started = performance.now();
    let outcome = 'ok';
    try {
      const result = await this.execute(method, registered, envelope.params, context);
      return reply({ jsonrpc: '2.0', id, result: result === undefined ? null : result });
    } catch (error) {
      const rpcError = this.toRpcError(error, method);
      outcome = String(rpcError.code);
      return reply(failure(id, rpcError));
    } finally {
      this.metrics.rpcCall(
        registered ? method : UNKNOWN_RPC_METHOD,
        outcome,
        (performance.now() - started) / 1000,
      );
    }
  }

  private async execute(
    method: string,
    registered: RegisteredRpcMethod | undefined,
    params: unknown,
    context: RpcCallContext,
  ): Promise<unknown> {
    if (!registered) throw RpcError.methodNotFound(method);
    if (this.nodeState.state === 'updating') throw new ApiError('E_UPDATING');
    if (this.nodeState.state === 'stopped') throw new ApiError('E_STOPPING');
    const { definition } = registered;
    if (definition.auth) requireSession(context.caller);
    const input = decodeDtoParams(definition.input ?? NoParams, params, definition.singleObject);
    return registered.invoke(input, { ...context, namespace: method.slice(0, method.indexOf('.')) });
  }

  private toRpcError(error: unknown, method: string): RpcError {
    if (error instanceof RpcError) return error;
    if (error instanceof ApiError) return new RpcError(error.rpcCode, error.rpcMessage);
    this.logger.error({ err: error, method }, 'JSON-RPC method failed unexpectedly');
    return new RpcError(RPC_CODE.internalError, HANDLER_CRASHED);
  }
}

export function failure(id: RpcId, error: RpcError): RpcResponse {
  return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message } };
}

/** `undefined` when the id is of a type JSON-RPC does not allow. */
function readId(raw: unknown): RpcId | undefined {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') return raw;
  if (isLosslessNumber(raw)) return { toGoJson: () => raw.value };
  return undefined;
}

function protocolError(code: number, message: string): RpcResponse {
  return rpcErrorBody(code, message) as unknown as RpcResponse;
}
