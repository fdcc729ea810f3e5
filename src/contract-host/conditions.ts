import type { BuiltinContext, BuiltinDef, Value } from '../vm';
import { textArg } from './args';
import { allowed } from './permissions';

/**
 * CheckCondition(condition) → whether a condition holds for the caller, as a bool (where Eval fails when it
 * does not); an empty condition does not hold. A condition that does not compile is an error.
 */
async function checkCondition(ctx: BuiltinContext, condition: Value): Promise<Value> {
  const text = textArg(condition, 'condition');
  if (text.length === 0) return false;
  return allowed(ctx, text);
}

export const CONDITION_BUILTINS: BuiltinDef[] = [{ name: 'CheckCondition', fn: checkCondition, params: 1 }];
