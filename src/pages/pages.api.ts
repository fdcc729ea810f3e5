import { Controller, Get, HttpCode, Injectable, Param, Post, Req } from '@nestjs/common';
import { isLosslessNumber } from 'lossless-json';
import { ApiPostRoute, ApiRoute, type FieldDoc } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import { ApiError } from '../common/api-error';
import { RPC_CODE } from '../common/error-codes';
import type { ApiRequest } from '../common/http/api-request';
import { firstFormValues, FormValues, parseForm } from '../common/http/form';
import { Auth } from '../common/http/request-gates';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { member } from '../rpc/rpc-params';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { pageAnswer, PagesService, type ContentRequest } from './pages.service';

const TREE = s.array(
  s.object(
    {
      tag: s.string(),
      attr: s.map(s.any(), 'attributes, keys sorted'),
      text: s.string(),
      children: s.array(s.any(), 'nodes'),
      tail: s.array(s.any(), 'nodes'),
    },
    { optional: ['attr', 'text', 'children', 'tail'] },
  ),
  'the rendered JSON tree',
);
const PAGE_CONTENT = s.object(
  {
    menu: s.string("the page's menu"),
    menutree: TREE,
    tree: TREE,
    nodesCount: s.integer('validators needed'),
  },
  { optional: ['menu', 'menutree', 'nodesCount'] },
);
const MENU_CONTENT = s.object({ title: s.string(), tree: TREE }, { optional: ['title'] });
const TREE_ONLY = s.object({ tree: TREE });
const HASH = s.object({ hash: s.hex('hash of the JSON of content/page, configured hasher') });
const VALIDATORS = s.object({ validate_count: s.integer() });

const PAGE_NAME: Record<string, FieldDoc> = { name: 'page name, or @<ecosystem><name>' };
const VARIABLES = 'every other form value becomes a page variable (#name#)';
const PAGE_FORM: Record<string, FieldDoc> = {
  lang: `language of $labels$; absent: the Accept-Language header. ${VARIABLES}`,
};
const ANONYMOUS_FORM: Record<string, FieldDoc> = {
  ...PAGE_FORM,
  ecosystem: 'ecosystem of an anonymous render (and of a plain page name)',
  keyID: 'key id an anonymous render shows as #key_id#',
  roleID: 'role id an anonymous render shows as #role_id#',
};

function contentRequest(req: ApiRequest): ContentRequest {
  return { caller: req.caller, values: firstFormValues(req), acceptLanguage: req.headers['accept-language'] };
}

@Controller('api/v2')
export class PagesController {
  constructor(private readonly pages: PagesService) {}

  @ApiPostRoute({
    summary: 'A page and its menu rendered into JSON trees',
    path: PAGE_NAME,
    form: PAGE_FORM,
    answer: PAGE_CONTENT,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content/page/:name')
  @HttpCode(200)
  @Auth()
  async page(@Param('name') name: string, @Req() req: ApiRequest) {
    return pageAnswer(await this.pages.page(name, contentRequest(req)));
  }

  @ApiPostRoute({
    summary: 'A menu rendered into a JSON tree',
    path: { name: 'menu name, or @<ecosystem><name>' },
    form: PAGE_FORM,
    answer: MENU_CONTENT,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content/menu/:name')
  @HttpCode(200)
  @Auth()
  async menu(@Param('name') name: string, @Req() req: ApiRequest) {
    const menu = await this.pages.menu(name, contentRequest(req));
    return { title: menu.title || undefined, tree: menu.tree };
  }

  @ApiPostRoute({
    summary: "A page's structure: its template parsed, nothing run, nothing read",
    path: PAGE_NAME,
    form: PAGE_FORM,
    answer: TREE_ONLY,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content/source/:name')
  @HttpCode(200)
  @Auth()
  async source(@Param('name') name: string, @Req() req: ApiRequest) {
    return { tree: await this.pages.source(name, contentRequest(req)) };
  }

  @ApiPostRoute({
    summary: 'Hash of the JSON content/page answers for a page (validators compare it)',
    path: PAGE_NAME,
    form: ANONYMOUS_FORM,
    answer: HASH,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content/hash/:name')
  @HttpCode(200)
  async hash(@Param('name') name: string, @Req() req: ApiRequest) {
    const request = contentRequest(req);
    return { hash: await this.pages.pageHash(name, request.values.get('ecosystem'), request) };
  }

  @ApiPostRoute({
    summary: 'Any template rendered into a JSON tree (or, with source, its structure)',
    form: {
      template: { description: 'the template', required: true },
      source: { description: 'true or 1: source mode (nothing run, nothing read)', schema: s.boolean() },
      ...ANONYMOUS_FORM,
    },
    answer: TREE_ONLY,
    errors: ['E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content')
  @HttpCode(200)
  async content(@Req() req: ApiRequest) {
    const form = parseForm(FormValues.of(req), { template: 'string', source: 'bool' });
    return { tree: await this.pages.content(form.template ?? '', form.source ?? false, contentRequest(req)) };
  }

  @ApiRoute({
    summary: 'How many validators must agree on a page',
    path: PAGE_NAME,
    answer: VALIDATORS,
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  @Get('page/validators_count/:name')
  async validatorsCount(@Param('name') name: string, @Req() req: ApiRequest) {
    return { validate_count: await this.pages.validatorsCount(name, req.caller) };
  }
}

/** `vals`: template variables, each a string (a number is taken as its text). */
function templateVals(raw: unknown): Map<string, string> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || isLosslessNumber(raw))
    throw new Error('json: cannot unmarshal into Go value of type map[string]string');
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === 'string') values.set(name, value);
    else if (isLosslessNumber(value)) values.set(name, value.value);
    else throw new Error(`json: cannot unmarshal into Go value of type string (vals.${name})`);
  }
  return values;
}

const NAME = { name: 'name', type: 'string' as const, description: 'page name, or @<ecosystem><name>' };
const VALS = {
  name: 'vals',
  type: templateVals,
  optional: true,
  description: 'page variables (name → text)',
  schema: s.map(s.string()),
};

function rpcRequest(context: RpcCallContext, vals: Map<string, string> | undefined): ContentRequest {
  return {
    caller: context.caller,
    values: vals ?? new Map(),
    acceptLanguage: context.request.headers['accept-language'],
  };
}

/** An empty name is -32012; a page missing is -32000 "NotFound" (json-rpc.md §5.2). */
function requireName(name: string): string {
  if (name === '') throw new RpcError(RPC_CODE.notFound, 'NotFound');
  return name;
}

async function pageLookup<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'E_NOTFOUND')
      throw new RpcError(RPC_CODE.default, 'NotFound');
    throw error;
  }
}

@Injectable()
export class PagesRpc {
  constructor(private readonly pages: PagesService) {}

  @RpcMethod('getPage', {
    summary: 'A page and its menu rendered into JSON trees',
    auth: true,
    params: [NAME, VALS],
    result: PAGE_CONTENT,
  })
  async getPage([name, vals]: [string, Map<string, string>?], context: RpcCallContext) {
    const content = await pageLookup(() => this.pages.page(requireName(name), rpcRequest(context, vals)));
    return pageAnswer(content, true);
  }

  @RpcMethod('getMenu', {
    summary: 'A menu rendered into a JSON tree',
    auth: true,
    params: [{ ...NAME, description: 'menu name, or @<ecosystem><name>' }, VALS],
    result: MENU_CONTENT,
  })
  async getMenu([name, vals]: [string, Map<string, string>?], context: RpcCallContext) {
    const menu = await this.pages.menu(requireName(name), rpcRequest(context, vals));
    return { title: menu.title || undefined, tree: menu.tree };
  }

  @RpcMethod('getSource', {
    summary: "A page's structure: its template parsed, nothing run, nothing read",
    auth: true,
    params: [NAME, VALS],
    result: TREE_ONLY,
  })
  async getSource([name, vals]: [string, Map<string, string>?], context: RpcCallContext) {
    return {
      tree: await pageLookup(() => this.pages.source(requireName(name), rpcRequest(context, vals))),
    };
  }

  @RpcMethod('getPageHash', {
    summary: 'Hash of the JSON content/page answers for a page (validators compare it)',
    params: [
      NAME,
      { name: 'ecosystem', type: 'int64', optional: true, description: 'ecosystem of a plain page name' },
      { ...VALS, description: 'page variables; ecosystem, keyID and roleID for an anonymous render' },
    ],
    result: HASH,
  })
  async getPageHash(
    [name, ecosystem, vals]: [string, bigint?, Map<string, string>?],
    context: RpcCallContext,
  ) {
    const scope = ecosystem !== undefined && ecosystem !== 0n ? ecosystem.toString() : undefined;
    const hash = await pageLookup(() =>
      this.pages.pageHash(requireName(name), scope, rpcRequest(context, vals)),
    );
    return { hash };
  }

  @RpcMethod('getContent', {
    summary: 'Any template rendered into a JSON tree (or, with source, its structure)',
    params: [
      {
        name: 'form',
        type: 'object',
        optional: true,
        description: '{template, source}',
        schema: s.object({ template: s.string(), source: s.boolean() }, { optional: ['source'] }),
      },
      VALS,
    ],
    result: TREE_ONLY,
  })
  async getContent([form, vals]: [Record<string, unknown>?, Map<string, string>?], context: RpcCallContext) {
    const template = form ? member(form, 'template') : undefined;
    const source = form ? member(form, 'source') : undefined;
    if (typeof template !== 'string' || template === '')
      throw RpcError.invalidParams('params can not be empty');
    if (source !== undefined && source !== null && typeof source !== 'boolean')
      throw RpcError.invalidParams(
        'invalid argument 1: json: cannot unmarshal into Go struct field of type bool',
      );
    return { tree: await this.pages.content(template, source === true, rpcRequest(context, vals)) };
  }

  @RpcMethod('getPageValidatorsCount', {
    summary: 'How many validators must agree on a page',
    params: [NAME],
    result: VALIDATORS,
  })
  async getPageValidatorsCount([name]: [string], context: RpcCallContext) {
    const count = await pageLookup(() => this.pages.validatorsCount(requireName(name), context.caller));
    return { validate_count: count };
  }
}
