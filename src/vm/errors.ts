import { utf8Bytes, utf8Text } from './values';

export type VmErrorType = 'error' | 'warning' | 'info' | 'panic';

/** The reference cuts error texts at 150 bytes and appends an ellipsis. */
export const MAX_ERROR_LENGTH = 150;

export function capErrorText(text: string): string {
  if (text.length <= MAX_ERROR_LENGTH / 4) return text;
  const bytes = utf8Bytes(text);
  if (bytes.length <= MAX_ERROR_LENGTH) return text;
  return utf8Text(bytes.subarray(0, MAX_ERROR_LENGTH)) + '...';
}

/**
 * A failure while running contract code. `error`/`warning`/`info` come from the statements of the same
 * names; everything else (limits, type errors, built-in failures, compile errors at run time) is `panic`.
 */
export class VmError extends Error {
  readonly type: VmErrorType;
  readonly text: string;

  constructor(type: VmErrorType, text: string) {
    const capped = capErrorText(text);
    super(capped);
    this.name = 'VmError';
    this.type = type;
    this.text = capped;
  }

  /** The JSON stored in the tx status: `{"type":"…","error":"…"}`. */
  toJSON(): { type: VmErrorType; error: string } {
    return { type: this.type, error: this.text };
  }

  toJSONString(): string {
    return JSON.stringify(this.toJSON());
  }
}

export function panic(text: string): VmError {
  return new VmError('panic', text);
}

/** Any thrown thing as a VmError: VmErrors pass through, everything else becomes a panic. */
export function toVmError(thrown: unknown): VmError {
  if (thrown instanceof VmError) return thrown;
  if (thrown instanceof CompileError) return new VmError('panic', thrown.message);
  if (thrown instanceof RangeError && /call stack/i.test(thrown.message)) return panic('max call depth');
  // The engine's own size limits (a string or array too long to allocate) are the VM memory limit here.
  if (thrown instanceof RangeError && /invalid (string|array) length|allocation failed/i.test(thrown.message))
    return panic('Memory limit exceeded');
  if (thrown instanceof Error) return panic(thrown.message);
  return panic(String(thrown));
}

/**
 * A compile error. Its message ends with the position in the reference's style: `text [Ln:3 Col:14]`,
 * except for the errors the reference reports without one (`positioned` false: errors its expression
 * compiler finds, such as "unknown identifier x"); `line` and `column` are kept for tools either way.
 */
export class CompileError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
    positioned = true,
  ) {
    super(positioned ? `${reason} [Ln:${line} Col:${column}]` : reason);
    this.name = 'CompileError';
  }
}
