import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Level, Logger } from 'pino';
import { afterAnswer } from './after-answer';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Request ids and the request log, cheap enough to run on every request. Each request gets an id (the
 * client's `X-Request-Id` when it is a sane token, else this process's prefix and a counter) echoed in
 * `X-Request-Id`. When the answer is sent one line is logged: 5xx at `warn` (the failure itself is logged where it happens), 4xx at `info`, and a
 * successful request at `info` once every `sampleEvery` requests (0: never) and at `debug` otherwise, so
 * at the default level most requests cost no log line. pino-http was dropped for this: its per-request
 * child logger and serializers were a third of the time of a simple request.
 */
export function requestLog(logger: Logger, sampleEvery: number) {
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return (req: Request, res: Response, next: NextFunction): void => {
    counter++;
    const given = req.headers['x-request-id'];
    const id =
      typeof given === 'string' && REQUEST_ID.test(given) ? given : `${prefix}-${counter.toString(36)}`;
    (req as { id?: string }).id = id;
    res.setHeader('X-Request-Id', id);
    const sampled = sampleEvery > 0 && counter % sampleEvery === 0;
    const started = performance.now();
    afterAnswer(res, () => {
      const status = res.statusCode;
      const level: Level = status >= 500 ? 'warn' : status >= 400 || sampled ? 'info' : 'debug';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          req: { id, method: req.method, url: req.originalUrl },
          res: { statusCode: status },
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      );
    });
    next();
  };
}
