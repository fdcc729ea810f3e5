import { Controller, Get, Injectable } from '@nestjs/common';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import type { Caller } from '../common/caller';
import { Form } from '../http/form';
import { lenientInt64 } from '../http/path-params';
import { Auth, BlockchainRoute, CurrentCaller } from '../http/request-gates';
import { EcosystemService } from '../ecosystem/ecosystem.service';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import {
  AppContentForm,
  AppContentParams,
  AppParameterForm,
  AppParametersForm,
  AppParametersParams,
  EcosystemParameterForm,
  EcosystemParametersForm,
  EcosystemParametersParams,
  PlatformParametersForm,
  PlatformParametersParams,
} from './params.dto';
import { APP_CONTENT, PARAMETER } from './params.answers';
import { parameterNames, ParametersService, rpcWindow } from './params.service';

const PARAMETER_LIST = s.object({ list: s.array(PARAMETER) });

@Controller('api/v2')
export class ParametersController {
  constructor(
    private readonly parameters: ParametersService,
    private readonly ecosystems: EcosystemService,
  ) {}

  @ApiRoute({
    summary: 'Platform parameters, all or the named ones',
    description:
      'Rows of `1_platform_parameters` in id order: all of them, or those named in `names` (comma-separated, ' +
      'empty items ignored); every member is text. When nothing matches the answer is E_PARAMNOTFOUND naming ' +
      'the names, with status 400 as the reference sends it. Not served on CLB nodes. JSON-RPC: ' +
      '`ibax.systemParams` (paged).',
    answer: PARAMETER_LIST,
    errors: ['E_PARAMNOTFOUND'],
  })
  @Get('systemparams')
  @Auth()
  @BlockchainRoute()
  async systemParams(@Form() { names }: PlatformParametersForm) {
    return { list: await this.parameters.platformParameters(parameterNames(names)) };
  }

  @ApiRoute({
    summary: 'Parameters of an ecosystem, all or the named ones',
    description:
      "Rows of `1_parameters` of `ecosystem` (0 or absent: the session's) in id order: all of them without " +
      '`names` (the reference answers none), else those named (comma-separated); names that match nothing ' +
      'give an empty list. An `ecosystem` above 0 that does not exist is E_ECOSYSTEM, one that is not an ' +
      'integer E_SERVER. Not served on CLB nodes. JSON-RPC: `ibax.getEcosystemParams` (paged).',
    answer: PARAMETER_LIST,
    errors: ['E_ECOSYSTEM', 'E_SERVER'],
  })
  @Get('ecosystemparams')
  @Auth()
  @BlockchainRoute()
  async ecosystemParams(@Form() form: EcosystemParametersForm, @CurrentCaller() caller: Caller) {
    const ecosystem = await this.ecosystems.resolve(form.ecosystem, caller.ecosystemId);
    return { list: await this.parameters.ecosystemParameters(ecosystem, parameterNames(form.names)) };
  }

  @ApiRoute({
    summary: 'One parameter of an ecosystem',
    description:
      "The `1_parameters` row of exactly that name in `ecosystem` (0 or absent: the session's). No such " +
      'parameter is 404 E_PARAMNOTFOUND naming it; an `ecosystem` above 0 that does not exist is E_ECOSYSTEM, ' +
      'one that is not an integer E_SERVER. Not served on CLB nodes.',
    answer: PARAMETER,
    errors: ['E_ECOSYSTEM', 'E_PARAMNOTFOUND', 'E_SERVER'],
  })
  @Get('ecosystemparam/:name')
  @Auth()
  @BlockchainRoute()
  async ecosystemParam(@Form() form: EcosystemParameterForm, @CurrentCaller() caller: Caller) {
    const ecosystem = await this.ecosystems.resolve(form.ecosystem, caller.ecosystemId);
    return this.parameters.ecosystemParameter(ecosystem, form.name);
  }

  @ApiRoute({
    summary: 'Parameters of an application, all or the named ones',
    description:
      "Rows of `1_app_params` of the application in `ecosystem` (0 or absent: the session's) in id order, all " +
      'or those named in `names` (comma-separated). `app_id` echoes the path text as sent; a path id that is ' +
      'not a number reads as application 0, which has none. An `ecosystem` above 0 that does not exist is ' +
      'E_ECOSYSTEM. Not served on CLB nodes. JSON-RPC: `ibax.appParams` (paged).',
    answer: s.object({ app_id: s.string('the application id as sent'), list: s.array(PARAMETER) }),
    errors: ['E_ECOSYSTEM', 'E_SERVER'],
  })
  @Get('appparams/:appid')
  @Auth()
  @BlockchainRoute()
  async appParams(@Form() form: AppParametersForm, @CurrentCaller() caller: Caller) {
    const ecosystem = await this.ecosystems.resolve(form.ecosystem, caller.ecosystemId);
    return {
      app_id: form.appid,
      list: await this.parameters.appParameters(
        ecosystem,
        lenientInt64(form.appid),
        parameterNames(form.names),
      ),
    };
  }

  @ApiRoute({
    summary: 'One parameter of an application',
    description:
      'The `1_app_params` row of exactly that name of the application in `ecosystem` (0 or absent: the ' +
      "session's); a path id that is not a number reads as application 0. No such parameter is 404 " +
      'E_PARAMNOTFOUND naming it; an `ecosystem` above 0 that does not exist is E_ECOSYSTEM. Not served on ' +
      'CLB nodes.',
    answer: PARAMETER,
    errors: ['E_ECOSYSTEM', 'E_PARAMNOTFOUND', 'E_SERVER'],
  })
  @Get('appparam/:appid/:name')
  @Auth()
  @BlockchainRoute()
  async appParam(@Form() form: AppParameterForm, @CurrentCaller() caller: Caller) {
    const ecosystem = await this.ecosystems.resolve(form.ecosystem, caller.ecosystemId);
    return this.parameters.appParameter(ecosystem, form.appid, form.name);
  }

  @ApiRoute({
    summary: 'The snippets, pages and contracts of an application',
    description:
      "Id and name of the application's rows in `1_snippets`, `1_pages` and `1_contracts` of `ecosystem` (0 " +
      "or absent: the session's), in id order; ids are JSON numbers and an empty list is `[]`. A path id that " +
      'is not a number reads as application 0; an `ecosystem` above 0 that does not exist is E_ECOSYSTEM. ' +
      'Not served on CLB nodes. JSON-RPC: `ibax.getAppContent` (session ecosystem only).',
    answer: APP_CONTENT,
    errors: ['E_ECOSYSTEM', 'E_SERVER'],
  })
  @Get('appcontent/:appid')
  @Auth()
  @BlockchainRoute()
  async appContent(@Form() form: AppContentForm, @CurrentCaller() caller: Caller) {
    const ecosystem = await this.ecosystems.resolve(form.ecosystem, caller.ecosystemId);
    return this.parameters.appContent(ecosystem, form.appid);
  }
}

@Injectable()
export class ParametersRpc {
  constructor(
    private readonly parameters: ParametersService,
    private readonly ecosystems: EcosystemService,
  ) {}

  @RpcMethod('systemParams', {
    summary: 'Platform parameters, all (a window of them) or the named ones',
    description:
      '`names` is comma-separated; with names the window is ignored, without them `offset` (default 0) and ' +
      '`limit` (0 or absent: 25, at most 100) page the list in id order. An empty answer (no name ' +
      'matches, or the window is past the end) is NotFound.',
    result: PARAMETER_LIST,
    auth: true,
    errors: ['E_PARAMNOTFOUND'],
  })
  async systemParams({ names, offset, limit }: PlatformParametersParams) {
    return {
      list: await this.parameters.platformParameters(parameterNames(names), rpcWindow(offset, limit)),
    };
  }

  @RpcMethod('getEcosystemParams', {
    summary: 'Parameters of an ecosystem, all (a window of them) or the named ones',
    description:
      "`ecosystem` 0 or absent: the caller's; one that does not exist is refused. " +
      '`names` is comma-separated; with names the window is ignored, without them `offset` (default 0) and ' +
      '`limit` (0 or absent: 25, at most 100) page the list in id order.',
    result: PARAMETER_LIST,
    auth: true,
    errors: ['E_ECOSYSTEM'],
  })
  async getEcosystemParams(
    { ecosystem: requested, names, offset, limit }: EcosystemParametersParams,
    { caller }: RpcCallContext,
  ) {
    const ecosystem = await this.ecosystems.resolve(requested, caller.ecosystemId);
    return {
      list: await this.parameters.ecosystemParameters(
        ecosystem,
        parameterNames(names),
        rpcWindow(offset, limit),
      ),
    };
  }

  @RpcMethod('appParams', {
    summary: 'Parameters of an application, all (a window of them) or the named ones',
    description:
      "`ecosystem` 0 or absent: the caller's; one that does not exist is refused. " +
      '`names` is comma-separated; with names the window is ignored, without them `offset` (default 0) and ' +
      '`limit` (0 or absent: 25, at most 100) page the list in id order.',
    result: s.object({ app_id: s.integer(), list: s.array(PARAMETER) }),
    auth: true,
    errors: ['E_ECOSYSTEM'],
  })
  async appParams(
    { appId, ecosystem: requested, names, offset, limit }: AppParametersParams,
    { caller }: RpcCallContext,
  ) {
    const ecosystem = await this.ecosystems.resolve(requested, caller.ecosystemId);
    return {
      app_id: appId,
      list: await this.parameters.appParameters(
        ecosystem,
        appId,
        parameterNames(names),
        rpcWindow(offset, limit),
      ),
    };
  }

  @RpcMethod('getAppContent', {
    summary: 'The snippets, pages and contracts of an application in the session ecosystem',
    result: APP_CONTENT,
    auth: true,
  })
  getAppContent({ appId }: AppContentParams, { caller }: RpcCallContext) {
    return this.parameters.appContent(caller.ecosystemId, appId);
  }
}
