import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { goJsonStringify } from '../go-json';
import { JSON_CONTENT_TYPE, RawBody } from './responses';

/**
 * REST answers are written with Go's JSON rules (exact 64-bit integers, Go escaping), or as raw bytes.
 * A handler that takes the response (`@Res()`: the JSON-RPC gateway, the readiness probe) writes its own
 * answer; this interceptor leaves those alone, so every answer is written exactly once.
 */
@Injectable()
export class GoJsonInterceptor implements NestInterceptor {
  private readonly writesOwnAnswer = new WeakMap<object, boolean>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.handlerWritesOwnAnswer(context)) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((value) => {
        if (value instanceof RawBody) {
          for (const [name, headerValue] of Object.entries(value.headers)) res.setHeader(name, headerValue);
          return new StreamableFile(value.data, { type: value.contentType, length: value.data.length });
        }
        res.setHeader('Content-Type', JSON_CONTENT_TYPE);
        return goJsonStringify(value);
      }),
    );
  }

  private handlerWritesOwnAnswer(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.writesOwnAnswer.get(handler);
    if (known === undefined) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ??
        {}) as object;
      known = Object.keys(args).some((key) => key.startsWith(`${RouteParamtypes.RESPONSE}:`));
      this.writesOwnAnswer.set(handler, known);
    }
    return known;
  }
}
