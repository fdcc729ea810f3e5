import { All, Controller, Inject, Logger, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { ApiError } from '../common/api-error';
import { jsonDepthExceeds } from '../common/json-depth';
import { APP_CONFIG, type AppConfig, type RequestLimits } from '../config';
import { RPC_CODE } from '../common/error-codes';
import type { ApiRequest } from '../common/http/api-request';
import { sendJson, sendRestError, sendRpcError } from '../common/http/responses';
import { NodeStateService } from '../common/node-state.service';
import { requireSession } from '../auth/token.service';
import { PrometheusMetrics, UNKNOWN_RPC_METHOD } from '../prometheus/prometheus-metrics';
import { RpcError } from './rpc-error';
import { decodeParams } from './rpc-params';
import { RpcRegistry, type RpcCallContext } from './rpc-registry.service';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** An id as the client sent it: numbers keep their exact text. */
type RpcId = string | { toGoJson(): string } | null;

interface RpcResponse {
  jsonrpc: '2.0';
  id: RpcId;
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * JSON-RPC 2.0 on the API port at `/` (and `/rpc`): POST, or GET with a JSON body as the Go SDK sends it;
 * single calls, batches answered in order, notifications answered with nothing. The gateway adds the
 * namespaces, session checks, parameter decoding and error mapping; methods are plain domain operations.
 */
@Controller()
export class RpcGatewayController {
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

  @ApiRoute({
    summary: 'JSON-RPC 2.0: one call, a batch, or notifications (methods: rpc.discover)',
    description:
      'POST (or GET with a JSON body) of application/json. Other HTTP methods answer 405; a GET without a ' +
      'body answers 200 (a probe). Errors are JSON-RPC error objects, not the REST envelope.',
    answer: s.oneOf(
      s.object(
        {
          jsonrpc: s.string('2.0'),
          id: s.any(),
          result: s.any(),
          error: s.object({ code: s.integer(), message: s.string() }),
        },
        { optional: ['result', 'error'] },
      ),
      s.array(s.any(), 'the answers of a batch, in order'),
    ),
    errors: ['E_NOTFOUND'],
  })
  @All(['/', 'rpc'])
  async handle(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    if (!this.registry.serving) {
      sendRestError(res, new ApiError('E_NOTFOUND'));
      return;
    }
    const body = req.rawBody ?? Buffer.alloc(0);
    if (req.method !== 'POST' && req.method !== 'GET') {
      res.setHeader('Allow', 'GET, POST');
      sendRpcError(res, 405, RPC_CODE.invalidRequest, `method ${req.method} is not allowed, use POST`);
      return;
    }
    if (req.method === 'GET' && body.length === 0) {
      res.status(200).end(); // a liveness probe of the JSON-RPC endpoint
      return;
    }
    if (!req.is('application/json')) {
      sendRpcError(
        res,
        415,
        RPC_CODE.invalidRequest,
        'invalid content type, only application/json is supported',
      );
      return;
    }
    let payload: unknown;
    try {
      const text = utf8.decode(body);
      if (jsonDepthExceeds(text, this.limits.jsonDepth)) {
        sendRpcError(
          res,
          200,
          RPC_CODE.parseError,
          `Parse error: nesting deeper than ${this.limits.jsonDepth}`,
        );
        return;
      }
      payload = parseLossless(text);
    } catch (error) {
      const reason = error instanceof TypeError ? 'body is not valid UTF-8' : (error as Error).message;
      sendRpcError(res, 200, RPC_CODE.parseError, `Parse error: ${reason}`);
      return;
    }
    if (Array.isArray(payload)) {
      if (payload.length === 0) {
        sendRpcError(res, 200, RPC_CODE.invalidRequest, 'empty batch request');
        return;
      }
      if (payload.length > this.limits.rpcBatch) {
        sendRpcError(
          res,
          200,
          RPC_CODE.invalidRequest,
          `batch of ${payload.length} calls exceeds the limit of ${this.limits.rpcBatch}`,
        );
        return;
      }
      const responses: RpcResponse[] = [];
      for (const item of payload) {
        const response = await this.call(item, req);
        if (response) responses.push(response);
      }
      if (responses.length === 0) res.status(204).end();
      else sendJson(res, 200, responses);
      return;
    }
    const response = await this.call(payload, req);
    if (response) sendJson(res, 200, response);
    else res.status(204).end();
  }

  /** One request object; `undefined` for a notification (no id), which gets no reply. */
  private async call(request: unknown, httpRequest: ApiRequest): Promise<RpcResponse | undefined> {
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
    const started = performance.now();
    let outcome = 'ok';
    try {
      const result = await this.execute(method, envelope.params, {
        caller: httpRequest.caller,
        request: httpRequest,
      });
      return reply({ jsonrpc: '2.0', id, result: result === undefined ? null : result });
    } catch (error) {
      const rpcError = this.toRpcError(error, method);
      outcome = String(rpcError.code);
      return reply(failure(id, rpcError));
    } finally {
      const served = this.registry.resolve(method) ? method : UNKNOWN_RPC_METHOD;
      this.metrics.rpcCall(served, outcome, (performance.now() - started) / 1000);
    }
  }

  private async execute(method: string, params: unknown, context: RpcCallContext): Promise<unknown> {
    const registered = this.registry.resolve(method);
    if (!registered) throw RpcError.methodNotFound(method);
    if (this.nodeState.state === 'updating')
      throw new RpcError(RPC_CODE.default, 'Node is updating blockchain');
    if (this.nodeState.state === 'stopped') throw new RpcError(RPC_CODE.default, 'Network is stopping');
    const { definition } = registered;
    if (definition.auth) requireSession(context.caller);
    const args = decodeParams(definition.params, params, definition.singleObject);
    return registered.invoke(args, context);
  }

  private toRpcError(error: unknown, method: string): RpcError {
    if (error instanceof RpcError) return error;
    if (error instanceof ApiError) return new RpcError(error.rpcCode, error.rpcMessage);
    this.logger.error({ err: error, method }, 'JSON-RPC method failed unexpectedly');
    return new RpcError(RPC_CODE.internalError, 'method handler crashed');
  }
}

function failure(id: RpcId, error: RpcError): RpcResponse {
  return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message } };
}

/** `undefined` when the id is of a type JSON-RPC does not allow. */
function readId(raw: unknown): RpcId | undefined {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') return raw;
  if (isLosslessNumber(raw)) return { toGoJson: () => raw.value };
  return undefined;
}
