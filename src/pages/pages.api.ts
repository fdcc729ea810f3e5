import { Controller, Get, HttpCode, Injectable, Post, Req } from '@nestjs/common';
import { ApiPostRoute, ApiRoute } from '../api-docs/api-route.decorator';
import { ApiError } from '../common/api-error';
import type { Caller } from '../common/caller';
import { RPC_CODE } from '../common/error-codes';
import type { ApiRequest } from '../http/api-request';
import { firstFormValues, Form } from '../http/form';
import { Auth, CurrentCaller } from '../http/request-gates';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import {
  contentForm,
  ContentForm,
  ContentParams,
  MenuForm,
  MenuParams,
  PageForm,
  PageHashForm,
  PageHashParams,
  PageNameParams,
  PageNamePath,
  PageParams,
  templateVariables,
} from './pages.dto';
import {
  HASH,
  MENU_CONTENT,
  PAGE_CONTENT,
  TREE_ONLY,
  VALIDATORS,
  type HashAnswer,
  type MenuAnswer,
  type PageAnswer,
  type TreeAnswer,
  type ValidatorsAnswer,
} from './pages.answers';
import { menuAnswer, pageAnswer, PagesService, type ContentRequest } from './pages.service';

/** Each operation's summary, said once for its REST route and its JSON-RPC method. */
const SUMMARY = {
  getContent: 'Any template rendered into a JSON tree (or, with source, its structure)',
  getMenu: 'A menu rendered into a JSON tree',
  getPage: 'A page and its menu rendered into JSON trees',
  getPageHash: 'Hash of the JSON content/page answers for a page (validators compare it)',
  getPageValidatorsCount: 'How many validators must agree on a page',
  getSource: "A page's structure: its template parsed, nothing run, nothing read",
} as const;

/** Every form value is a page variable, the named ones of the route's form too. */
function contentRequest(req: ApiRequest): ContentRequest {
  return { caller: req.caller, values: firstFormValues(req), acceptLanguage: req.headers['accept-language'] };
}

@Controller('api/v2')
export class PagesController {
  constructor(private readonly pages: PagesService) {}

  @ApiPostRoute({
    summary: SUMMARY.getPage,
    description:
      "The page is the session's ecosystem's, or for `@<ecosystem><name>` that ecosystem's; the menu named " +
      "by its `menu` column is looked up in the session's ecosystem, and a missing menu only leaves " +
      "`menutree` empty. Every form value is a page variable (#name#) beside the node's own " +
      '(#ecosystem_id#, #key_id#, #role_id#, …). Page and menu share one render deadline ' +
      '(PAGE_TIME_LIMIT_MS, 3000 ms by default) and the node and size limits, past which it answers 400 ' +
      'E_HEAVYPAGE; a missing page or malformed `@` name is 404 E_NOTFOUND, a database failure 400 ' +
      'E_SERVER. JSON-RPC: `ibax.getPage`.',
    answer: PAGE_CONTENT,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content/page/:name')
  @HttpCode(200)
  @Auth()
  async page(@Form() { name }: PageForm, @Req() req: ApiRequest): Promise<PageAnswer> {
    return pageAnswer(await this.pages.page(name, contentRequest(req)));
  }

  @ApiPostRoute({
    summary: SUMMARY.getMenu,
    description:
      "The menu is the session's ecosystem's, or for `@<ecosystem><name>` that ecosystem's, rendered with " +
      'the form values as page variables; `title` is its title, left out when empty. A missing menu is 404 ' +
      'E_NOTFOUND, a database failure 400 E_SERVER, a render past the time, node or size limits 400 ' +
      'E_HEAVYPAGE. JSON-RPC: `ibax.getMenu`.',
    answer: MENU_CONTENT,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content/menu/:name')
  @HttpCode(200)
  @Auth()
  async menu(@Form() { name }: MenuForm, @Req() req: ApiRequest): Promise<MenuAnswer> {
    return menuAnswer(await this.pages.menu(name, contentRequest(req)));
  }

  @ApiPostRoute({
    summary: SUMMARY.getSource,
    description:
      'The page is found as for content/page and its template rendered in source mode (#_full# = 1): each ' +
      'function call is a node with its parameters, If/ElseIf bodies included; no menu. A missing page or ' +
      'malformed `@` name is 404 E_NOTFOUND, a database failure 400 E_SERVER, a tree past the time, node ' +
      'or size limits 400 E_HEAVYPAGE. JSON-RPC: `ibax.getSource`.',
    answer: TREE_ONLY,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content/source/:name')
  @HttpCode(200)
  @Auth()
  async source(@Form() { name }: PageForm, @Req() req: ApiRequest): Promise<TreeAnswer> {
    return { tree: await this.pages.source(name, contentRequest(req)) };
  }

  @ApiPostRoute({
    summary: SUMMARY.getPageHash,
    description:
      'Renders the page as content/page would and answers the hex hash, by the configured hasher ' +
      '(Keccak-256 by default), of those exact JSON bytes. No session is needed: without one the render ' +
      'reads as an anonymous caller, the `ecosystem` value naming the ecosystem (and qualifying a plain ' +
      'page name) and `keyID`/`roleID` filling #key_id#/#role_id#. Errors as content/page. JSON-RPC: ' +
      '`ibax.getPageHash`.',
    answer: HASH,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content/hash/:name')
  @HttpCode(200)
  async hash(@Form() { name }: PageHashForm, @Req() req: ApiRequest): Promise<HashAnswer> {
    const request = contentRequest(req);
    // The ecosystem as a page variable (the first `ecosystem` as sent), as the reference's r.FormValue.
    return { hash: await this.pages.pageHash(name, request.values.get('ecosystem'), request) };
  }

  @ApiPostRoute({
    summary: SUMMARY.getContent,
    description:
      'Renders the `template` value with the other form values as page variables; with a session it reads ' +
      'as the session, without one as an anonymous caller (key 0, role 0) of the `ecosystem` value (1 by ' +
      'default). An empty or absent template is 400 E_SERVER "Empty template", an unreadable `source` 400 ' +
      'E_SERVER, a render past the time, node or size limits 400 E_HEAVYPAGE. JSON-RPC: `ibax.getContent`.',
    answer: TREE_ONLY,
    errors: ['E_HEAVYPAGE', 'E_SERVER'],
  })
  @Post('content')
  @HttpCode(200)
  async content(@Form() form: ContentForm, @Req() req: ApiRequest): Promise<TreeAnswer> {
    return { tree: await this.pages.content(form.template ?? '', form.source ?? false, contentRequest(req)) };
  }

  @ApiRoute({
    summary: SUMMARY.getPageValidatorsCount,
    description:
      "The page's `validate_count` column, nothing rendered. A plain name is looked up in the session's " +
      'ecosystem (1 without a session), `@<ecosystem><name>` in that ecosystem. A missing page or ' +
      'malformed `@` name is 404 E_NOTFOUND, a database failure 400 E_SERVER. JSON-RPC: ' +
      '`ibax.getPageValidatorsCount`.',
    answer: VALIDATORS,
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  @Get('page/validators_count/:name')
  async validatorsCount(
    @Form() { name }: PageNamePath,
    @CurrentCaller() caller: Caller,
  ): Promise<ValidatorsAnswer> {
    return { validate_count: await this.pages.validatorsCount(name, caller) };
  }
}

/** `vals` (validated by the params DTO) are the page variables. */
function rpcRequest(context: RpcCallContext, vals: unknown): ContentRequest {
  return {
    caller: context.caller,
    values: vals === undefined ? new Map() : templateVariables(vals),
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
    summary: SUMMARY.getPage,
    description:
      "Rendered with the session's identity and `vals` as page variables; the page's menu is looked up in " +
      "the session's ecosystem and `menutree` is left out when empty. Page and menu share one deadline " +
      '(PAGE_TIME_LIMIT_MS, 3000 ms by default). An empty name answers -32012 "NotFound", a missing page ' +
      '-32000 "NotFound" (as the reference).',
    auth: true,
    result: PAGE_CONTENT,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  async getPage({ name, vals }: PageParams, context: RpcCallContext): Promise<PageAnswer> {
    const content = await pageLookup(() => this.pages.page(requireName(name), rpcRequest(context, vals)));
    return pageAnswer(content, true);
  }

  @RpcMethod('getMenu', {
    summary: SUMMARY.getMenu,
    description: 'An empty name or a missing menu answers -32012 "NotFound"; `title` is left out when empty.',
    auth: true,
    result: MENU_CONTENT,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  async getMenu({ name, vals }: MenuParams, context: RpcCallContext): Promise<MenuAnswer> {
    return menuAnswer(await this.pages.menu(requireName(name), rpcRequest(context, vals)));
  }

  @RpcMethod('getSource', {
    summary: SUMMARY.getSource,
    description:
      'Source mode (#_full# = 1), no menu. An empty name answers -32012 "NotFound", a missing page -32000 ' +
      '"NotFound" (as the reference).',
    auth: true,
    result: TREE_ONLY,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  async getSource({ name, vals }: PageParams, context: RpcCallContext): Promise<TreeAnswer> {
    return {
      tree: await pageLookup(() => this.pages.source(requireName(name), rpcRequest(context, vals))),
    };
  }

  @RpcMethod('getPageHash', {
    summary: SUMMARY.getPageHash,
    description:
      'Hex hash, by the configured hasher (Keccak-256 by default), of the exact JSON REST content/page ' +
      'answers. A non-zero `ecosystem` qualifies a plain name; without a session the `vals` `ecosystem`, ' +
      '`keyID` and `roleID` set the anonymous reader. An empty name answers -32012 "NotFound", a missing ' +
      'page -32000 "NotFound".',
    result: HASH,
    errors: ['E_NOTFOUND', 'E_HEAVYPAGE', 'E_SERVER'],
  })
  async getPageHash({ name, ecosystem, vals }: PageHashParams, context: RpcCallContext): Promise<HashAnswer> {
    const scope = ecosystem !== undefined && ecosystem !== 0n ? ecosystem.toString() : undefined;
    const hash = await pageLookup(() =>
      this.pages.pageHash(requireName(name), scope, rpcRequest(context, vals)),
    );
    return { hash };
  }

  @RpcMethod('getContent', {
    summary: SUMMARY.getContent,
    description:
      '`form` is `{template, source}`; an absent form or empty template is refused as invalid params. ' +
      'Without a session the render reads as an anonymous caller (key 0, role 0) of the `vals` `ecosystem` ' +
      '(1 by default).',
    result: TREE_ONLY,
    errors: ['E_HEAVYPAGE'],
  })
  async getContent({ form, vals }: ContentParams, context: RpcCallContext): Promise<TreeAnswer> {
    const { template, source } = contentForm(form);
    // The DTO refused a form without a text template.
    return {
      tree: await this.pages.content(template as string, source === true, rpcRequest(context, vals)),
    };
  }

  @RpcMethod('getPageValidatorsCount', {
    summary: SUMMARY.getPageValidatorsCount,
    description:
      'Nothing is rendered. An empty name answers -32012 "NotFound", a missing page -32000 "NotFound" (as ' +
      'the reference).',
    result: VALIDATORS,
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  async getPageValidatorsCount({ name }: PageNameParams, context: RpcCallContext): Promise<ValidatorsAnswer> {
    const count = await pageLookup(() => this.pages.validatorsCount(requireName(name), context.caller));
    return { validate_count: count };
  }
}
