import { convertBuiltins } from './convert';
import { cryptoBuiltins } from './crypto';
import { dateTimeBuiltins } from './datetime';
import { jsonBuiltins } from './json';
import { mathBuiltins } from './math';
import { patternBuiltins } from './patterns';
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
  ...mathBuiltins,
  ...dateTimeBuiltins,
  ...cryptoBuiltins,
  ...patternBuiltins,
];

/**
 * Registers the built-ins the VM implements itself: strings, conversion, JSON, One/Row, CallContract, Settings,
 * math, date and time, encodings and chain addresses, RE2 patterns.
 */
export function registerPureBuiltins(registry: BuiltinRegistry): void {
  registry.registerAll(PURE_BUILTINS);
}
