import { failBare } from './fail';
import type { ContractUnit, Unit } from './units';

/**
 * Fixpoint over the source's call graph: which units may suspend and which reach a DB write. Besides the
 * calls that wait (async built-ins, contracts), a unit may suspend when it loops or calls a contract-language
 * function: those are the places that check the clock, so that neither loops nor recursion, however
 * deep or wide, run on without meeting it.
 */
export function propagateEffects(units: readonly Unit[], contracts: readonly ContractUnit[]): void {
  const contractWrites = (contract: ContractUnit): boolean =>
    contract.sections.some((section) => section.writes);
  let changed = true;
  while (changed) {
    changed = false;
    for (const unit of units) {
      let isAsync = unit.isAsync;
      let writes = unit.writes;
      for (const { target } of unit.calls) {
        switch (target.kind) {
          case 'unit':
            isAsync = true;
            writes ||= target.unit.writes;
            break;
          case 'func':
            isAsync = true;
            writes ||= target.func.writesDb;
            break;
          case 'builtin':
            isAsync ||= target.builtin.async;
            writes ||= target.builtin.writesDb;
            break;
          case 'contract':
            isAsync = true;
            writes ||= target.unit ? contractWrites(target.unit) : target.writes;
            break;
          case 'extern':
            isAsync = true;
            break;
        }
      }
      if (isAsync !== unit.isAsync || writes !== unit.writes) {
        unit.isAsync = isAsync;
        unit.writes = writes;
        changed = true;
      }
    }
  }
  for (const contract of contracts) {
    contract.writes = contractWrites(contract) || [...contract.funcs.values()].some((f) => f.writes);
  }
}

export function checkConditions(contracts: readonly ContractUnit[]): void {
  for (const contract of contracts) {
    const conditions = contract.sections.find((section) => section.decl.name === 'conditions');
    if (!conditions?.writes) continue;
    for (const { target, position } of conditions.calls) {
      const writes =
        target.kind === 'unit'
          ? target.unit.writes
          : target.kind === 'func'
            ? target.func.writesDb
            : target.kind === 'builtin'
              ? target.builtin.writesDb
              : target.kind === 'contract'
                ? target.unit
                  ? target.unit.sections.some((s) => s.writes)
                  : target.writes
                : false;
      if (writes)
        failBare(
          `'conditions' cannot call contracts or functions which can modify the blockchain database`,
          position,
        );
    }
  }
}
