import type { ExecState } from '../context';
import type { CompiledObject, FuncResult } from '../objects';
import type { BuiltinRegistry } from '../builtins/registry';
import type { Value } from '../values';

export interface CompileOptions {
  /** Ecosystem that owns the source: its objects are keyed `@<ecosystem><Name>`. */
  ecosystem: number;
  /** Start-up loading: an unknown `Name(` is assumed to be a contract defined later. */
  extern?: boolean;
  /** Prelude mode: top-level functions are global (keyed by plain name), like the language-level built-ins. */
  global?: boolean;
  /**
   * Compiling again the callers of a function that was replaced: the checks that depend on that callee
   * (argument and result counts, conditions that write) are left to run time, as in the reference, whose call
   * sites simply run the new code.
   */
  relink?: boolean;
}

/** What the compiler needs from the VM. */
export interface CompileEnv {
  builtins: BuiltinRegistry;
  lookup(key: string): CompiledObject | undefined;
  /** Called by an extern call site: a contract (or a function loaded later) looked up at run time. */
  callByKey(state: ExecState, key: string, args: Value[], named: boolean): Promise<FuncResult>;
}
