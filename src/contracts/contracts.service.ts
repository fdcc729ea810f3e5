import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { GenesisService } from '../genesis/genesis.service';
import { NodeCrypto } from '../chain/node-crypto.service';
import { keyIdToAddress } from '../crypto';
import { ApiError } from '../common/api-error';
import { DatabaseService, type Sql } from '../database/database.service';
import {
  CONTRACT_ID_OFFSET,
  Vm,
  type CompiledContract,
  type RunResult,
  type Value,
  type VmFailure,
} from '../vm';
import type { ContractInfoAnswer } from './contracts.answers';
import { releaseMemory } from './release-memory';
import {
  HOST_BUILTINS,
  Journal,
  type BlockCache,
  type JournalRecord,
  PRELUDE,
  TableCatalog,
  type CallerIdentity,
  type ContractRow,
  type HostState,
  type WriteBehind,
  pendingNotifications,
  type PendingNotifications,
} from '../contract-host';

import { SYSTEM_CONTRACTS } from '../genesis/system-contracts';

/** A failed transaction that made this much leaves it as garbage: the node asks for a collection. */
const RELEASE_AFTER_BYTES = 64 * 1024 * 1024;

export type { ContractRow };

export interface ExecuteRequest {
  /** The DB transaction the contract runs in (a block's savepoint, or a test's transaction). */
  sql: Sql;
  contract: string;
  params: ReadonlyMap<string, Value>;
  caller: CallerIdentity;
  block: { id: bigint; time: bigint; keyId: bigint; nodePosition?: bigint };
  txHash: Buffer;
  /** Transaction time, Unix seconds. */
  time: bigint;
  lang?: string;
  fuelLimit?: number;
  deadline?: number;
  /** In a block: the state the block's transactions share, and where the journal records collect. */
  cache?: BlockCache;
  /** In a block made in memory first: where rows by id are read and writes queued. */
  writeBehind?: WriteBehind;
  journal?: JournalRecord[];
}

const GUEST_KEY = -110277540701013350n;
/** The accounts of the keys every transaction's `$` variables name: worked out once, not per transaction. */
const GUEST_ACCOUNT = keyIdToAddress(GUEST_KEY);
const BLACK_HOLE_ACCOUNT = keyIdToAddress(0n);
const WHITE_HOLE_ACCOUNT = keyIdToAddress(5555n);

/**
 * The contract engine of the node: one VM holding every ecosystem's compiled contracts, loaded from
 * `1_contracts` at start-up, with the host built-ins that reach the database through the transaction a
 * contract runs in. Contracts created or edited by a transaction are registered inside a VM registry
 * transaction that follows the database transaction: kept when it commits, dropped when it rolls back.
 */
@Injectable()
export class ContractsService implements OnModuleInit {
  private readonly logger = new Logger('Contracts');
  readonly vm: Vm;
  /** Fuel of a transaction: platform parameter max_fuel_tx. */
  private fuelLimit = 20_000_000;

  constructor(
    private readonly db: DatabaseService,
    private readonly crypto: NodeCrypto,
    private readonly genesis: GenesisService,
  ) {
    this.vm = new Vm();
    this.vm.releaseMemory = releaseMemory;
    this.vm.builtins.registerAll(HOST_BUILTINS);
    this.vm.loadPrelude(PRELUDE);
  }

  async onModuleInit(): Promise<void> {
    await this.genesis.ensure();
    await this.reload(this.db);
  }

  /** Compiles every contract of every ecosystem from the database (in row order, names resolved late). */
  async reload(sql: Sql): Promise<void> {
    const started = Date.now();
    const rows = await sql.query<ContractRow>(
      `SELECT "id", "ecosystem", "name", "value", "wallet_id", "token_id", "conditions", "app_id" FROM "1_contracts" ORDER BY "id"`,
    );
    for (const row of rows) {
      try {
        this.compileRow(row);
      } catch (error) {
        // One broken row must not keep the node from serving; it is reported and left out.
        this.logger.error(
          `contract ${row.name} (row ${row.id}) does not compile: ${(error as Error).message}`,
        );
      }
    }
    await this.loadPrices(sql);
    if (rows.length > 0) this.logger.log(`compiled ${rows.length} contracts in ${Date.now() - started} ms`);
  }

  /** The built-ins' fuel prices from the `price_exec_*` platform parameters (UpdatePlatformParam changes them). */
  async loadPrices(sql: Sql = this.db): Promise<void> {
    const prices = await sql.query<{ name: string; value: string }>(
      `SELECT "name", "value" FROM "1_platform_parameters" WHERE "name" LIKE 'price_exec_%'`,
    );
    for (const price of prices) {
      if (/^\d+$/.test(price.value))
        (this.vm.options.prices as Map<string, number>).set(price.name, Number(price.value));
    }
  }

  /**
   * Brings the compiled contracts back in line with `1_contracts` after rows were taken back by the
   * journal (a rolled-back transaction or block): contracts whose row is gone are dropped, contracts
   * whose source or row changed are compiled again.
   */
  async resync(sql: Sql): Promise<void> {
    const rows = await sql.query<ContractRow>(
      `SELECT "id", "ecosystem", "name", "value", "wallet_id", "token_id", "conditions", "app_id" FROM "1_contracts" ORDER BY "id"`,
    );
    const present = new Set(rows.map((row) => Number(row.id)));
    for (const key of this.vm.registry.keys()) {
      const object = this.vm.registry.get(key);
      if (object?.kind === 'contract' && object.meta.tableId && !present.has(object.meta.tableId)) {
        this.vm.registry.delete(key);
      }
    }
    for (const row of rows) {
      const compiled = this.vm.registry.getByTableId(Number(row.id));
      const sameRow =
        compiled &&
        compiled.source === row.value &&
        compiled.meta.conditions === row.conditions &&
        compiled.meta.walletId === BigInt(row.wallet_id) &&
        compiled.meta.tokenId === BigInt(row.token_id);
      if (sameRow) continue;
      this.compileRow(row);
    }
  }

  /** Compiles a `1_contracts` row into the VM (names it uses may be defined by later rows). */
  private compileRow(row: ContractRow): void {
    this.vm.compileSource(row.value, {
      ecosystem: Number(row.ecosystem),
      extern: true,
      meta: {
        tableId: Number(row.id),
        walletId: BigInt(row.wallet_id),
        tokenId: BigInt(row.token_id),
        conditions: row.conditions,
        appId: BigInt(row.app_id),
      },
    });
  }

  contract(name: string, ecosystem: bigint): CompiledContract | undefined {
    return this.vm.getContract(name, Number(ecosystem));
  }

  /** `GET /contract/{name}`: the compiled contract and its row. */
  async info(name: string, ecosystem: bigint): Promise<ContractInfoAnswer> {
    const key = this.resolveName(name, ecosystem);
    const contract = this.vm.registry.getContract(key);
    if (!contract || !contract.meta.tableId) throw new ApiError('E_CONTRACT', name);
    let row: ContractRow | undefined;
    try {
      row = await this.db.one<ContractRow>(
        `SELECT "id", "ecosystem", "name", "value", "wallet_id", "token_id", "conditions", "app_id" FROM "1_contracts" WHERE "id" = $1`,
        [String(contract.meta.tableId)],
      );
    } catch {
      throw new ApiError('E_QUERY');
    }
    if (!row) throw new ApiError('E_CONTRACT', name);
    return {
      id: contract.meta.tableId + CONTRACT_ID_OFFSET,
      state: BigInt(contract.ecosystem),
      tableid: row.id,
      walletid: row.wallet_id,
      tokenid: row.token_id,
      address: this.crypto.address(BigInt(row.wallet_id)),
      fields: contract.fields.map((field) => ({
        name: field.name,
        type: field.type,
        optional: field.optional,
      })),
      name: contract.key,
      app_id: BigInt(row.app_id),
      ecosystem: BigInt(row.ecosystem),
      conditions: row.conditions,
    };
  }

  /** No `@` → the caller's ecosystem; `@Name` → ecosystem 1; `@<digits>Name` as written. */
  private resolveName(name: string, ecosystem: bigint): string {
    if (!name.startsWith('@')) return `@${ecosystem}${name}`;
    return /^@\d/.test(name) ? name : `@1${name.slice(1)}`;
  }

  /** `GET /contracts`: rows of the caller's ecosystem, id ascending. */
  async list(
    ecosystem: bigint,
    offset: bigint,
    limit: bigint,
  ): Promise<{ count: bigint; rows: ContractRow[] }> {
    const count = await this.db.one<{ count: string }>(
      'SELECT count(*) AS "count" FROM "1_contracts" WHERE "ecosystem" = $1',
      [ecosystem.toString()],
    );
    const rows = await this.db.query<ContractRow>(
      `SELECT "id", "ecosystem", "name", "value", "wallet_id", "token_id", "conditions", "app_id" FROM "1_contracts"
        WHERE "ecosystem" = $1 ORDER BY "id" OFFSET $2 LIMIT $3`,
      [ecosystem.toString(), offset.toString(), limit.toString()],
    );
    return { count: BigInt(count?.count ?? 0), rows };
  }

  /**
   * Runs `work` in one database transaction with the compiled contracts following it: contracts created
   * or edited inside are kept when the transaction commits and dropped when it rolls back. A block does
   * its transactions inside one of these (each `execute` nests within it).
   */
  async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    // The registry's transactions form one stack: two of these open at once (a block and a test's run,
    // or two blocks) would interleave on it, so they take turns.
    const previous = this.transactionTail;
    let release!: () => void;
    this.transactionTail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await this.registryTransaction(work);
    } finally {
      release();
    }
  }

  private transactionTail: Promise<void> = Promise.resolve();

  private async registryTransaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    const token = this.vm.registry.begin();
    try {
      const result = await this.db.transaction(work);
      this.vm.registry.commit(token);
      return result;
    } catch (error) {
      this.vm.registry.rollback(token);
      throw error;
    }
  }

  /**
   * Runs a contract as a transaction in `request.sql`. Changes to compiled contracts made by it are kept
   * only if it succeeds; the caller rolls the database back (savepoint) when it throws.
   */
  async execute(request: ExecuteRequest): Promise<RunResult & { notices?: PendingNotifications }> {
    const token = this.vm.registry.begin();
    try {
      const context = this.txContext(request);
      const result = await this.vm.runContract(request.contract, request.params, context, {
        fuelLimit: request.fuelLimit ?? this.fuelLimit,
        deadline: request.deadline,
        ecosystem: Number(request.caller.ecosystem),
      });
      this.vm.registry.commit(token);
      const notices = pendingNotifications(context.host);
      return notices.accounts.size + notices.roles.size > 0 ? { ...result, notices } : result;
    } catch (error) {
      this.vm.registry.rollback(token);
      // All it made is garbage now.
      if (((error as VmFailure).memoryReserved ?? 0) >= RELEASE_AFTER_BYTES) releaseMemory();
      throw error;
    }
  }

  /**
   * Evaluates permission conditions for a reader outside any block (tables' and columns' `read`
   * conditions, for the API), in a read-only database transaction: a condition may look, never write. A
   * condition that fails counts as false.
   */
  async readConditions(caller: CallerIdentity, conditions: readonly string[]): Promise<boolean[]> {
    return this.db.transaction(async (sql) => {
      await sql.query('SET TRANSACTION READ ONLY');
      const now = BigInt(Math.floor(Date.now() / 1000));
      const context = this.txContext({
        sql,
        contract: '',
        params: new Map(),
        caller,
        block: { id: 0n, time: now, keyId: 0n },
        txHash: Buffer.alloc(32),
        time: now,
      });
      const results: boolean[] = [];
      for (const condition of conditions) {
        try {
          results.push(
            await this.vm.evalCondition(condition, { tx: context, ecosystem: Number(caller.ecosystem) }),
          );
        } catch {
          results.push(false);
        }
      }
      return results;
    });
  }

  private txContext(request: ExecuteRequest) {
    const { caller, block } = request;
    const host: HostState = {
      sql: request.sql,
      catalog: request.cache?.catalog ?? new TableCatalog(request.sql),
      journal: new Journal(request.sql, block.id, request.txHash, request.journal, request.cache),
      cache: request.cache,
      writeBehind: request.writeBehind,
      crypto: this.crypto,
      vm: this.vm,
      caller,
      block,
      txHash: request.txHash,
      lang: request.lang ?? 'en',
      registerContract: (source, ecosystem, meta) => {
        this.vm.compileSource(source, { ecosystem: Number(ecosystem), meta: { ...meta } });
      },
      ecosystemContracts: () => SYSTEM_CONTRACTS.filter((contract) => contract.perEcosystem),
    };
    const vars: Record<string, Value> = {
      key_id: caller.keyId,
      account_id: caller.account,
      ecosystem_id: caller.ecosystem,
      role_id: caller.roleId,
      time: request.time,
      block: block.id,
      block_time: block.time,
      block_key_id: block.keyId,
      node_position: block.nodePosition ?? 0n,
      txhash: request.txHash.toString('hex'),
      guest_key: GUEST_KEY,
      guest_account: GUEST_ACCOUNT,
      black_hole_key: 0n,
      black_hole_account: BLACK_HOLE_ACCOUNT,
      white_hole_key: 5555n,
      white_hole_account: WHITE_HOLE_ACCOUNT,
    };
    return { vars, host };
  }
}
