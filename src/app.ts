import { loadFastHashers } from './crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { parse as parseQueryString } from 'node:querystring';
import { NestFactory } from '@nestjs/core';
import { WsAdapter } from '@nestjs/platform-ws';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import type pino from 'pino';
import { AppModule } from './app.module';
import { BlocksService } from './blocks/blocks.service';
import { TokenService } from './common/token.service';
import { ApiError } from './common/api-error';
import { goJsonStringify } from './common/go-json';
import { bodyParsing } from './http/body-parsing';
import { corsMiddleware } from './http/cors.middleware';
import { GoJsonExpressAdapter } from './http/go-json-adapter';
import { inOrder } from './http/in-order';
import { requestDeadline } from './http/request-deadline';
import { requestLog } from './http/request-log';
import { callerMiddleware, nodeStateMiddleware } from './http/request-gates';
import {
  JSON_CONTENT_TYPE,
  restErrorBody,
  rpcErrorBody,
  sendRestError,
  sendRpcError,
} from './http/responses';
import { isRpcPath, NodeStateService } from './common/node-state.service';
import type { AppConfig } from './config';
import { serveApiDocs } from './api-docs/openapi';
import { createLogger, NestLogger } from './ops/logging';
import { httpMetrics } from './prometheus/prometheus.controller';
import { PrometheusMetrics } from './prometheus/prometheus-metrics';

/** Builds the node's HTTP application (REST + JSON-RPC on one port) without listening yet. */
export async function createApp(
  config: AppConfig,
  options: { logDestination?: pino.DestinationStream } = {},
): Promise<NestExpressApplication> {
  await loadFastHashers();
  const logger = createLogger(config, options.logDestination);
  const adapter = new GoJsonExpressAdapter();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, logger), adapter, {
    bodyParser: false,
    // From the first line, not buffered: Nest prints a buffer with its own console logger when the start fails.
    logger: new NestLogger(logger),
    abortOnError: false,
  });
  // JSON-RPC over WebSocket (src/live): the gateways read their messages themselves, not as Nest events.
  app.useWebSocketAdapter(new WsAdapter(app, { messageParser: () => undefined }));
  app.disable('x-powered-by');
  // The reference node sends no ETag, and Express's hashes every answer for one (a tenth of a page's time).
  app.set('etag', false);
  // Query strings hold at most as many values as a form may (the rest are ignored, as Node's parser does).
  app.set('query parser', (text: string) =>
    parseQueryString(text, '&', '=', { maxKeys: config.limits.formFields }),
  );
  // A client that trickles its request in is cut off at the same deadline as a slow handler.
  const server = app.getHttpServer() as Server;
  server.requestTimeout = config.limits.requestTimeoutMs;
  server.headersTimeout = Math.min(config.limits.requestTimeoutMs, 60_000);
  server.on('clientError', answerUnparsableRequest);
  // No enableShutdownHooks: main.ts stops on signals itself (ops/graceful-stop.ts) and exits 0.

  const blocks = app.get(BlocksService);
  app.use(
    inOrder(
      httpMetrics(app.get(PrometheusMetrics)),
      requestLog(logger, config.requestLogSample),
      corsMiddleware,
      requestDeadline(config.limits.requestTimeoutMs, logger, (error, req, res) => {
        if (isRpcPath(req.path)) sendRpcError(res, error.status, error.rpcCode, error.rpcMessage);
        else sendRestError(res, error);
      }),
      bodyParsing(config.limits, (error: ApiError, req: Request, res: Response) => {
        if (isRpcPath(req.path)) sendRpcError(res, error.status, -32700, `Parse error: ${error.message}`);
        else sendRestError(res, error);
      }),
      callerMiddleware(app.get(TokenService)),
      nodeStateMiddleware(app.get(NodeStateService), () => blocks.height()),
    ),
  );
  adapter.afterRoutes(() => serveApiDocs(app));
  await app.init();
  return app;
}

/** Node's own answers to requests it cannot parse, in the API's envelope instead of a bare status line. */
const CLIENT_ERROR_STATUS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request headers too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request not received in time'],
};

function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, text] = CLIENT_ERROR_STATUS[error.code ?? ''] ?? [400, 'malformed HTTP request'];
  const apiError = ApiError.server(text, status);
  // What can be read of the request line decides the envelope (JSON-RPC or REST) and whether a body may
  // follow: a HEAD request's answer has none, its client would read one as the start of the next answer.
  const rawPacket = (error as { rawPacket?: Buffer }).rawPacket;
  const [method, target = ''] = (rawPacket?.subarray(0, 4096).toString('latin1') ?? '').split(' ', 2);
  const body =
    method === 'HEAD'
      ? ''
      : goJsonStringify(
          isRpcPath(target.split('?')[0])
            ? rpcErrorBody(apiError.rpcCode, apiError.rpcMessage)
            : restErrorBody(apiError),
        );
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
