import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { bindList, DatabaseService } from '../database/database.service';
import { EntityTable } from '../database/entity-table';
import { ContractEntity } from '../contracts/entities/contract.entity';
import { PageEntity, SnippetEntity } from '../interface/entities';
import type { AppContent, ParameterEntry } from './params.answers';

/** A window of a list: rows `offset`… at most `limit` of them. */
export interface ListWindow {
  offset: bigint;
  limit: bigint;
}

/** The parameter tables a read may name; never a name from the request. */
type ParameterTable = '1_platform_parameters' | '1_parameters' | '1_app_params';

/** `a,b,,c` → `[a, b, c]`: the comma list of a `names` value, empty items dropped. */
export function parameterNames(text: string | undefined | null): string[] {
  return (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The JSON-RPC window of a parameter list (json-rpc.md §6.4): limit 0 → 25, at most 100. */
export function rpcWindow(offset: bigint | undefined, limit: bigint | undefined): ListWindow {
  let size = limit ?? 0n;
  if (size <= 0n) size = 25n;
  if (size > 100n) size = 100n;
  return { offset: offset !== undefined && offset > 0n ? offset : 0n, limit: size };
}

/**
 * Reads of the platform parameters, the ecosystem parameters and the application parameters, and what an
 * application consists of. Every statement names a fixed table and binds every value.
 */
type AppObject = { id: string; name: string };
type AppTable = EntityTable<AppObject & { ecosystem: string; appId: string }>;

/** The ids and names of an application's objects in one of its tables ($1 the ecosystem, $2 the application). */
function appObjects(table: AppTable): string {
  return `SELECT ${table.select('id', 'name')} FROM ${table.name}
    WHERE ${table.column('ecosystem')} = $1 AND ${table.column('appId')} = $2 ORDER BY ${table.column('id')}`;
}

const APP_SNIPPETS = appObjects(new EntityTable(SnippetEntity));
const APP_PAGES = appObjects(new EntityTable(PageEntity));
const APP_CONTRACTS = appObjects(new EntityTable(ContractEntity));

@Injectable()
export class ParametersService {
  constructor(private readonly db: DatabaseService) {}

  /**
   * Platform parameters, all or the named ones. An empty answer is E_PARAMNOTFOUND (sent as 400 over REST
   * as the reference does; -32012 over JSON-RPC).
   */
  async platformParameters(names: string[], window?: ListWindow): Promise<ParameterEntry[]> {
    const list = await this.list('1_platform_parameters', [], names, window);
    if (list.length === 0) throw new ApiError('E_PARAMNOTFOUND', names.join(',')).withStatus(400);
    return list;
  }

  /** Parameters of an ecosystem: all of them without names (decisions.md), else the named ones. */
  ecosystemParameters(ecosystem: bigint, names: string[], window?: ListWindow): Promise<ParameterEntry[]> {
    return this.list('1_parameters', [['ecosystem', ecosystem]], names, window);
  }

  async ecosystemParameter(ecosystem: bigint, name: string): Promise<ParameterEntry> {
    const [found] = await this.list('1_parameters', [['ecosystem', ecosystem]], [name]);
    if (!found) throw new ApiError('E_PARAMNOTFOUND', name);
    return found;
  }

  appParameters(
    ecosystem: bigint,
    appId: bigint,
    names: string[],
    window?: ListWindow,
  ): Promise<ParameterEntry[]> {
    return this.list(
      '1_app_params',
      [
        ['ecosystem', ecosystem],
        ['app_id', appId],
      ],
      names,
      window,
    );
  }

  async appParameter(ecosystem: bigint, appId: bigint, name: string): Promise<ParameterEntry> {
    const [found] = await this.list(
      '1_app_params',
      [
        ['ecosystem', ecosystem],
        ['app_id', appId],
      ],
      [name],
    );
    if (!found) throw new ApiError('E_PARAMNOTFOUND', name);
    return found;
  }

  /** The snippets, pages and contracts of an application in an ecosystem, by id. */
  async appContent(ecosystem: bigint, appId: bigint): Promise<AppContent> {
    const objects = async (statement: string) =>
      (await this.db.query<AppObject>(statement, [ecosystem.toString(), appId.toString()])).map((row) => ({
        id: BigInt(row.id),
        name: row.name,
      }));
    return {
      snippets: await objects(APP_SNIPPETS),
      pages: await objects(APP_PAGES),
      contracts: await objects(APP_CONTRACTS),
    };
  }

  /**
   * Rows of a parameter table in id order: filtered by the fixed `scope` columns and, when names are
   * given, by name (the window is then ignored, as the reference does).
   */
  private async list(
    table: ParameterTable,
    scope: [column: 'ecosystem' | 'app_id', value: bigint][],
    names: string[],
    window?: ListWindow,
  ): Promise<ParameterEntry[]> {
    // PostgreSQL text cannot hold NUL: such a name names nothing.
    if (names.some((name) => name.includes('\0'))) {
      names = names.filter((name) => !name.includes('\0'));
      if (names.length === 0) return [];
    }
    const params: unknown[] = [];
    const conditions = scope.map(([column, value]) => `"${column}" = $${params.push(value.toString())}`);
    if (names.length > 0) conditions.push(`"name" IN (${bindList(names, params)})`);
    let text = `SELECT "id"::text AS "id", "name", "value", "conditions" FROM "${table}" AS "p"`;
    if (conditions.length > 0) text += ` WHERE ${conditions.join(' AND ')}`;
    // Qualified: the bare name would sort by the text alias.
    text += ' ORDER BY "p"."id"';
    if (window && names.length === 0) {
      text += ` OFFSET $${params.push(window.offset.toString())} LIMIT $${params.push(window.limit.toString())}`;
    }
    const rows = await this.db.query<ParameterEntry>(text, params);
    return rows.map((row) => ({ id: row.id, name: row.name, value: row.value, conditions: row.conditions }));
  }
}
