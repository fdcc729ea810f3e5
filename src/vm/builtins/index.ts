import { convertBuiltins } from './convert';
import { jsonBuiltins } from './json';
import type { BuiltinRegistry } from './registry';
import { rowBuiltins } from './rows';
import { runtimeBuiltins } from './runtime';
import { stringBuiltins } from './strings';

export const PURE_BUILTINS = [
  ...stringBuiltins,
  ...convertBuiltins,
  ...jsonBuiltins,
  ...rowBuiltins,
  ...runtimeBuiltins,
];

/** Registers the built-ins the VM implements itself (strings, conversion, JSON, One/Row, CallContract, Settings). */
export function registerPureBuiltins(registry: BuiltinRegistry): void {
  registry.registerAll(PURE_BUILTINS);
}
