import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller';
import { NodeCrypto } from '../chain/node-crypto.service';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { GUEST_KEY_ID } from '../chain/seed/ecosystem-seed';
import { ChainEvents } from '../chain/chain-events';
import { ChainMemo } from '../chain/chain-memo';
import { ApiError } from '../common/api-error';
import { goJsonStringify } from '../common/go-json';
import { APP_CONFIG, type AppConfig } from '../config';
import { DatabaseService } from '../database/database.service';
import { EcosystemService } from '../ecosystem/ecosystem.service';
import { InterfaceService, type PageRow } from '../interface/interface.service';
import { LanguageResources } from '../interface/language';
import { ParametersService } from '../params/params.service';
import type { Reader } from '../tables/tables.service';
import { TablesService } from '../tables/tables.service';
import { dict, HeavyPageError, renderTemplateJson } from '../template';
import { TxService } from '../tx/tx.service';
import { ecosystemIdOf, NodeTemplatePort, type PageSources } from './page-port';
import { RawJson, type MenuAnswer, type PageAnswer } from './pages.answers';

/** Who asks for a render and with which values (form fields or RPC `vals`, by the names as sent). */
export interface ContentRequest {
  caller: Caller;
  values: ReadonlyMap<string, string>;
  /** The Accept-Language header: the language when there is no `lang` value. */
  acceptLanguage?: string;
}

export interface PageContent {
  menu: string;
  menuTree: RawJson;
  tree: RawJson;
  nodesCount: bigint;
}

export interface MenuContent {
  title: string;
  tree: RawJson;
}

const BLACK_HOLE_KEY = 0n;
const WHITE_HOLE_KEY = 5555n;
/** `@<ecosystem><name>`, as the reference parses qualified page and menu names. */
const QUALIFIED_NAME = /^@(\d+)(\w[\w]*)$/i;

/**
 * The answer of `content/page` with Go's omitempty rules: the object the page hash is taken over. JSON-RPC
 * also leaves out an empty menu tree.
 */
export function pageAnswer(content: PageContent, omitEmptyMenuTree = false): PageAnswer {
  return {
    menu: content.menu || undefined,
    menutree: omitEmptyMenuTree && content.menuTree.text === '[]' ? undefined : content.menuTree,
    tree: content.tree,
    nodesCount: content.nodesCount !== 0n ? content.nodesCount : undefined,
  };
}

/** The answer of `content/menu` and `getMenu`: the title is left out when empty. */
export function menuAnswer(menu: MenuContent): MenuAnswer {
  return { title: menu.title || undefined, tree: menu.tree };
}

/**
 * Pages, menus and templates rendered into the JSON trees Weaver draws (rest-api.md §10): the page and
 * its menu, a menu, a page's structure (source mode), any template, a page's hash and validator count.
 * Every render is bounded by the configured time, node and size limits (E_HEAVYPAGE past them).
 */
@Injectable()
export class PagesService {
  private readonly sources: PageSources;
  /** What renders read (pages, menus, rows, parameters, resources), kept until the chain changes. */
  private readonly reads: ChainMemo<unknown>;

  constructor(
    db: DatabaseService,
    tables: TablesService,
    parameters: ParametersService,
    platform: PlatformParametersService,
    languages: LanguageResources,
    private readonly ui: InterfaceService,
    txs: TxService,
    private readonly ecosystems: EcosystemService,
    private readonly crypto: NodeCrypto,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    events: ChainEvents,
  ) {
    this.reads = new ChainMemo(events);
    this.sources = { db, tables, parameters, platform, languages, ui, txs, reads: this.reads };
    this.wellKnownVars = {
      guest_key: GUEST_KEY_ID.toString(),
      guest_account: crypto.address(GUEST_KEY_ID),
      black_hole_key: BLACK_HOLE_KEY.toString(),
      black_hole_account: crypto.address(BLACK_HOLE_KEY),
      white_hole_key: WHITE_HOLE_KEY.toString(),
      white_hole_account: crypto.address(WHITE_HOLE_KEY),
    };
  }

  /** The platform's fixed keys and their accounts, as every render sees them (worked out once). */
  private readonly wellKnownVars: Record<string, string>;

  private kept<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.reads.get(key, load) as Promise<T>;
  }

  /**
   * A row kept like any read, its absence too (a page naming a menu that does not exist would otherwise
   * ask the database on every render): E_NOTFOUND either way.
   */
  private async keptRow<T>(key: string, load: () => Promise<T>): Promise<T> {
    const found = await this.kept(key, async () => {
      try {
        return { row: await load() };
      } catch (error) {
        if (error instanceof ApiError && error.code === 'E_NOTFOUND') return undefined;
        throw error;
      }
    });
    if (!found) throw new ApiError('E_NOTFOUND');
    return found.row;
  }

  /** The page and its menu (the menu of the session's ecosystem), rendered under one deadline. */
  async page(name: string, request: ContentRequest): Promise<PageContent> {
    const page = await this.findPage(name, request.caller.ecosystemId);
    let menuTemplate = '';
    if (page.menu !== '') {
      try {
        menuTemplate = (await this.menuRow(request.caller.ecosystemId, page.menu)).value;
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'E_NOTFOUND')) throw new ApiError('E_SERVER');
      }
    }
    const vars = await this.variables(request);
    vars.app_id = page.appId.toString();
    const deadline = this.deadline();
    const reader = this.reader(request.caller, vars);
    const tree = await this.render(page.value, vars, reader, deadline);
    const menuTree = await this.render(menuTemplate, vars, reader, deadline);
    return { menu: page.menu, menuTree, tree, nodesCount: page.validateCount };
  }

  /**
   * The hash (configured hasher, hex) of the exact JSON `content/page` answers for the page; with an
   * `ecosystem` and a plain name, the page of that ecosystem.
   */
  async pageHash(name: string, ecosystem: string | undefined, request: ContentRequest): Promise<string> {
    const qualified = ecosystem && !name.startsWith('@') ? `@${ecosystem}${name}` : name;
    const content = await this.page(qualified, request);
    const json = goJsonStringify(pageAnswer(content));
    return Buffer.from(this.crypto.hasher.hash(Buffer.from(json, 'utf8'))).toString('hex');
  }

  async menu(name: string, request: ContentRequest): Promise<MenuContent> {
    const { ecosystem, name: menuName } = this.qualified(name, request.caller.ecosystemId);
    let menu;
    try {
      menu = await this.menuRow(ecosystem, menuName);
    } catch (error) {
      throw serverError(error);
    }
    const vars = await this.variables(request);
    return {
      title: menu.title,
      tree: await this.render(menu.value, vars, this.reader(request.caller, vars), this.deadline()),
    };
  }

  /** The page's structure: source mode, so nothing runs and nothing is read. */
  async source(name: string, request: ContentRequest): Promise<RawJson> {
    const page = await this.findPage(name, request.caller.ecosystemId);
    const vars = await this.variables(request);
    vars._full = '1';
    return this.render(page.value, vars, this.reader(request.caller, vars), this.deadline());
  }

  /** Any template, rendered (or in source mode, its structure). */
  async content(template: string, source: boolean, request: ContentRequest): Promise<RawJson> {
    if (template === '') throw ApiError.server('Empty template');
    const vars = await this.variables(request);
    if (source) vars._full = '1';
    return this.render(template, vars, this.reader(request.caller, vars), this.deadline());
  }

  async validatorsCount(name: string, caller: Caller): Promise<bigint> {
    return (await this.findPage(name, caller.ecosystemId)).validateCount;
  }

  private qualified(name: string, ecosystem: bigint): { ecosystem: bigint; name: string } {
    if (!name.startsWith('@')) return { ecosystem, name };
    const match = QUALIFIED_NAME.exec(name);
    const id = match ? ecosystemIdOf(match[1]) : undefined;
    if (!match || id === undefined) throw new ApiError('E_NOTFOUND');
    return { ecosystem: id, name: match[2] };
  }

  private async findPage(name: string, sessionEcosystem: bigint): Promise<PageRow> {
    const { ecosystem, name: pageName } = this.qualified(name, sessionEcosystem);
    try {
      return await this.keptRow(`page\0${ecosystem}\0${pageName}`, () => this.ui.page(ecosystem, pageName));
    } catch (error) {
      throw serverError(error);
    }
  }

  /**
   * The variables every render starts with (rest-api.md §10.1): the request's values, then the node's: the
   * session's identity, or for an anonymous caller the `ecosystem`, `keyID` and `roleID` values.
   */
  private async variables(request: ContentRequest): Promise<Record<string, string>> {
    const { caller } = request;
    const vars = dict<string>();
    for (const [name, value] of request.values) vars[name] = value;
    vars._full = '0';
    vars.current_time = Math.floor(Date.now() / 1000).toString();
    Object.assign(vars, this.wellKnownVars);
    if (caller.loggedIn) {
      vars.ecosystem_id = caller.ecosystemId.toString();
      vars.key_id = caller.keyId.toString();
      vars.account_id = caller.accountId;
      vars.role_id = caller.roleId.toString();
      vars.ecosystem_name = await this.ecosystemName(caller.ecosystemId);
    } else {
      vars.ecosystem_id = vars.ecosystem ?? '';
      delete vars.ecosystem;
      // keyID/roleID as the reference reads them; key_id/role_id as the interface document names them.
      const keyId = vars.keyID || vars.key_id || '';
      const key = /^-?\d{1,19}$/.test(keyId) ? BigInt.asIntN(64, BigInt(keyId)) : undefined;
      vars.key_id = key !== undefined ? key.toString() : '0';
      vars.account_id = key !== undefined ? this.crypto.address(key) : '';
      vars.role_id = vars.roleID || vars.role_id || '0';
      const ecosystem = ecosystemIdOf(vars.ecosystem_id);
      if (ecosystem !== undefined) vars.ecosystem_name = await this.ecosystemName(ecosystem);
    }
    if (!('lang' in vars)) vars.lang = request.acceptLanguage ?? '';
    return vars;
  }

  private menuRow(ecosystem: bigint, name: string): ReturnType<InterfaceService['menu']> {
    return this.keptRow(`menu\0${ecosystem}\0${name}`, () => this.ui.menu(ecosystem, name));
  }

  private async ecosystemName(id: bigint): Promise<string> {
    try {
      return await this.kept(`ecosystem\0${id}`, () => this.ecosystems.name(id));
    } catch (error) {
      if (error instanceof ApiError) return '';
      throw error;
    }
  }

  /**
   * Whose read permissions DBFind applies: the session's; an anonymous caller reads as nobody (key 0, role
   * 0) in the ecosystem it asked for. Page variables never change it.
   */
  private reader(caller: Caller, vars: Record<string, string>): Reader {
    if (caller.loggedIn) {
      return {
        ecosystem: caller.ecosystemId,
        keyId: caller.keyId,
        roleId: caller.roleId,
        account: caller.accountId,
      };
    }
    return { ecosystem: ecosystemIdOf(vars.ecosystem_id) ?? 1n, keyId: 0n, roleId: 0n, account: '' };
  }

  private deadline(): number {
    const { timeMs } = this.config.pages;
    return timeMs > 0 ? Date.now() + timeMs : Infinity;
  }

  /** A template's tree as JSON text; past the deadline the answer is E_HEAVYPAGE at once. */
  private async render(
    template: string,
    vars: Record<string, string>,
    reader: Reader,
    deadline: number,
  ): Promise<RawJson> {
    const { maxNodes, maxSize } = this.config.pages;
    const work = renderTemplateJson(template, {
      port: new NodeTemplatePort(this.sources, reader),
      vars: { ...vars },
      limits: { timeMs: 0, deadline, maxNodes, maxSize },
    });
    let timer: NodeJS.Timeout | undefined;
    const late = Number.isFinite(deadline)
      ? new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new HeavyPageError('time')), Math.max(0, deadline - Date.now()));
        })
      : undefined;
    try {
      return new RawJson(await (late ? Promise.race([work, late]) : work));
    } catch (error) {
      if (error instanceof HeavyPageError) throw new ApiError('E_HEAVYPAGE');
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A failed page or menu read: not found stays E_NOTFOUND, anything else is the reference's 400 E_SERVER. */
function serverError(error: unknown): unknown {
  if (error instanceof ApiError && error.code === 'E_QUERY') return ApiError.server('DB query is wrong');
  return error;
}
