import { CONTRACT_ID_OFFSET, type CompiledContract, type CompiledObject } from './objects';

interface JournalEntry {
  key: string;
  previous: CompiledObject | undefined;
}

/**
 * Every compiled contract and top-level function of all ecosystems, keyed `@<eco><Name>` (prelude functions by
 * plain name). Changes can be grouped in nested transactions: `begin()` returns a token, `commit(token)` keeps the
 * changes (folding them into the enclosing transaction, if any) and `rollback(token)` restores what was there.
 */
export class ObjectRegistry {
  private readonly objects = new Map<string, CompiledObject>();
  private readonly byTableId = new Map<number, string>();
  private readonly journals: JournalEntry[][] = [];
  /** Bumped on every change. */
  version = 0;
  /** Bumped when a function object changes (compiled code binds functions directly). */
  funcVersion = 0;

  get(key: string): CompiledObject | undefined {
    return this.objects.get(key);
  }

  getContract(key: string): CompiledContract | undefined {
    const found = this.objects.get(key);
    return found?.kind === 'contract' ? found : undefined;
  }

  /** A contract by its row id in the contracts table. */
  getByTableId(tableId: number): CompiledContract | undefined {
    const key = this.byTableId.get(tableId);
    return key === undefined ? undefined : this.getContract(key);
  }

  /** A contract by its transaction id (5000 + row id). */
  getById(id: number): CompiledContract | undefined {
    return id > CONTRACT_ID_OFFSET ? this.getByTableId(id - CONTRACT_ID_OFFSET) : undefined;
  }

  has(key: string): boolean {
    return this.objects.has(key);
  }

  keys(): string[] {
    return [...this.objects.keys()];
  }

  get size(): number {
    return this.objects.size;
  }

  set(object: CompiledObject): void {
    this.record(object.key);
    this.apply(object.key, object);
  }

  /** Changes a contract's row data (wallet, token, conditions …) as a journaled change. */
  updateMeta(key: string, patch: Partial<CompiledContract['meta']>): void {
    const contract = this.getContract(key);
    if (!contract) throw new Error(`unknown contract ${key}`);
    this.set({ ...contract, meta: { ...contract.meta, ...patch } });
  }

  delete(key: string): boolean {
    if (!this.objects.has(key)) return false;
    this.record(key);
    this.apply(key, undefined);
    return true;
  }

  /** Starts a (nested) transaction of registry changes. */
  begin(): number {
    this.journals.push([]);
    return this.journals.length;
  }

  get depth(): number {
    return this.journals.length;
  }

  commit(token: number): void {
    const journal = this.pop(token);
    const parent = this.journals[this.journals.length - 1];
    if (parent) parent.push(...journal);
  }

  rollback(token: number): void {
    const journal = this.pop(token);
    for (let i = journal.length - 1; i >= 0; i--) this.apply(journal[i].key, journal[i].previous);
  }

  private pop(token: number): JournalEntry[] {
    if (token !== this.journals.length || token === 0) {
      throw new Error(
        `registry transaction ${token} is not the innermost one (depth ${this.journals.length})`,
      );
    }
    return this.journals.pop()!;
  }

  private record(key: string): void {
    const journal = this.journals[this.journals.length - 1];
    if (journal) journal.push({ key, previous: this.objects.get(key) });
  }

  private apply(key: string, object: CompiledObject | undefined): void {
    const previous = this.objects.get(key);
    if (previous?.kind === 'contract' && previous.meta.tableId !== undefined) {
      if (this.byTableId.get(previous.meta.tableId) === key) this.byTableId.delete(previous.meta.tableId);
    }
    if (previous?.kind === 'func' || object?.kind === 'func') this.funcVersion++;
    if (object === undefined) this.objects.delete(key);
    else {
      this.objects.set(key, object);
      if (
        object.kind === 'contract' &&
        object.meta.tableId !== undefined &&
        !this.byTableId.has(object.meta.tableId)
      ) {
        this.byTableId.set(object.meta.tableId, key);
      }
    }
    this.version++;
  }
}
