import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { goJsonStringify } from '../common/go-json';
import { JSON_CONTENT_TYPE, RawBody } from './responses';

/**
 * REST answers are written with Go's JSON rules (exact 64-bit integers, Go escaping), or as raw bytes.
 * This is the adapter's own answer writer rather than a global interceptor: an interceptor puts every
 * request through an Observable chain and an async-context bind, which cost more than the rest of
 * Nest's routing. Handlers that take the response (`@Res()`: the JSON-RPC gateway, the readiness probe)
 * write their own answer and never reach this.
 */
export class GoJsonExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof StreamableFile) return super.reply(response, body, statusCode);
    if (body instanceof RawBody) {
      for (const [name, value] of Object.entries(body.headers)) response.setHeader(name, value);
      const file = new StreamableFile(body.data, { type: body.contentType, length: body.data.length });
      return super.reply(response, file, statusCode);
    }
    return sendJson(response, goJsonStringify(body), statusCode);
  }
}

/**
 * Writes JSON text as Express's `res.send` would (same headers, HEAD and 204/304 handled alike) without its
 * per-answer work this node never needs: parsing and re-writing the Content-Type it was given, and the
 * freshness check (no ETag is sent).
 */
function sendJson(response: Response, json: string, statusCode?: number): Response {
  if (statusCode) response.statusCode = statusCode;
  if (response.statusCode === 204 || response.statusCode === 304) {
    response.removeHeader('Content-Type');
    response.removeHeader('Content-Length');
    response.removeHeader('Transfer-Encoding');
    response.end();
    return response;
  }
  response.setHeader('Content-Type', JSON_CONTENT_TYPE);
  response.setHeader('Content-Length', Buffer.byteLength(json, 'utf8'));
  if (response.req.method === 'HEAD') response.end();
  else response.end(json, 'utf8');
  return response;
}
