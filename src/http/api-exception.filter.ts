import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import { isRpcPath } from '../common/node-state.service';
import { sendRestError, sendRpcError } from './responses';

/** Turns anything a REST route throws into the API's error envelope; no stack trace reaches the wire. */
export function toApiError(exception: unknown, logger: Logger, req?: Request): ApiError {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Nest answers unknown routes with NotFoundException; the API says E_NOTFOUND in its own envelope.
    if (status === 404) return new ApiError('E_NOTFOUND');
    return ApiError.server(exception.message, status);
  }
  logger.error(
    { err: exception, path: req?.originalUrl, requestId: (req as { id?: unknown } | undefined)?.id },
    'unexpected failure in an API route',
  );
  return new ApiError('E_RECOVERED');
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('API');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    // An answer already written (a request past its deadline) stays as it is.
    if (res.headersSent) {
      this.logger.debug({ err: exception, path: req.originalUrl }, 'failure after the answer was written');
      return;
    }
    const error = toApiError(exception, this.logger, req);
    if (isRpcPath(req.path)) sendRpcError(res, error.status, error.rpcCode, error.rpcMessage);
    else sendRestError(res, error);
  }
}
