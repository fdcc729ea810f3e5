import { Controller, Get, Injectable, Param, Req } from '@nestjs/common';
import type { Caller } from '../auth/caller';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues, parseForm } from '../common/http/form';
import { Auth, CurrentCaller } from '../common/http/request-gates';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { ContractsService, type ContractRow } from './contracts.service';
import { NodeCrypto } from '../chain/node-crypto.service';

/** List entries: every value a string, members in sorted order (the reference writes a Go map). */
function listEntry(row: ContractRow, address: string) {
  return {
    address,
    app_id: row.app_id,
    conditions: row.conditions,
    ecosystem_id: row.ecosystem,
    id: row.id,
    name: row.name,
    token_id: row.token_id,
    value: row.value,
    wallet_id: row.wallet_id,
  };
}

function page(limit: bigint | number | undefined, max: bigint): bigint {
  const value = BigInt(limit ?? 0);
  if (value <= 0n) return 25n;
  return value > max ? max : value;
}

@Controller('api/v2')
export class ContractsController {
  constructor(
    private readonly contracts: ContractsService,
    private readonly crypto: NodeCrypto,
  ) {}

  @Get('contract/:name')
  @Auth()
  contract(@Param('name') name: string, @CurrentCaller() caller: Caller) {
    return this.contracts.info(name, caller.ecosystemId);
  }

  @Get('contracts')
  @Auth()
  async list(@Req() req: ApiRequest) {
    const form = parseForm(FormValues.of(req), { limit: 'int64', offset: 'int64' });
    const offset = form.offset !== undefined && form.offset > 0n ? form.offset : 0n;
    const { count, rows } = await this.contracts.list(
      req.caller.ecosystemId,
      offset,
      page(form.limit, 1000n),
    );
    return {
      count,
      list:
        rows.length > 0
          ? rows.map((row) => listEntry(row, this.crypto.address(BigInt(row.wallet_id))))
          : null,
    };
  }
}

@Injectable()
export class ContractsRpc {
  constructor(
    private readonly contracts: ContractsService,
    private readonly crypto: NodeCrypto,
  ) {}

  @RpcMethod('getContractInfo', { auth: true, params: [{ name: 'contractName', type: 'string' }] })
  getContractInfo([name]: [string], { caller }: RpcCallContext) {
    if (!name) throw RpcError.invalidParams('params can not be empty');
    return this.contracts.info(name, caller.ecosystemId);
  }

  @RpcMethod('getContracts', {
    auth: true,
    params: [
      { name: 'offset', type: 'int64', optional: true },
      { name: 'limit', type: 'int64', optional: true },
    ],
  })
  async getContracts([offset, limit]: [bigint | undefined, bigint | undefined], { caller }: RpcCallContext) {
    const start = offset !== undefined && offset > 0n ? offset : 0n;
    const { count, rows } = await this.contracts.list(caller.ecosystemId, start, page(limit, 100n));
    return {
      count,
      list:
        rows.length > 0
          ? rows.map((row) => listEntry(row, this.crypto.address(BigInt(row.wallet_id))))
          : null,
    };
  }
}
