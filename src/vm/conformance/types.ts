import type { Value } from '../values';

export type Expectation =
  | { result: string }
  | { error: { type: 'error' | 'warning' | 'info' | 'panic'; message: string; exact?: boolean } }
  | { compileError: { message: string; line: number; col: number } };

export interface ConformanceCase {
  name: string;
  /** Contract and/or function declarations, compiled in ecosystem 1. */
  source: string;
  /** Extra sources compiled first (other contracts/functions), each in ecosystem 1 unless `@eco:` prefixed. */
  before?: string[];
  /** Contract to run; default: the first contract of `source`. */
  contract?: string;
  params?: Record<string, Value>;
  fuelLimit?: number;
  expect: Expectation;
}

/** `contract T { action { <body> } }` with the body on its own lines. */
export function action(body: string): string {
  return `contract T {\n  action {\n${body}\n  }\n}`;
}

/** A contract whose action sets `$result` to the given expression. */
export function expr(expression: string): string {
  return action(`    $result = ${expression}`);
}
