import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from '../common/api-error';

/**
 * Bounds the time between a request's arrival and its answer. A request still unanswered at the deadline
 * gets 503 in its protocol's envelope; whatever its handler writes later is dropped (the exception filter
 * knows an answered request when it sees one).
 */
export function requestDeadline(
  timeoutMs: number,
  logger: Logger,
  answer: (error: ApiError, req: Request, res: Response) => void,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      logger.warn(
        { requestId: (req as { id?: unknown }).id, method: req.method, url: req.originalUrl, timeoutMs },
        'request exceeded its time limit',
      );
      answer(ApiError.server(`the request took longer than ${timeoutMs} ms`, 503), req, res);
    }, timeoutMs);
    timer.unref();
    // A response closes once it is sent, as well as when its client goes away first.
    res.on('close', () => clearTimeout(timer));
    next();
  };
}
