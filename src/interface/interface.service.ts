import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller';
import { ApiError } from '../common/api-error';
import { DatabaseService } from '../database/database.service';
import { EntityTable, type Selection } from '../database/entity-table';
import { RoleEntity } from '../ecosystem/entities';
import { MenuEntity, PageEntity, SnippetEntity } from './entities';
import type { MenuRow, SectionsPage } from './interface.answers';
import { LanguageResources } from './language';

export interface PageRow {
  id: bigint;
  name: string;
  value: string;
  menu: string;
  validateCount: bigint;
  appId: bigint;
  conditions: string;
}

export interface SnippetRow {
  id: bigint;
  name: string;
  value: string;
  conditions: string;
}

/** The statement reading `columns` of the row of `table` with a given ecosystem ($1) and name ($2). */
function byName<T extends { ecosystem: string; name: string }, Row>(
  table: EntityTable<T>,
  columns: Selection<Row>,
): Selection<Row> {
  return `SELECT ${columns} FROM ${table.name} WHERE ${table.column('ecosystem')} = $1 AND ${table.column('name')} = $2`;
}

const PAGES = new EntityTable(PageEntity);
const MENUS = new EntityTable(MenuEntity);
const SNIPPETS = new EntityTable(SnippetEntity);
const PAGE_BY_NAME = byName(
  PAGES,
  PAGES.select('id', 'name', 'value', 'menu', 'validateCount', 'appId', 'conditions'),
);
const MENU_BY_NAME = byName(MENUS, MENUS.select('id', 'name', 'title', 'value', 'conditions'));
const SNIPPET_BY_NAME = byName(SNIPPETS, SNIPPETS.select('id', 'name', 'value', 'conditions'));
const ROLES = new EntityTable(RoleEntity);
/** The default page of the role $1 in the ecosystem $2. */
const DEFAULT_PAGE = `SELECT ${ROLES.select('defaultPage')} FROM ${ROLES.name}
  WHERE ${ROLES.column('id')} = $1 AND ${ROLES.column('ecosystem')} = $2`;

/** A section as the wire lists it: every member a column's text, under the column's name. */
interface SectionRow {
  ecosystem: string;
  id: string;
  page: string;
  roles_access: string;
  status: string;
  title: string;
  urlname: string;
}

/** A section's `roles_access`: a JSON array of role ids (numbers, or digits in strings). */
function roleIds(text: string): bigint[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error('not an array');
  return parsed.map((item) => {
    if (typeof item === 'number' && Number.isSafeInteger(item)) return BigInt(item);
    if (typeof item === 'string' && /^-?\d{1,19}$/.test(item)) return BigInt(item);
    throw new Error(`${JSON.stringify(item)} is not a role id`);
  });
}

/** What a client builds its navigation from: the sections, and the raw rows of pages, menus and snippets. */
@Injectable()
export class InterfaceService {
  constructor(
    private readonly db: DatabaseService,
    private readonly languages: LanguageResources,
  ) {}

  /**
   * The caller ecosystem's visible sections in id order, without those whose `roles_access` leaves out
   * the caller's role; titles in the caller's language, and the home section with the role's default page.
   */
  async sections(
    caller: Caller,
    offset: bigint,
    limit: bigint,
    accept: string | undefined,
  ): Promise<SectionsPage> {
    const ecosystem = caller.ecosystemId.toString();
    const total = await this.db.one<{ count: string }>(
      'SELECT count(*) AS "count" FROM "1_sections" WHERE "ecosystem" = $1 AND "status" > 0',
      [ecosystem],
    );
    const rows = await this.db.query<SectionRow>(
      `SELECT "ecosystem"::text AS "ecosystem", "id"::text AS "id", "page", "roles_access"::text AS "roles_access",
              "status"::text AS "status", "title", "urlname"
         FROM "1_sections" AS "s" WHERE "ecosystem" = $1 AND "status" > 0 ORDER BY "s"."id" OFFSET $2 LIMIT $3`,
      [ecosystem, offset.toString(), limit.toString()],
    );
    const list: Record<string, string>[] = [];
    for (const row of rows) {
      let access: bigint[];
      try {
        access = roleIds(row.roles_access);
      } catch (error) {
        throw ApiError.server(`roles_access of section ${row.id}: ${(error as Error).message}`);
      }
      if (access.length > 0 && !access.includes(caller.roleId)) continue;
      const section: Record<string, string> = {};
      if (row.status === '2') {
        const role = await this.db.one<Pick<RoleEntity, 'defaultPage'>>(DEFAULT_PAGE, [
          caller.roleId.toString(),
          ecosystem,
        ]);
        if (role?.defaultPage) section.default_page = role.defaultPage;
      }
      Object.assign(section, row, {
        title: await this.languages.substitute(row.title, caller.ecosystemId, accept),
      });
      list.push(section);
    }
    return { count: Number(total?.count ?? 0), list: list.length > 0 ? list : null };
  }

  async page(ecosystem: bigint, name: string): Promise<PageRow> {
    const row = await this.named(PAGE_BY_NAME, ecosystem, name);
    return {
      id: BigInt(row.id),
      name: row.name,
      value: row.value,
      menu: row.menu,
      validateCount: BigInt(row.validateCount),
      appId: BigInt(row.appId),
      conditions: row.conditions,
    };
  }

  async menu(ecosystem: bigint, name: string): Promise<MenuRow> {
    const row = await this.named(MENU_BY_NAME, ecosystem, name);
    return { ...row, id: BigInt(row.id) };
  }

  async snippet(ecosystem: bigint, name: string): Promise<SnippetRow> {
    const row = await this.named(SNIPPET_BY_NAME, ecosystem, name);
    return { ...row, id: BigInt(row.id) };
  }

  /** One row by (ecosystem, name): E_NOTFOUND when missing, E_QUERY when the database fails. */
  private async named<Row>(statement: Selection<Row>, ecosystem: bigint, name: string): Promise<Row> {
    // PostgreSQL text cannot hold NUL, so no row has such a name.
    if (name.includes('\0')) throw new ApiError('E_NOTFOUND');
    let row: Row | undefined;
    try {
      row = await this.db.one<Row>(statement, [ecosystem.toString(), name]);
    } catch {
      throw new ApiError('E_QUERY');
    }
    if (!row) throw new ApiError('E_NOTFOUND');
    return row;
  }
}
