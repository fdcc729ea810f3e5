import type { CallArg, ContractDecl, FuncDecl, Position } from '../ast';
import type { Builtin } from '../builtins/registry';
import type { UserFunc } from '../function';
import type { CompiledContract, CompiledFunc } from '../objects';

export type CallTarget =
  | { kind: 'unit'; unit: Unit }
  | { kind: 'func'; func: CompiledFunc }
  | { kind: 'builtin'; builtin: Builtin }
  | { kind: 'contract'; key: string; unit: ContractUnit | null; writes: boolean }
  | { kind: 'extern'; key: string };

export interface ChainStep {
  target: CallTarget;
  /** Argument groups in source order: the main arguments, then each tail's. */
  groups: CallArg[][];
  /** For each group after the first, the declared tail index it fills. */
  tailIndexes: number[];
  /** The previous step's value is passed as the first argument. */
  chained: boolean;
  position: Position;
}

export interface Unit {
  decl: FuncDecl;
  contract: ContractUnit | null;
  key: string;
  /** Conditions/action sections are not charged as a function call. */
  section: boolean;
  calls: Array<{ target: CallTarget; position: Position }>;
  isAsync: boolean;
  writes: boolean;
  func: UserFunc | null;
}

export interface ContractUnit {
  decl: ContractDecl;
  key: string;
  funcs: Map<string, Unit>;
  sections: Unit[];
  writes: boolean;
  compiled: CompiledContract | null;
}
