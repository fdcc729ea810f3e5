import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { Logger } from 'nestjs-pino';
import pino from 'pino';
import { pinoHttp } from 'pino-http';
import { AppModule } from './app.module';
import { BlocksService } from './blocks/blocks.service';
import { TokenService } from './auth/token.service';
import type { ApiError } from './common/api-error';
import { bodyParsing, isRpcPath } from './common/http/body-parsing';
import { corsMiddleware } from './common/http/cors.middleware';
import { callerMiddleware, nodeStateMiddleware } from './common/http/request-gates';
import { sendRestError, sendRpcError } from './common/http/responses';
import { NodeStateService } from './common/node-state.service';
import type { AppConfig } from './config';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Builds the node's HTTP application (REST + JSON-RPC on one port) without listening yet. */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const logger = pino({ level: config.logLevel });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, logger), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.enableShutdownHooks();

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // Tokens and signatures stay out of the logs.
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
        }),
      },
    }),
  );
  app.use(corsMiddleware);
  app.use(
    bodyParsing(config.bodyLimit, (error: ApiError, req: Request, res: Response) => {
      if (isRpcPath(req.path)) sendRpcError(res, error.status, -32700, `Parse error: ${error.message}`);
      else sendRestError(res, error);
    }),
  );
  app.use(callerMiddleware(app.get(TokenService)));
  const blocks = app.get(BlocksService);
  app.use(nodeStateMiddleware(app.get(NodeStateService), () => blocks.height()));
  await app.init();
  return app;
}
