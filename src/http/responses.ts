import type { Response } from 'express';
import type { ApiError } from '../common/api-error';
import { goJsonStringify } from '../common/go-json';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.end(goJsonStringify(body));
}

/** `{"error","msg","params"}`: the reference's two members plus the values filled into the message. */
export function restErrorBody(error: ApiError): Record<string, unknown> {
  return {
    error: error.code,
    msg: error.restMessage,
    params: error.params.map((param) => (typeof param === 'bigint' ? param.toString() : param)),
  };
}

export function sendRestError(res: Response, error: ApiError): void {
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  sendJson(res, error.status, restErrorBody(error));
}

/** A JSON-RPC error that belongs to no identified request (parse failures, HTTP-level refusals). */
export function rpcErrorBody(code: number, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id: null, error: { code, message } };
}

export function sendRpcError(res: Response, status: number, code: number, message: string): void {
  sendJson(res, status, rpcErrorBody(code, message));
}

/** A value a REST handler returns to send bytes (binary data, images) instead of JSON. */
export class RawBody {
  constructor(
    readonly data: Buffer,
    readonly contentType: string,
    readonly headers: Record<string, string> = {},
  ) {}
}
