import { Controller, Get, Injectable } from '@nestjs/common';
import { Form } from '../http/form';
import { walletKeyId } from '../http/path-params';
import { BlockchainRoute } from '../http/request-gates';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { EcosystemInfoParams, EcosystemNameForm, KeyInfoParams, KeyInfoPath } from './ecosystem.dto';
import { ECOSYSTEM_INFO, KEY_ECOSYSTEM } from './ecosystem.answers';
import { EcosystemService } from './ecosystem.service';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

/** Each operation's summary, said once for its REST route and its JSON-RPC method. */
export const SUMMARY = {
  getKeyInfo: 'The ecosystems a key is registered in, with its roles and notifications there',
  // Also the summary of REST metrics/ecosystems, which the chain statistics serve.
  getEcosystemCount: 'Number of ecosystems',
} as const;

const KEY_ECOSYSTEMS = s.array(KEY_ECOSYSTEM);

@Controller('api/v2')
export class EcosystemController {
  constructor(private readonly ecosystems: EcosystemService) {}

  @ApiRoute({
    summary: "An ecosystem's name",
    description:
      'Reads `name` from `1_ecosystems` for `id` (its first value, read leniently: absent or not a number is ' +
      '0). An ecosystem that does not exist is 404 E_PARAMNOTFOUND "Parameter name has not been found", as ' +
      'the reference words it. Not served on CLB nodes.',
    answer: s.object({ ecosystem_name: s.string() }),
    errors: ['E_PARAMNOTFOUND'],
  })
  @Get('ecosystemname')
  @BlockchainRoute()
  async ecosystemName(@Form() { id }: EcosystemNameForm) {
    return { ecosystem_name: await this.ecosystems.name(id ?? 0n) };
  }

  @ApiRoute({
    summary: SUMMARY.getKeyInfo,
    description:
      'One entry per ecosystem whose `1_keys` has the key, by ascending id: name, token digits, the ' +
      'account\'s active roles and its open notification counts (role_id "0": those sent to the account ' +
      'itself). A key registered nowhere gives its address and one entry for the first ecosystem with digits ' +
      '0. The wallet is an address or a signed or unsigned decimal with a valid check digit, else ' +
      'E_INVALIDWALLET. JSON-RPC: `ibax.getKeyInfo` (adds `key_id`).',
    answer: s.object({ account: s.string(), ecosystems: KEY_ECOSYSTEMS }),
    errors: ['E_INVALIDWALLET'],
  })
  @Get('keyinfo/:wallet')
  async keyInfo(@Form() { wallet }: KeyInfoPath) {
    const info = await this.ecosystems.keyInfo(walletKeyId(wallet));
    return { account: info.account, ecosystems: info.ecosystems };
  }
}

@Injectable()
export class EcosystemRpc {
  constructor(private readonly ecosystems: EcosystemService) {}

  @RpcMethod('getEcosystemCount', { summary: SUMMARY.getEcosystemCount, result: s.integer() })
  getEcosystemCount() {
    return this.ecosystems.count();
  }

  @RpcMethod('getKeysCount', { summary: 'Number of keys registered in ecosystem 1', result: s.integer() })
  getKeysCount() {
    return this.ecosystems.keysCount();
  }

  @RpcMethod('ecosystemInfo', {
    summary: "An ecosystem's name, token, amounts and creator",
    description:
      "`total_amount`, `emission` and `withdraw` are decimal strings summed from the ecosystem's issue, " +
      'emission and burn records (ecosystem 1: the fixed platform total); `logo` is a binary id (0: none), ' +
      '`creator` the address of its founder_account. An ecosystem without a row or without an integer ' +
      'founder_account parameter is NotFound.',
    errors: ['E_NOTFOUND'],
    result: ECOSYSTEM_INFO,
  })
  ecosystemInfo({ ecosystemId }: EcosystemInfoParams) {
    return this.ecosystems.info(ecosystemId);
  }

  @RpcMethod('getKeyInfo', {
    summary: SUMMARY.getKeyInfo,
    description:
      '`account` is an address or a signed or unsigned decimal account id with a valid check digit; anything ' +
      'else is refused as `account address … is not valid`.',
    errors: ['E_INVALIDWALLET'],
    result: s.object({ account: s.string(), key_id: s.decimalString(), ecosystems: KEY_ECOSYSTEMS }),
  })
  async getKeyInfo({ account }: KeyInfoParams) {
    const info = await this.ecosystems.keyInfo(walletKeyId(account));
    return { account: info.account, key_id: info.keyId.toString(), ecosystems: info.ecosystems };
  }
}
