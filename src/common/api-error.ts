import { ERROR_CODES, type ErrorCode } from './error-codes';

export type ErrorParam = string | number | bigint | boolean;

/** Fills `%s`/`%d`/`%v` placeholders in order, the way the reference's printf templates read. */
export function formatMessage(template: string, params: readonly ErrorParam[]): string {
  let index = 0;
  return template.replace(/%[sdv]/g, (placeholder) =>
    index < params.length ? String(params[index++]) : placeholder,
  );
}

/**
 * The one error type of the API layer. REST renders it as `{error, msg, params}`, JSON-RPC as
 * `{code, message}`; both forms come from the table in error-codes.ts.
 */
export class ApiError extends Error {
  readonly params: readonly ErrorParam[];
  private overrideMessage?: string;
  private overrideStatus?: number;
  /** Seconds after which the same request may succeed (REST: the Retry-After header). */
  retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    ...params: ErrorParam[]
  ) {
    super(formatMessage(ERROR_CODES[code].message, params));
    this.name = 'ApiError';
    this.params = params;
  }

  /** E_SERVER and friends carry the underlying failure's text instead of the generic template. */
  static server(text: string, status?: number): ApiError {
    const error = new ApiError('E_SERVER').withMessage(text);
    return status === undefined ? error : error.withStatus(status);
  }

  withMessage(text: string): this {
    this.overrideMessage = text;
    this.message = text;
    return this;
  }

  retryAfter(seconds: number): this {
    this.retryAfterSeconds = seconds;
    return this;
  }

  withStatus(status: number): this {
    this.overrideStatus = status;
    return this;
  }

  get status(): number {
    return this.overrideStatus ?? ERROR_CODES[this.code].status;
  }

  get restMessage(): string {
    return this.message;
  }

  get rpcCode(): number {
    return ERROR_CODES[this.code].rpcCode;
  }

  get rpcMessage(): string {
    if (this.overrideMessage !== undefined) return this.overrideMessage;
    const spec = ERROR_CODES[this.code] as { message: string; rpcMessage?: string };
    return formatMessage(spec.rpcMessage ?? spec.message, this.params);
  }
}
