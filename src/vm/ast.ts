import type { TypeName, Value } from './values';

export interface Position {
  line: number;
  column: number;
}

export interface LiteralExpr extends Position {
  kind: 'literal';
  value: Value;
}
export interface VarExpr extends Position {
  kind: 'var';
  name: string;
}
export interface ExtendExpr extends Position {
  kind: 'extend';
  name: string;
}
export interface IndexExpr extends Position {
  kind: 'index';
  target: VarExpr | ExtendExpr;
  index: Expr;
}
export interface UnaryExpr extends Position {
  kind: 'unary';
  operator: '-' | '!';
  operand: Expr;
}
export type BinaryOperator = '*' | '/' | '+' | '-' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||';
export interface BinaryExpr extends Position {
  kind: 'binary';
  operator: BinaryOperator;
  left: Expr;
  right: Expr;
}
export interface MapExpr extends Position {
  kind: 'map';
  entries: Array<[string, Expr]>;
}
export interface ArrayExpr extends Position {
  kind: 'array';
  items: Expr[];
}
export interface CallArg {
  expr: Expr;
  spread: boolean;
}
export interface TailCall extends Position {
  name: string;
  args: CallArg[];
}
export interface CallExpr extends Position {
  kind: 'call';
  /** The name as written: `Name`, or for `@1Name` the text after `@` with `prefixed` set. */
  name: string;
  prefixed: boolean;
  args: CallArg[];
  tails: TailCall[];
}
/** `$name(args)`: a function from the host's extend map. */
export interface ExtendCallExpr extends Position {
  kind: 'extendCall';
  name: string;
  args: CallArg[];
}

export type Expr =
  | LiteralExpr
  | VarExpr
  | ExtendExpr
  | IndexExpr
  | UnaryExpr
  | BinaryExpr
  | MapExpr
  | ArrayExpr
  | CallExpr
  | ExtendCallExpr;

export interface VarDeclStmt extends Position {
  kind: 'varDecl';
  vars: Array<{ name: string; type: TypeName } & Position>;
}
export type AssignTarget = VarExpr | ExtendExpr | IndexExpr;
export interface AssignStmt extends Position {
  kind: 'assign';
  targets: AssignTarget[];
  /** One value (possibly a call with several results) or one value per target. */
  values: Expr[];
}
export interface ExprStmt extends Position {
  kind: 'expr';
  expr: CallExpr | ExtendCallExpr;
}
export interface IfStmt extends Position {
  kind: 'if';
  condition: Expr;
  then: Block;
  otherwise: Block | null;
}
export interface WhileStmt extends Position {
  kind: 'while';
  condition: Expr;
  body: Block;
}
export interface JumpStmt extends Position {
  kind: 'break' | 'continue';
}
export interface ReturnStmt extends Position {
  kind: 'return';
  values: Expr[];
}
export interface ThrowStmt extends Position {
  kind: 'throw';
  level: 'error' | 'warning' | 'info';
  value: Expr;
}
export type Stmt =
  VarDeclStmt | AssignStmt | ExprStmt | IfStmt | WhileStmt | JumpStmt | ReturnStmt | ThrowStmt;

export interface Block extends Position {
  statements: Stmt[];
}

export interface ParamDecl extends Position {
  name: string;
  /** null for an untyped variadic parameter (`rest ...`). */
  type: TypeName | null;
}
export interface TailDecl extends Position {
  name: string;
  params: ParamDecl[];
  /** The tail's last parameter collects the remaining arguments of the tail as an array. */
  variadic: boolean;
}
export interface FuncDecl extends Position {
  kind: 'func';
  name: string;
  params: ParamDecl[];
  /** The last parameter collects the remaining arguments as an array. */
  variadic: boolean;
  tails: TailDecl[];
  results: TypeName[];
  body: Block;
}
export interface DataField extends Position {
  name: string;
  type: TypeName;
  tags: string;
}
export interface SettingDecl extends Position {
  name: string;
  value: Value;
}
export interface ContractDecl extends Position {
  kind: 'contract';
  name: string;
  fields: DataField[];
  settings: SettingDecl[];
  funcs: FuncDecl[];
  conditions: FuncDecl | null;
  action: FuncDecl | null;
}
export type TopDecl = FuncDecl | ContractDecl;

export interface SourceAst {
  decls: TopDecl[];
}
