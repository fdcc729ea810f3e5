import type { Position } from '../ast';
import { CompileError } from '../errors';

export function fail(reason: string, at: Position): never {
  throw new CompileError(reason, at.line, at.column);
}

/** An error the reference's compiler reports without the position (its expression compiler's). */
export function failBare(reason: string, at: Position): never {
  throw new CompileError(reason, at.line, at.column, false);
}
