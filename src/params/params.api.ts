import { Controller, Get, Injectable, Param, Req } from '@nestjs/common';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues, parseForm } from '../common/http/form';
import { lenientInt64 } from '../common/http/path-params';
import { Auth, BlockchainRoute } from '../common/http/request-gates';
import { EcosystemService } from '../ecosystem/ecosystem.service';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { parameterNames, ParametersService, rpcWindow } from './params.service';

const OPTIONAL_INT64 = { type: 'int64', optional: true } as const;
const OPTIONAL_STRING = { type: 'string', optional: true } as const;

const PARAMETER = s.object({
  id: s.decimalString(),
  name: s.string(),
  value: s.string(),
  conditions: s.string('the condition that guards changes'),
});
const PARAMETER_LIST = s.object({ list: s.array(PARAMETER) });
const APP_OBJECTS = s.array(s.object({ id: s.integer(), name: s.string() }));
const APP_CONTENT = s.object({ snippets: APP_OBJECTS, pages: APP_OBJECTS, contracts: APP_OBJECTS });
const ECOSYSTEM_FIELD = {
  description: 'ecosystem id; 0 or absent: the session ecosystem',
  schema: s.integer(),
};
const NAMES_FIELD = 'comma-separated parameter names; absent: all';
const APP_ID = 'application id';

@Controller('api/v2')
export class ParametersController {
  constructor(
    private readonly parameters: ParametersService,
    private readonly ecosystems: EcosystemService,
  ) {}

  /** The `ecosystem` and `names` form values of every parameter read. */
  private async scope(req: ApiRequest) {
    const form = parseForm(FormValues.of(req), { ecosystem: 'int64', names: 'string' });
    return {
      ecosystem: await this.ecosystems.resolve(form.ecosystem, req.caller.ecosystemId),
      names: parameterNames(form.names),
    };
  }

  @ApiRoute({
    summary: 'Platform parameters, all or the named ones',
    form: { names: NAMES_FIELD },
    answer: PARAMETER_LIST,
    errors: ['E_PARAMNOTFOUND', 'E_SERVER'],
  })
  @Get('systemparams')
  @Auth()
  @BlockchainRoute()
  async systemParams(@Req() req: ApiRequest) {
    const form = parseForm(FormValues.of(req), { names: 'string' });
    return { list: await this.parameters.platformParameters(parameterNames(form.names)) };
  }

  @ApiRoute({
    summary: 'Parameters of an ecosystem, all or the named ones',
    form: { ecosystem: ECOSYSTEM_FIELD, names: NAMES_FIELD },
    answer: PARAMETER_LIST,
    errors: ['E_ECOSYSTEM', 'E_SERVER'],
  })
  @Get('ecosystemparams')
  @Auth()
  @BlockchainRoute()
  async ecosystemParams(@Req() req: ApiRequest) {
    const { ecosystem, names } = await this.scope(req);
    return { list: await this.parameters.ecosystemParameters(ecosystem, names) };
  }

  @ApiRoute({
    summary: 'One parameter of an ecosystem',
    path: { name: 'parameter name' },
    form: { ecosystem: ECOSYSTEM_FIELD },
    answer: PARAMETER,
    errors: ['E_ECOSYSTEM', 'E_PARAMNOTFOUND', 'E_SERVER'],
  })
  @Get('ecosystemparam/:name')
  @Auth()
  @BlockchainRoute()
  async ecosystemParam(@Param('name') name: string, @Req() req: ApiRequest) {
    const { ecosystem } = await this.scope(req);
    return this.parameters.ecosystemParameter(ecosystem, name);
  }

  /** `app_id` is the path text exactly as sent, as the reference answers it. */
  @ApiRoute({
    summary: 'Parameters of an application, all or the named ones',
    path: { appid: APP_ID },
    form: { ecosystem: ECOSYSTEM_FIELD, names: NAMES_FIELD },
    answer: s.object({ app_id: s.string('the application id as sent'), list: s.array(PARAMETER) }),
    errors: ['E_ECOSYSTEM', 'E_SERVER'],
  })
  @Get('appparams/:appid')
  @Auth()
  @BlockchainRoute()
  async appParams(@Param('appid') appId: string, @Req() req: ApiRequest) {
    const { ecosystem, names } = await this.scope(req);
    return {
      app_id: appId,
      list: await this.parameters.appParameters(ecosystem, lenientInt64(appId), names),
    };
  }

  @ApiRoute({
    summary: 'One parameter of an application',
    path: { appid: APP_ID, name: 'parameter name' },
    form: { ecosystem: ECOSYSTEM_FIELD },
    answer: PARAMETER,
    errors: ['E_ECOSYSTEM', 'E_PARAMNOTFOUND', 'E_SERVER'],
  })
  @Get('appparam/:appid/:name')
  @Auth()
  @BlockchainRoute()
  async appParam(@Param('appid') appId: string, @Param('name') name: string, @Req() req: ApiRequest) {
    const { ecosystem } = await this.scope(req);
    return this.parameters.appParameter(ecosystem, lenientInt64(appId), name);
  }

  @ApiRoute({
    summary: 'The snippets, pages and contracts of an application',
    path: { appid: APP_ID },
    form: { ecosystem: ECOSYSTEM_FIELD },
    answer: APP_CONTENT,
    errors: ['E_ECOSYSTEM', 'E_SERVER'],
  })
  @Get('appcontent/:appid')
  @Auth()
  @BlockchainRoute()
  async appContent(@Param('appid') appId: string, @Req() req: ApiRequest) {
    const { ecosystem } = await this.scope(req);
    return this.parameters.appContent(ecosystem, lenientInt64(appId));
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
    result: PARAMETER_LIST,
    auth: true,
    params: [
      { name: 'names', ...OPTIONAL_STRING },
      { name: 'offset', ...OPTIONAL_INT64 },
      { name: 'limit', ...OPTIONAL_INT64 },
    ],
  })
  async systemParams([names, offset, limit]: [string?, bigint?, bigint?]) {
    return {
      list: await this.parameters.platformParameters(parameterNames(names), rpcWindow(offset, limit)),
    };
  }

  @RpcMethod('getEcosystemParams', {
    summary: 'Parameters of an ecosystem, all (a window of them) or the named ones',
    result: PARAMETER_LIST,
    auth: true,
    params: [
      { name: 'ecosystem', ...OPTIONAL_INT64 },
      { name: 'names', ...OPTIONAL_STRING },
      { name: 'offset', ...OPTIONAL_INT64 },
      { name: 'limit', ...OPTIONAL_INT64 },
    ],
  })
  async getEcosystemParams(
    [requested, names, offset, limit]: [bigint?, string?, bigint?, bigint?],
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
    result: s.object({ app_id: s.integer(), list: s.array(PARAMETER) }),
    auth: true,
    params: [
      { name: 'appId', type: 'int64' },
      { name: 'ecosystem', ...OPTIONAL_INT64 },
      { name: 'names', ...OPTIONAL_STRING },
      { name: 'offset', ...OPTIONAL_INT64 },
      { name: 'limit', ...OPTIONAL_INT64 },
    ],
  })
  async appParams(
    [appId, requested, names, offset, limit]: [bigint, bigint?, string?, bigint?, bigint?],
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
    params: [{ name: 'appId', type: 'int64' }],
  })
  getAppContent([appId]: [bigint], { caller }: RpcCallContext) {
    return this.parameters.appContent(caller.ecosystemId, appId);
  }
}
