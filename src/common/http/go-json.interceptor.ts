import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { goJsonStringify } from '../go-json';
import { JSON_CONTENT_TYPE, RawBody } from './responses';

/** REST answers are written with Go's JSON rules (exact 64-bit integers, Go escaping), or as raw bytes. */
@Injectable()
export class GoJsonInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
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
}
