import { Controller, Get, Injectable, Param, Req } from '@nestjs/common';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues, parseForm } from '../common/http/form';
import { Auth } from '../common/http/request-gates';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { decodeInteger, member } from '../rpc/rpc-params';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { InterfaceService, type MenuRow, type PageRow, type SnippetRow } from './interface.service';

const SECTIONS = s.object({
  count: s.integer('visible sections of the ecosystem, before role filtering'),
  list: s.nullable(
    s.array(
      s.map(
        s.string(),
        'a section, every value as text: ecosystem, id, page, roles_access, status, title, urlname, default_page',
      ),
    ),
  ),
});
const PAGE = s.object(
  {
    id: s.integer(),
    name: s.string(),
    value: s.string('template source'),
    menu: s.string(),
    nodesCount: s.integer('validators needed'),
    app_id: s.integer(),
    conditions: s.string(),
  },
  { optional: ['id', 'name', 'value', 'menu', 'nodesCount', 'app_id', 'conditions'] },
);
const MENU = s.object({
  id: s.integer(),
  name: s.string(),
  title: s.string(),
  value: s.string('template source'),
  conditions: s.string(),
});
const SNIPPET = s.object(
  { id: s.integer(), name: s.string(), value: s.string('template source'), conditions: s.string() },
  { optional: ['id', 'name', 'value', 'conditions'] },
);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

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

const pageRow = (row: PageRow) =>
  omitEmpty({
    id: row.id,
    name: row.name,
    value: row.value,
    menu: row.menu,
    nodesCount: row.validateCount,
    app_id: row.appId,
    conditions: row.conditions,
  });

const menuRow = (row: MenuRow) => ({
  id: row.id,
  name: row.name,
  title: row.title,
  value: row.value,
  conditions: row.conditions,
});

const snippetRow = (row: SnippetRow) =>
  omitEmpty({ id: row.id, name: row.name, value: row.value, conditions: row.conditions });

@Controller('api/v2')
export class InterfaceController {
  constructor(private readonly ui: InterfaceService) {}

  @ApiRoute({
    summary: "The ecosystem's sections the session role may see, titles in the asked language",
    form: {
      limit: { description: 'sections per page (default 25, at most 1000)', schema: s.integer() },
      offset: { description: 'sections to skip', schema: s.integer() },
      lang: 'language code; absent: the Accept-Language header',
    },
    answer: SECTIONS,
    errors: ['E_SERVER'],
  })
  @Get('sections')
  @Auth()
  sections(@Req() req: ApiRequest) {
    const form = parseForm(FormValues.of(req), { limit: 'int64', offset: 'int64', lang: 'string' });
    const { offset, limit } = window(form.offset, form.limit, 1000n);
    return this.ui.sections(req.caller, offset, limit, form.lang ?? req.headers['accept-language']);
  }

  @ApiRoute({
    summary: 'The row of a page of the session ecosystem',
    path: { name: 'page name' },
    answer: PAGE,
    errors: ['E_NOTFOUND', 'E_QUERY'],
  })
  @Get('interface/page/:name')
  @Auth()
  async page(@Param('name') name: string, @Req() req: ApiRequest) {
    return pageRow(await this.ui.page(req.caller.ecosystemId, name));
  }

  @ApiRoute({
    summary: 'The row of a menu of the session ecosystem',
    path: { name: 'menu name' },
    answer: MENU,
    errors: ['E_NOTFOUND', 'E_QUERY'],
  })
  @Get('interface/menu/:name')
  @Auth()
  async menu(@Param('name') name: string, @Req() req: ApiRequest) {
    return menuRow(await this.ui.menu(req.caller.ecosystemId, name));
  }

  @ApiRoute({
    summary: 'The row of a snippet of the session ecosystem',
    path: { name: 'snippet name' },
    answer: SNIPPET,
    errors: ['E_NOTFOUND', 'E_QUERY'],
  })
  @Get('interface/snippet/:name')
  @Auth()
  async snippet(@Param('name') name: string, @Req() req: ApiRequest) {
    return snippetRow(await this.ui.snippet(req.caller.ecosystemId, name));
  }
}

function requireName(name: string): string {
  if (name === '') throw RpcError.invalidParams('params can not be empty');
  return name;
}

const NAME_PARAM = { params: [{ name: 'name', type: 'string' as const }], auth: true };
const ROW_OF = (kind: string) => ({
  ...NAME_PARAM,
  summary: `The row of a ${kind} of the session ecosystem`,
});

@Injectable()
export class InterfaceRpc {
  constructor(private readonly ui: InterfaceService) {}

  /** One object `{limit?, offset?, lang?}`; `lang` defaults to the Accept-Language header. */
  @RpcMethod('getSections', {
    summary: "The ecosystem's sections the session role may see, titles in the asked language",
    result: SECTIONS,
    auth: true,
    singleObject: true,
    params: [
      {
        name: 'params',
        type: 'object',
        optional: true,
        schema: s.object(
          { limit: s.integer(), offset: s.integer(), lang: s.string() },
          { optional: ['limit', 'offset', 'lang'] },
        ),
      },
    ],
  })
  getSections([form]: [Record<string, unknown>?], { caller, request }: RpcCallContext) {
    const integer = (name: string) => {
      const raw = form ? member(form, name) : undefined;
      if (raw === undefined || raw === null) return undefined;
      try {
        return decodeInteger(raw, 'int64', INT64_MIN, INT64_MAX);
      } catch (error) {
        throw RpcError.invalidParams(`invalid argument 1: ${(error as Error).message}`);
      }
    };
    const lang = form ? member(form, 'lang') : undefined;
    if (lang !== undefined && lang !== null && typeof lang !== 'string') {
      throw RpcError.invalidParams(
        'invalid argument 1: json: cannot unmarshal into Go struct field SectionsForm.lang of type string',
      );
    }
    const { offset, limit } = window(integer('offset'), integer('limit'), 100n);
    return this.ui.sections(caller, offset, limit, lang || request.headers['accept-language']);
  }

  @RpcMethod('getPageRow', { ...ROW_OF('page'), result: PAGE })
  async getPageRow([name]: [string], { caller }: RpcCallContext) {
    return pageRow(await this.ui.page(caller.ecosystemId, requireName(name)));
  }

  @RpcMethod('getMenuRow', { ...ROW_OF('menu'), result: MENU })
  async getMenuRow([name]: [string], { caller }: RpcCallContext) {
    return menuRow(await this.ui.menu(caller.ecosystemId, requireName(name)));
  }

  @RpcMethod('getSnippetRow', { ...ROW_OF('snippet'), result: SNIPPET })
  async getSnippetRow([name]: [string], { caller }: RpcCallContext) {
    return snippetRow(await this.ui.snippet(caller.ecosystemId, requireName(name)));
  }
}
