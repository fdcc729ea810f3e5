import busboy from 'busboy';
import express, { type NextFunction, type Request, type Response } from 'express';
import qs from 'qs';
import type { RequestLimits } from '../config';
import { ApiError } from '../common/api-error';
import { isPeerPath, isRpcPath } from '../common/node-state.service';
import type { ApiRequest, UploadedPart } from './api-request';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function assertUtf8(buffer: Buffer): void {
  try {
    utf8.decode(buffer);
  } catch {
    throw Object.assign(new Error('request body is not valid UTF-8'), { status: 400 });
  }
}

type Handler = (req: Request, res: Response, next: (error?: unknown) => void) => void;

/** A body the limits refuse: 413 in the API's envelope, naming the limit. */
function tooLarge(what: string): ApiError {
  return ApiError.server(what, 413);
}

function malformed(error: unknown): ApiError {
  const text = error instanceof Error && error.message ? error.message : 'malformed request body';
  return ApiError.server(`malformed request body: ${text}`, 400);
}

/**
 * Parses request bodies for every route: urlencoded and multipart forms for REST, the raw bytes for
 * JSON-RPC (parsed later with exact big numbers) and the node-to-node routes (their signature covers them). Parser failures become API errors here, in the API's
 * envelope, because they happen before any route runs.
 */
export function bodyParsing(
  limits: RequestLimits,
  onError: (error: ApiError, req: Request, res: Response) => void,
) {
  const urlencoded = express.urlencoded({
    extended: false,
    limit: limits.body,
    parameterLimit: limits.formFields,
    verify: (_req, _res, buffer) => assertUtf8(buffer),
  }) as Handler;
  const raw = express.raw({ type: () => true, limit: limits.rpcBody }) as Handler;
  const multipart = multipartParser(limits);

  return (req: Request, res: Response, next: NextFunction): void => {
    const rpc = isRpcPath(req.path);
    const wholeBody = rpc || isPeerPath(req.path);
    let answered = false;
    const done = (error?: unknown) => {
      if (answered) return;
      answered = true;
      if (error === undefined || error === null) next();
      else onError(toApiError(error, limits, rpc), req, res);
    };
    if (wholeBody && isSmallPlainBody(req, limits.rpcBody)) {
      readSmallBody(req, (error, body) => {
        if (body) (req as ApiRequest).rawBody = req.body = body;
        done(error);
      });
    } else if (wholeBody) {
      raw(req, res, (error) => {
        if (!error) (req as ApiRequest).rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        done(error);
      });
    } else if (!hasBody(req)) {
      // Most REST requests are GETs without a body: nothing to parse (what body-parser concludes too,
      // after more work).
      if (!('body' in req)) (req as { body?: unknown }).body = undefined;
      done();
    } else if (isSmallUtf8Form(req, limits)) {
      readSmallForm(req, limits, done);
    } else if (req.is('multipart/form-data')) {
      multipart(req, done);
    } else {
      urlencoded(req, res, (error) => done(error ?? oversizedField(req.body, limits.formFieldSize)));
    }
  };
}

/** Bodies up to this size take the short way (a page or list request sends a few short values). */
const SMALL_BODY_BYTES = 16 * 1024;
const FORM_TYPE =
  /^application\/x-www-form-urlencoded[ \t]*(?:;[ \t]*charset[ \t]*=[ \t]*"?utf-8"?[ \t]*)?$/i;

/**
 * A short body with its length given and no content encoding. Anything else (gzip, chunked, large) goes
 * through body-parser, which refuses or reads it.
 */
function isSmallPlainBody(req: Request, limit: number): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length <= Math.min(SMALL_BODY_BYTES, limit);
}

/** A short UTF-8 urlencoded form (another charset goes through body-parser too). */
function isSmallUtf8Form(req: Request, limits: RequestLimits): boolean {
  const type = req.headers['content-type'];
  return isSmallPlainBody(req, limits.body) && type !== undefined && FORM_TYPE.test(type);
}

/**
 * A short body's bytes as they came, without body-parser's content-type, charset and stream machinery,
 * which cost more than the rest of a page request's or a JSON-RPC call's reading.
 */
function readSmallBody(req: Request, done: (error?: unknown, body?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('error', done);
  req.once('end', () => done(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
}

/**
 * Reads a short form the way express.urlencoded({ extended: false }) does — the same qs options, parameter
 * limit, UTF-8 check and errors (body-parsing.spec.ts compares them).
 */
function readSmallForm(req: Request, limits: RequestLimits, done: (error?: unknown) => void): void {
  readSmallBody(req, (error, buffer) => {
    if (!buffer) return done(error);
    let body: Record<string, unknown>;
    try {
      assertUtf8(buffer);
      body = parseUrlencoded(buffer.toString('utf8'), limits.formFields);
    } catch (failure) {
      done(failure);
      return;
    }
    (req as { body?: unknown }).body = body;
    done(oversizedField(body, limits.formFieldSize));
  });
}

function parseUrlencoded(text: string, parameterLimit: number): Record<string, unknown> {
  if (text.length === 0) return {};
  let count = 0;
  let index = -1;
  do {
    if (++count > parameterLimit) {
      throw Object.assign(new Error('too many parameters'), { status: 413, type: 'parameters.too.many' });
    }
    index = text.indexOf('&', index + 1);
  } while (index !== -1);
  try {
    return qs.parse(text, {
      allowPrototypes: true,
      arrayLimit: count,
      depth: 0,
      charset: 'utf-8',
      parameterLimit,
      strictDepth: true,
    });
  } catch (error) {
    if (error instanceof RangeError) {
      throw Object.assign(new Error('The input exceeded the depth'), { status: 400 });
    }
    throw error;
  }
}

/** A body follows the headers (the rule body-parser and type-is apply). */
function hasBody(req: Request): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']))
  );
}

/** express.urlencoded bounds the body and the field count; a single field's size is bounded here. */
function oversizedField(body: unknown, limit: number): ApiError | undefined {
  if (!body || typeof body !== 'object') return undefined;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string' && Buffer.byteLength(item) > limit)
        return tooLarge(`form field "${name.slice(0, 64)}" is larger than ${limit} bytes`);
    }
  }
  return undefined;
}

function toApiError(error: unknown, limits: RequestLimits, rpc: boolean): ApiError {
  if (error instanceof ApiError) return error;
  const failure = error as { type?: string; status?: number; message?: string };
  if (failure.type === 'parameters.too.many') {
    return tooLarge(`too many form fields (limit ${limits.formFields})`);
  }
  if (failure.type === 'entity.too.large' || failure.status === 413) {
    return tooLarge(`request body too large (limit ${rpc ? limits.rpcBody : limits.body} bytes)`);
  }
  if (failure.type === 'charset.unsupported' || failure.type === 'encoding.unsupported') {
    return ApiError.server(failure.message ?? 'unsupported request encoding', 415);
  }
  return ApiError.server(failure.message ?? 'malformed request body', failure.status === 415 ? 415 : 400);
}

/**
 * Multipart bodies through busboy. Busboy reports parts through event callbacks; an exception thrown in
 * one would escape every handler and stop the process, so each callback runs guarded and any failure
 * becomes this request's 400.
 */
function multipartParser(limits: RequestLimits) {
  return (req: Request, done: (error?: unknown) => void): void => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          fieldNameSize: 1024,
          // Busboy reports a part as cut off once it reaches the size, so one byte more lets a part of
          // exactly the configured size through and still catches the first byte over it.
          fieldSize: limits.formFieldSize + 1,
          fileSize: limits.multipartPartSize + 1,
          fields: limits.formFields,
          parts: limits.multipartParts,
        },
      });
    } catch (error) {
      done(malformed(error));
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
    const guarded =
      <A extends unknown[]>(callback: (...args: A) => void) =>
      (...args: A): void => {
        if (failed) return;
        try {
          callback(...args);
        } catch (error) {
          fail(malformed(error));
        }
      };
    const count = (bytes: number) => {
      total += bytes;
      if (total > limits.body) fail(tooLarge(`request body too large (limit ${limits.body} bytes)`));
    };
    parser.on(
      'field',
      guarded((name: string | undefined, value: string, info: busboy.FieldInfo) => {
        const field = name ?? '';
        if (info.valueTruncated)
          return fail(
            tooLarge(`form field "${field.slice(0, 64)}" is larger than ${limits.formFieldSize} bytes`),
          );
        count(Buffer.byteLength(field) + Buffer.byteLength(value));
        fields.push([field, value]);
      }),
    );
    parser.on('file', (name: string | undefined, stream: NodeJS.ReadableStream, info: busboy.FileInfo) => {
      // Whatever happens to this request, the part's stream is drained and its errors are heard.
      stream.on('error', guarded(fail));
      if (failed) {
        stream.resume();
        return;
      }
      guarded(() => {
        const chunks: Buffer[] = [];
        stream.on(
          'data',
          guarded((chunk: Buffer) => {
            count(chunk.length);
            chunks.push(chunk);
          }),
        );
        stream.on(
          'limit',
          guarded(() => fail(tooLarge(`file part larger than ${limits.multipartPartSize} bytes`))),
        );
        stream.on(
          'end',
          guarded(() =>
            files.push({
              field: name ?? '',
              filename: info.filename ?? '',
              mimeType: info.mimeType,
              data: Buffer.concat(chunks),
            }),
          ),
        );
      })();
    });
    parser.on(
      'partsLimit',
      guarded(() => fail(tooLarge(`too many multipart parts (limit ${limits.multipartParts})`))),
    );
    parser.on(
      'fieldsLimit',
      guarded(() => fail(tooLarge(`too many form fields (limit ${limits.formFields})`))),
    );
    parser.on(
      'error',
      guarded((error: Error) => fail(malformed(error))),
    );
    req.on(
      'error',
      guarded((error: Error) => fail(malformed(error))),
    );
    parser.on(
      'close',
      guarded(() => {
        const request = req as ApiRequest;
        request.multipartFields = fields;
        request.files = files;
        request.body = Object.fromEntries(fields);
        done();
      }),
    );
    req.pipe(parser);
  };
}
