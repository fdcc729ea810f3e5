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

/**
 * One page of the ecosystem's contracts, as both protocols answer it: offset below 0 counts as 0, limit
 * 0 or absent is 25, and at most `maxLimit` (REST 1000, JSON-RPC 100); `list` is null for an empty page.
 */
async function contractsPage(
  contracts: ContractsService,
  crypto: NodeCrypto,
  ecosystem: bigint,
  offset: bigint | undefined,
  limit: bigint | undefined,
  maxLimit: bigint,
) {
  const start = offset !== undefined && offset > 0n ? offset : 0n;
  let size = limit ?? 0n;
  if (size <= 0n) size = 25n;
  if (size > maxLimit) size = maxLimit;
  const { count, rows } = await contracts.list(ecosystem, start, size);
  return {
    count,
    list: rows.length > 0 ? rows.map((row) => listEntry(row, crypto.address(BigInt(row.wallet_id)))) : null,
  };
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
  list(@Req() req: ApiRequest) {
    const form = parseForm(FormValues.of(req), { limit: 'int64', offset: 'int64' });
    return contractsPage(this.contracts, this.crypto, req.caller.ecosystemId, form.offset, form.limit, 1000n);
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
  getContracts([offset, limit]: [bigint | undefined, bigint | undefined], { caller }: RpcCallContext) {
    return contractsPage(this.contracts, this.crypto, caller.ecosystemId, offset, limit, 100n);
  }
}
