import { All, Controller, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiError } from '../common/api-error';
import { RPC_CODE } from '../common/error-codes';
import type { ApiRequest } from '../http/api-request';
import { sendJson, sendRestError, sendRpcError } from '../http/responses';
import { RpcDispatcher } from './rpc-dispatcher.service';
import { RpcRegistry } from './rpc-registry.service';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

/**
 * JSON-RPC 2.0 on the API port at `/` (and `/rpc`): POST, or GET with a JSON body as the Go SDK sends it;
 * single calls, batches answered in order, notifications answered with nothing. The gateway adds the
 * namespaces, session checks, parameter decoding and error mapping; methods are plain domain operations.
 */
@Controller()
export class RpcGatewayController {
  constructor(
    private readonly registry: RpcRegistry,
    private readonly dispatcher: RpcDispatcher,
  ) {}

  @ApiRoute({
    summary: 'JSON-RPC 2.0: one call, a batch, or notifications (methods: rpc.discover)',
    description:
      'POST (or GET with a JSON body) of application/json. Other HTTP methods answer 405; a GET without a ' +
      'body answers 200 (a probe). Errors are JSON-RPC error objects, not the REST envelope, except while ' +
      'JSON-RPC is off (JSONRPC_ENABLED=false, or after admin.stopJsonRpc): then 404 E_NOTFOUND.',
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
    // The exact type the clients send is taken without parsing it; anything else is parsed (type-is).
    if (req.headers['content-type'] !== 'application/json' && !req.is('application/json')) {
      sendRpcError(
        res,
        415,
        RPC_CODE.invalidRequest,
        'invalid content type, only application/json is supported',
      );
      return;
    }
    const answer = await this.dispatcher.dispatch(body, { caller: req.caller, request: req });
    if (answer) sendJson(res, 200, answer);
    else res.status(204).end();
  }
}
