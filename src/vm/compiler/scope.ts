import type { Position } from '../ast';
import { assignmentChecker } from '../runtime';
import type { TypeName, Value } from '../values';
import { fail, failBare } from './fail';

export interface VarSlot {
  slot: number;
  type: TypeName;
  check: (value: Value) => Value;
}

/** A function's nested blocks of variables. Slots are numbered across the whole function: one frame holds them all. */
export class Scope {
  private readonly levels: Array<Map<string, VarSlot>> = [];
  private slots = 0;

  get slotCount(): number {
    return this.slots;
  }

  open(): void {
    this.levels.push(new Map());
  }

  close(): void {
    this.levels.pop();
  }

  declare(name: string, type: TypeName, at: Position): VarSlot {
    const level = this.levels[this.levels.length - 1];
    if (level.has(name)) fail(`variable ${name} has been already declared`, at);
    const slot: VarSlot = { slot: this.slots++, type, check: assignmentChecker(type, name) };
    level.set(name, slot);
    return slot;
  }

  lookup(name: string, at: Position): VarSlot {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const found = this.levels[i].get(name);
      if (found) return found;
    }
    return failBare(`unknown identifier ${name}`, at);
  }
}
