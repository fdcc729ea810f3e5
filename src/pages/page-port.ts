import type { ChainMemo } from '../chain/chain-memo';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { ApiError } from '../common/api-error';
import { goJsonStringify } from '../common/go-json';
import { DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { BinaryEntity } from '../binaries/entities/binary.entity';
import { InterfaceService } from '../interface/interface.service';
import { LanguageResources } from '../interface/language';
import { ParametersService } from '../params/params.service';
import { TableError } from '../table-access/catalog';
import { TablesService, type Reader } from '../tables/tables.service';
import {
  PageDataError,
  type BinaryQuery,
  type FindRowsQuery,
  type FoundRows,
  type HistoryQuery,
  type HistoryRows,
  type TemplatePort,
  type WhereValue,
} from '../template';
import { TxService } from '../tx/tx.service';
import type { Value } from '../vm';

/** The node services a page reads through; one set per application, shared by every render. */
export interface PageSources {
  db: DatabaseService;
  tables: TablesService;
  parameters: ParametersService;
  platform: PlatformParametersService;
  languages: LanguageResources;
  ui: InterfaceService;
  txs: TxService;
  /** Reads kept across renders until the chain changes. */
  reads?: ChainMemo<unknown>;
}

const INT64_MAX = 2n ** 63n - 1n;

const BINARIES = new EntityTable(BinaryEntity);
const BINARY = BINARIES.select('id', 'hash');
const BINARY_BY_ID = `SELECT ${BINARY} FROM ${BINARIES.name}
  WHERE ${BINARIES.column('id')} = $1 AND ${BINARIES.column('ecosystem')} = $2`;

/** An ecosystem id written in a page (`#ecosystem_id#`, `Ecosystem:`), undefined when it is none. */
export function ecosystemIdOf(text: string): bigint | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,19}$/.test(trimmed)) return undefined;
  const id = BigInt(trimmed);
  return id > 0n && id <= INT64_MAX ? id : undefined;
}

function integerOf(text: string): bigint {
  return /^-?\d{1,19}$/.test(text) && BigInt(text) <= INT64_MAX && BigInt(text) >= -INT64_MAX - 1n
    ? BigInt(text)
    : 0n;
}

/** The page language's lenient objects (plain objects, lists, texts) as the where and order compilers take them. */
function contractValue(value: WhereValue): Value {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(contractValue);
  return new Map(Object.entries(value).map(([key, item]) => [key, contractValue(item)]));
}

/**
 * Refusals of the table access (unknown table or column, permissions, a where it cannot compile) are shown
 * in the page where the function's output would be, as the reference shows its database errors.
 */
async function shownOnPage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError || error instanceof TableError) {
      throw new PageDataError(/access denied/i.test(error.message) ? 'Access denied' : error.message);
    }
    throw error;
  }
}

/**
 * The template port of one render: every database function of a page goes through the node's services, with
 * the reader's read permissions. The reader is the session (or, for anonymous renders, nobody in the requested
 * ecosystem): never what the page's variables claim. Parameters, resources and snippets are read once per
 * render.
 */
export class NodeTemplatePort implements TemplatePort {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    private readonly sources: PageSources,
    private readonly reader: Reader,
  ) {}

  /** Read once per render, and kept across renders until the chain changes. */
  private once<T>(key: string, work: () => Promise<T>): Promise<T> {
    let found = this.memo.get(key) as Promise<T> | undefined;
    if (!found) {
      const { reads } = this.sources;
      found = reads ? (reads.get(key, work) as Promise<T>) : work();
      this.memo.set(key, found);
    }
    return found;
  }

  /** What the reader may see depends on who reads. */
  private readerKey(): string {
    const { ecosystem, keyId, roleId } = this.reader;
    return `${ecosystem}\0${keyId}\0${roleId}`;
  }

  findRows(query: FindRowsQuery): Promise<FoundRows> {
    return this.once(`rows\0${this.readerKey()}\0${JSON.stringify(query)}`, () => this.findRowsNow(query));
  }

  private findRowsNow(query: FindRowsQuery): Promise<FoundRows> {
    return shownOnPage(() =>
      this.sources.tables.find(this.reader, {
        table: query.table,
        columns: query.columns,
        where: query.where === undefined ? undefined : contractValue(query.where),
        order: query.order === undefined ? undefined : contractValue(query.order),
        limit: query.limit,
        offset: query.offset,
        count: query.count,
        cutoff: query.cutoff,
      }),
    );
  }

  ecosystemParam(ecosystem: string, name: string): Promise<string | undefined> {
    const id = ecosystemIdOf(ecosystem);
    if (id === undefined || name.includes('\0')) return Promise.resolve(undefined);
    return this.once(`eco\0${id}\0${name}`, () =>
      notFoundAsUndefined(async () => (await this.sources.parameters.ecosystemParameter(id, name)).value),
    );
  }

  appParam(ecosystem: string, app: string, name: string): Promise<string | undefined> {
    const id = ecosystemIdOf(ecosystem);
    if (id === undefined || name.includes('\0')) return Promise.resolve(undefined);
    return this.once(`app\0${id}\0${app}\0${name}`, () =>
      notFoundAsUndefined(
        async () => (await this.sources.parameters.appParameter(id, integerOf(app), name)).value,
      ),
    );
  }

  systemParam(name: string): Promise<string | undefined> {
    if (name.includes('\0')) return Promise.resolve(undefined);
    return this.once(`sys\0${name}`, () => this.sources.platform.get(name));
  }

  /** At once when kept: a menu asks for dozens of labels, and each wait is a turn of the event loop. */
  langRes(
    ecosystem: string,
    name: string,
  ): Promise<Record<string, string> | undefined> | Record<string, string> | undefined {
    const id = ecosystemIdOf(ecosystem);
    if (id === undefined) return undefined;
    const key = `lang\0${id}\0${name}`;
    const kept = this.sources.reads?.peek(key);
    if (kept) return kept.value as Record<string, string> | undefined;
    return this.once(key, () => this.sources.languages.translations(id, name));
  }

  snippet(ecosystem: string, name: string): Promise<string | undefined> {
    const id = ecosystemIdOf(ecosystem);
    if (id === undefined) return Promise.resolve(undefined);
    return this.once(`snippet\0${id}\0${name}`, () =>
      notFoundAsUndefined(async () => (await this.sources.ui.snippet(id, name)).value),
    );
  }

  async binaryUrl(query: BinaryQuery): Promise<string | undefined> {
    const ecosystem = ecosystemIdOf(query.ecosystem) ?? this.reader.ecosystem;
    const texts = [query.id, query.appId, query.name, query.account].filter((text) => text !== undefined);
    if (texts.some((text) => text.includes('\0'))) return undefined;
    const row =
      query.id !== undefined
        ? await this.sources.db.one<RowOf<typeof BINARY>>(BINARY_BY_ID, [
            integerOf(query.id).toString(),
            ecosystem.toString(),
          ])
        : await this.sources.db.one<RowOf<typeof BINARY>>(
            `SELECT ${BINARY} FROM ${BINARIES.name}
              WHERE ${BINARIES.column('ecosystem')} = $1 AND ${BINARIES.column('appId')} = $2
                AND ${BINARIES.column('name')} = $3 AND ${BINARIES.column('account')} = $4`,
            [
              ecosystem.toString(),
              integerOf(query.appId ?? '').toString(),
              query.name ?? '',
              query.account ?? '',
            ],
          );
    return row ? `/data/1_binaries/${row.id}/data/${row.hash}` : undefined;
  }

  history(query: HistoryQuery): Promise<HistoryRows> {
    return shownOnPage(() =>
      this.sources.tables.historyRows(
        this.reader,
        query.table,
        integerOf(query.id),
        integerOf(query.rollbackId),
      ),
    );
  }

  columnType(_ecosystem: string, table: string, column: string): Promise<string> {
    return shownOnPage(() => this.sources.tables.columnType(this.reader, table, column));
  }

  /** `{"block","contract","params"}` of a mined transaction. */
  async txInfo(hash: string): Promise<string> {
    const info = await shownOnPage(() => this.sources.txs.info(hash, true));
    if (info.blockId === 0n || !info.data) throw new PageDataError('Item not found');
    return goJsonStringify({
      block: info.blockId.toString(),
      contract: info.data.contract_name,
      params: info.data.params ?? null,
    });
  }
}

/** A missing parameter or snippet is an empty answer, not an error. */
async function notFoundAsUndefined<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'E_PARAMNOTFOUND' || error.code === 'E_NOTFOUND'))
      return undefined;
    throw error;
  }
}
