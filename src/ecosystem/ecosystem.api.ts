import { Controller, Get, Injectable, Param, Req } from '@nestjs/common';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues } from '../common/http/form';
import { lenientInt64, walletKeyId } from '../common/http/path-params';
import { BlockchainRoute } from '../common/http/request-gates';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { EcosystemService } from './ecosystem.service';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

const KEY_ECOSYSTEMS = s.array(
  s.object(
    {
      ecosystem: s.decimalString(),
      name: s.string(),
      digits: s.integer(),
      roles: s.array(s.object({ id: s.string(), name: s.string() })),
      notifications: s.array(s.object({ role_id: s.string(), count: s.integer() })),
    },
    { optional: ['roles', 'notifications'] },
  ),
);

@Controller('api/v2')
export class EcosystemController {
  constructor(private readonly ecosystems: EcosystemService) {}

  @ApiRoute({
    summary: "An ecosystem's name",
    form: { id: { description: 'ecosystem id', schema: s.integer(), required: true } },
    answer: s.object({ ecosystem_name: s.string() }),
    errors: ['E_PARAMNOTFOUND', 'E_ECOSYSTEM'],
  })
  @Get('ecosystemname')
  @BlockchainRoute()
  async ecosystemName(@Req() req: ApiRequest) {
    const id = lenientInt64(FormValues.of(req).first('id') ?? '');
    return { ecosystem_name: await this.ecosystems.name(id) };
  }

  @ApiRoute({
    summary: 'The ecosystems a key is registered in, with its roles and notifications there',
    path: { wallet: 'key id or account address' },
    answer: s.object({ account: s.string(), ecosystems: KEY_ECOSYSTEMS }),
    errors: ['E_INVALIDWALLET'],
  })
  @Get('keyinfo/:wallet')
  async keyInfo(@Param('wallet') wallet: string) {
    const info = await this.ecosystems.keyInfo(walletKeyId(wallet));
    return { account: info.account, ecosystems: info.ecosystems };
  }
}

@Injectable()
export class EcosystemRpc {
  constructor(private readonly ecosystems: EcosystemService) {}

  @RpcMethod('getEcosystemCount', { summary: 'Number of ecosystems', result: s.integer() })
  getEcosystemCount() {
    return this.ecosystems.count();
  }

  @RpcMethod('getKeysCount', { summary: 'Number of keys over all ecosystems', result: s.integer() })
  getKeysCount() {
    return this.ecosystems.keysCount();
  }

  @RpcMethod('ecosystemInfo', {
    summary: "An ecosystem's name, token, amounts and creator",
    params: [{ name: 'ecosystemId', type: 'int64', description: 'ecosystem id' }],
    result: s.object({
      id: s.integer(),
      name: s.string(),
      digits: s.integer(),
      token_symbol: s.string(),
      token_name: s.string(),
      total_amount: s.string(),
      is_withdraw: s.boolean(),
      withdraw: s.string(),
      is_emission: s.boolean(),
      emission: s.string(),
      introduction: s.string(),
      logo: s.integer(),
      creator: s.string(),
    }),
  })
  ecosystemInfo([id]: [bigint]) {
    return this.ecosystems.info(id);
  }

  @RpcMethod('getKeyInfo', {
    summary: 'The ecosystems a key is registered in, with its roles and notifications there',
    params: [{ name: 'account', type: 'string', description: 'key id or account address' }],
    result: s.object({ account: s.string(), key_id: s.decimalString(), ecosystems: KEY_ECOSYSTEMS }),
  })
  async getKeyInfo([account]: [string]) {
    const info = await this.ecosystems.keyInfo(walletKeyId(account));
    return { account: info.account, key_id: info.keyId.toString(), ecosystems: info.ecosystems };
  }
}
