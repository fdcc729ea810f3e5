import { Controller, Get, Injectable, Req } from '@nestjs/common';
import { ApiRoute } from '../api-docs/api-route.decorator';
import type { ApiRequest } from '../http/api-request';
import type { Caller } from '../common/caller';
import { Form } from '../http/form';
import { Auth, CurrentCaller } from '../http/request-gates';
import { RpcMethod, type RpcMethodOptions } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { InterfaceRowParams, InterfaceRowPath, SectionsForm, SectionsParams } from './interface.dto';
import {
  MENU,
  PAGE,
  SECTIONS,
  SNIPPET,
  type PageRowAnswer,
  type SnippetRowAnswer,
} from './interface.answers';
import { InterfaceService, type PageRow, type SnippetRow } from './interface.service';

/** limit 0 or absent → 25 (interface document), at most `max`; offset below 0 → 0. */
function window(offset: bigint | undefined, limit: bigint | undefined, max: bigint) {
  let size = limit ?? 0n;
  if (size <= 0n) size = 25n;
  if (size > max) size = max;
  return { offset: offset !== undefined && offset > 0n ? offset : 0n, limit: size };
}

/** Members that are zero or empty are left out (Go's omitempty), numbers stay numbers. */
function omitEmpty<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== '' && value !== 0n && value !== 0),
  ) as Partial<T>;
}

const pageRow = (row: PageRow): PageRowAnswer =>
  omitEmpty({
    id: row.id,
    name: row.name,
    value: row.value,
    menu: row.menu,
    nodesCount: row.validateCount,
    app_id: row.appId,
    conditions: row.conditions,
  });

const snippetRow = (row: SnippetRow): SnippetRowAnswer =>
  omitEmpty({ id: row.id, name: row.name, value: row.value, conditions: row.conditions });

@Controller('api/v2')
export class InterfaceController {
  constructor(private readonly ui: InterfaceService) {}

  @ApiRoute({
    summary: "The ecosystem's sections the session role may see, titles in the asked language",
    description:
      'Rows of `1_sections` of the session ecosystem with status above 0, in id order; `offset` and `limit` ' +
      '(0 or absent: 25, at most 1000) apply before rows whose non-empty `roles_access` lacks the session ' +
      'role are dropped, so `count` is before that filter and `list` is null when none is left. `$name$` in ' +
      "titles comes from the ecosystem's language resources (`lang`, else Accept-Language); a status 2 " +
      "section gets the role's `default_page`. A `roles_access` that is not a JSON array of role ids is " +
      'E_SERVER. JSON-RPC: `ibax.getSections`.',
    answer: SECTIONS,
    errors: ['E_SERVER'],
  })
  @Get('sections')
  @Auth()
  sections(@Form() form: SectionsForm, @Req() req: ApiRequest) {
    const { offset, limit } = window(form.offset, form.limit, 1000n);
    return this.ui.sections(req.caller, offset, limit, form.lang ?? req.headers['accept-language']);
  }

  @ApiRoute({
    summary: 'The row of a page of the session ecosystem',
    description:
      'The `1_pages` row with exactly that name in the session ecosystem; numbers are JSON numbers and ' +
      'members that are zero or empty are left out (`nodesCount` is its validate_count). No such page is 404 ' +
      'E_NOTFOUND, a failing database query 500 E_QUERY. JSON-RPC: `ibax.getPageRow`.',
    answer: PAGE,
    errors: ['E_NOTFOUND', 'E_QUERY'],
  })
  @Get('interface/page/:name')
  @Auth()
  async page(@Form() { name }: InterfaceRowPath, @CurrentCaller() caller: Caller) {
    return pageRow(await this.ui.page(caller.ecosystemId, name));
  }

  @ApiRoute({
    summary: 'The row of a menu of the session ecosystem',
    description:
      'The `1_menu` row with exactly that name in the session ecosystem; every member is always present, the ' +
      'id as a JSON number. No such menu is 404 E_NOTFOUND, a failing database query 500 E_QUERY. JSON-RPC: ' +
      '`ibax.getMenuRow`.',
    answer: MENU,
    errors: ['E_NOTFOUND', 'E_QUERY'],
  })
  @Get('interface/menu/:name')
  @Auth()
  async menu(@Form() { name }: InterfaceRowPath, @CurrentCaller() caller: Caller) {
    return this.ui.menu(caller.ecosystemId, name);
  }

  @ApiRoute({
    summary: 'The row of a snippet of the session ecosystem',
    description:
      'The `1_snippets` row with exactly that name in the session ecosystem; the id is a JSON number and ' +
      'members that are zero or empty are left out. No such snippet is 404 E_NOTFOUND, a failing database ' +
      'query 500 E_QUERY. JSON-RPC: `ibax.getSnippetRow`.',
    answer: SNIPPET,
    errors: ['E_NOTFOUND', 'E_QUERY'],
  })
  @Get('interface/snippet/:name')
  @Auth()
  async snippet(@Form() { name }: InterfaceRowPath, @CurrentCaller() caller: Caller) {
    return snippetRow(await this.ui.snippet(caller.ecosystemId, name));
  }
}

const ROW_OF = (kind: string): RpcMethodOptions => ({
  auth: true,
  summary: `The row of a ${kind} of the session ecosystem`,
  description:
    "A plain name, looked up as given in the caller's ecosystem (an `@ecosystem` prefix is not read); " +
    'empty is invalid params.',
  errors: ['E_NOTFOUND', 'E_QUERY'],
});

@Injectable()
export class InterfaceRpc {
  constructor(private readonly ui: InterfaceService) {}

  /** One object `{limit?, offset?, lang?}`; `lang` defaults to the Accept-Language header. */
  @RpcMethod('getSections', {
    summary: "The ecosystem's sections the session role may see, titles in the asked language",
    description:
      '`limit` 0 or absent: 25, at most 100; `offset` below 0: 0; `lang` absent or empty: the Accept-Language ' +
      'header. As REST `sections`: `count` is before role filtering and `list` null when none is left.',
    errors: ['E_SERVER'],
    result: SECTIONS,
    auth: true,
    singleObject: true,
  })
  getSections(params: SectionsParams, { caller, request }: RpcCallContext) {
    const { offset, limit } = window(params.offset, params.limit, 100n);
    return this.ui.sections(caller, offset, limit, params.lang || request.headers['accept-language']);
  }

  @RpcMethod('getPageRow', { ...ROW_OF('page'), result: PAGE })
  async getPageRow({ name }: InterfaceRowParams, { caller }: RpcCallContext) {
    return pageRow(await this.ui.page(caller.ecosystemId, name));
  }

  @RpcMethod('getMenuRow', { ...ROW_OF('menu'), result: MENU })
  async getMenuRow({ name }: InterfaceRowParams, { caller }: RpcCallContext) {
    return this.ui.menu(caller.ecosystemId, name);
  }

  @RpcMethod('getSnippetRow', { ...ROW_OF('snippet'), result: SNIPPET })
  async getSnippetRow({ name }: InterfaceRowParams, { caller }: RpcCallContext) {
    return snippetRow(await this.ui.snippet(caller.ecosystemId, name));
  }
}
