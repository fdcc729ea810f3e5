import { Injectable } from '@nestjs/common';
import { DatabaseService, type Sql } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { PlatformParameterEntity } from '../params/entities/platform-parameter.entity';

export interface HonorNode {
  tcp_address: string;
  api_address: string;
  public_key: string;
  unban_time: string;
  stopped: boolean;
}

const PARAMETERS = new EntityTable(PlatformParameterEntity);
const NAME = PARAMETERS.column('name');
const VALUE = PARAMETERS.select('value');
const ENTRY = PARAMETERS.select('id', 'name', 'value', 'conditions');
const NAMED_VALUE = PARAMETERS.select('name', 'value');

/** Reads `1_platform_parameters` (always from the database: contracts change them inside blocks). */
@Injectable()
export class PlatformParametersService {
  constructor(private readonly db: DatabaseService) {}

  get(name: string, sql: Sql = this.db): Promise<string | undefined> {
    return platformParameter(sql, name);
  }

  async all(sql: Sql = this.db): Promise<RowOf<typeof ENTRY>[]> {
    return sql.query(`SELECT ${ENTRY} FROM ${PARAMETERS.name} ORDER BY ${PARAMETERS.column('id')}`);
  }

  /** Several parameters in one query: name → value, absent names left out. */
  async values(names: readonly string[], sql: Sql = this.db): Promise<Map<string, string>> {
    const rows = await sql.query<RowOf<typeof NAMED_VALUE>>(
      `SELECT ${NAMED_VALUE} FROM ${PARAMETERS.name} WHERE ${NAME} = ANY($1::text[])`,
      [names],
    );
    return new Map(rows.map((row) => [row.name, row.value]));
  }

  /** The `honor_nodes` list. */
  async honorNodes(sql: Sql = this.db): Promise<HonorNode[]> {
    return parseHonorNodes((await this.get('honor_nodes', sql)) ?? '');
  }

  async isTrue(name: string, sql: Sql = this.db): Promise<boolean> {
    const value = ((await this.get(name, sql)) ?? '').trim().toLowerCase();
    return value === 'true' || value === '1';
  }

  /**
   * Whether `private_blockchain` is set: any value but `""`, `0` and `false` (rest-api.md §8.1), which is
   * wider than {@link isTrue}. It switches read permissions on and is `private` in `GET /network`.
   */
  async isPrivateChain(sql: Sql = this.db): Promise<boolean> {
    return marksPrivateChain(await this.get('private_blockchain', sql));
  }
}

/**
 * One platform parameter's value, or undefined when there is none: for the service and for the contract
 * host, which reads inside the block being run (its `sql`), where no service is at hand.
 */
export async function platformParameter(sql: Sql, name: string): Promise<string | undefined> {
  const row = await sql.one<RowOf<typeof VALUE>>(
    `SELECT ${VALUE} FROM ${PARAMETERS.name} WHERE ${NAME} = $1`,
    [name],
  );
  return row?.value;
}

/** One platform parameter's row (its id, name, value and conditions), or undefined when there is none. */
export function platformParameterRow(sql: Sql, name: string): Promise<RowOf<typeof ENTRY> | undefined> {
  return sql.one<RowOf<typeof ENTRY>>(`SELECT ${ENTRY} FROM ${PARAMETERS.name} WHERE ${NAME} = $1`, [name]);
}

/** `private_blockchain`'s value read as rest-api.md §8.1 says: set unless `""`, `0` or `false` (or absent). */
export function marksPrivateChain(value: string | undefined): boolean {
  return !['', '0', 'false'].includes((value ?? '').trim().toLowerCase());
}

/** The `honor_nodes` parameter's text as a list; an unreadable value means no list, as the reference treats it. */
export function parseHonorNodes(text: string): HonorNode[] {
  if (!text.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  // As Go's unmarshal into a slice of structs: `null` is an empty entry, any other non-object spoils the list.
  if (parsed.some((item) => typeof item !== 'object' || Array.isArray(item))) return [];
  return (parsed as (Record<string, unknown> | null)[])
    .map((item) => item ?? {})
    .map((entry) => ({
      tcp_address: String(entry.tcp_address ?? ''),
      api_address: String(entry.api_address ?? ''),
      public_key: String(entry.public_key ?? ''),
      unban_time: String(entry.unban_time ?? '0'),
      stopped: entry.stopped === true,
    }));
}
