import { Controller, Get, Injectable, Param, Req } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues } from '../common/http/form';
import { lenientInt64 } from '../common/http/path-params';
import { BlockchainRoute } from '../common/http/request-gates';
import { stringToAddress } from '../crypto';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { EcosystemService } from './ecosystem.service';

/** A wallet in a path or argument: address text, signed or unsigned decimal, with a valid check digit. */
function walletKeyId(text: string): bigint {
  const keyId = stringToAddress(text);
  if (keyId === 0n) throw new ApiError('E_INVALIDWALLET', text);
  return keyId;
}

@Controller('api/v2')
export class EcosystemController {
  constructor(private readonly ecosystems: EcosystemService) {}

  @Get('ecosystemname')
  @BlockchainRoute()
  async ecosystemName(@Req() req: ApiRequest) {
    const id = lenientInt64(FormValues.of(req).first('id') ?? '');
    return { ecosystem_name: await this.ecosystems.name(id) };
  }

  @Get('keyinfo/:wallet')
  async keyInfo(@Param('wallet') wallet: string) {
    const info = await this.ecosystems.keyInfo(walletKeyId(wallet));
    return { account: info.account, ecosystems: info.ecosystems };
  }
}

@Injectable()
export class EcosystemRpc {
  constructor(private readonly ecosystems: EcosystemService) {}

  @RpcMethod('getEcosystemCount')
  getEcosystemCount() {
    return this.ecosystems.count();
  }

  @RpcMethod('getKeysCount')
  getKeysCount() {
    return this.ecosystems.keysCount();
  }

  @RpcMethod('ecosystemInfo', { params: [{ name: 'ecosystemId', type: 'int64' }] })
  ecosystemInfo([id]: [bigint]) {
    return this.ecosystems.info(id);
  }

  @RpcMethod('getKeyInfo', { params: [{ name: 'account', type: 'string' }] })
  async getKeyInfo([account]: [string]) {
    const info = await this.ecosystems.keyInfo(walletKeyId(account));
    return { account: info.account, key_id: info.keyId.toString(), ecosystems: info.ecosystems };
  }
}
