import busboy from 'busboy';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiError } from '../api-error';
import type { ApiRequest, UploadedPart } from './api-request';

/** JSON-RPC bodies may be larger than form posts (the reference allows 5 MiB there). */
export const RPC_BODY_LIMIT = 5 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function assertUtf8(buffer: Buffer): void {
  try {
    utf8.decode(buffer);
  } catch {
    throw Object.assign(new Error('request body is not valid UTF-8'), { status: 400 });
  }
}

export function isRpcPath(path: string): boolean {
  return path === '/' || path === '/rpc';
}

type Handler = (req: Request, res: Response, next: (error?: unknown) => void) => void;

/**
 * Parses request bodies for every route: urlencoded and multipart forms for REST, the raw bytes for
 * JSON-RPC (parsed later with exact big numbers). Parser failures become API errors here, in the API's
 * envelope, because they happen before any route runs.
 */
export function bodyParsing(limit: number, onError: (error: ApiError, req: Request, res: Response) => void) {
  const urlencoded = express.urlencoded({
    extended: false,
    limit,
    parameterLimit: 10_000,
    verify: (_req, _res, buffer) => assertUtf8(buffer),
  }) as Handler;
  const raw = express.raw({ type: () => true, limit: RPC_BODY_LIMIT }) as Handler;
  const multipart = multipartParser(limit);

  return (req: Request, res: Response, next: NextFunction): void => {
    const done = (error?: unknown) => {
      if (error === undefined || error === null) {
        next();
        return;
      }
      onError(toApiError(error, isRpcPath(req.path) ? RPC_BODY_LIMIT : limit), req, res);
    };
    if (isRpcPath(req.path)) {
      raw(req, res, (error) => {
        if (!error) (req as ApiRequest).rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        done(error);
      });
    } else if (req.is('multipart/form-data')) {
      multipart(req, res, done);
    } else {
      urlencoded(req, res, done);
    }
  };
}

function toApiError(error: unknown, limit: number): ApiError {
  if (error instanceof ApiError) return error;
  const failure = error as { type?: string; status?: number; message?: string };
  if (failure.type === 'entity.too.large' || failure.status === 413) {
    return ApiError.server(`request body too large (limit ${limit} bytes)`, 413);
  }
  if (failure.type === 'charset.unsupported' || failure.type === 'encoding.unsupported') {
    return ApiError.server(failure.message ?? 'unsupported request encoding', 415);
  }
  return ApiError.server(failure.message ?? 'malformed request body', failure.status === 415 ? 415 : 400);
}

function multipartParser(limit: number) {
  return (req: Request, _res: Response, done: (error?: unknown) => void): void => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fieldSize: limit, fileSize: limit, fields: 10_000 },
      });
    } catch (error) {
      done(Object.assign(new Error((error as Error).message), { status: 400 }));
      return;
    }
    const fields: [string, string][] = [];
    const files: UploadedPart[] = [];
    let total = 0;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      done(error);
    };
    const count = (bytes: number) => {
      total += bytes;
      if (total > limit) fail(Object.assign(new Error('too large'), { type: 'entity.too.large' }));
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated)
        return fail(Object.assign(new Error('too large'), { type: 'entity.too.large' }));
      count(Buffer.byteLength(name) + Buffer.byteLength(value));
      fields.push([name, value]);
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        count(chunk.length);
        chunks.push(chunk);
      });
      stream.on('limit', () => fail(Object.assign(new Error('too large'), { type: 'entity.too.large' })));
      stream.on('end', () =>
        files.push({
          field: name,
          filename: info.filename ?? '',
          mimeType: info.mimeType,
          data: Buffer.concat(chunks),
        }),
      );
    });
    parser.on('error', (error: Error) => fail(Object.assign(new Error(error.message), { status: 400 })));
    parser.on('close', () => {
      if (failed) return;
      const request = req as ApiRequest;
      request.multipartFields = fields;
      request.files = files;
      request.body = Object.fromEntries(fields);
      done();
    });
    req.pipe(parser);
  };
}
