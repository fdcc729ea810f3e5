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
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

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

const CONTRACT_INFO = s.object({
  id: s.integer('contract id as transactions name it'),
  state: s.integer('ecosystem'),
  tableid: s.decimalString(),
  walletid: s.decimalString(),
  tokenid: s.decimalString(),
  address: s.string(),
  fields: s.array(s.object({ name: s.string(), type: s.string(), optional: s.boolean() })),
  name: s.string('@<ecosystem>Name'),
  app_id: s.integer(),
  ecosystem: s.integer(),
  conditions: s.string(),
});
const CONTRACTS_PAGE = s.object({
  count: s.any('how many contracts the ecosystem has'),
  list: s.nullable(
    s.array(
      s.map(s.string(), 'address, app_id, conditions, ecosystem_id, id, name, token_id, value, wallet_id'),
    ),
  ),
});

@Controller('api/v2')
export class ContractsController {
  constructor(
    private readonly contracts: ContractsService,
    private readonly crypto: NodeCrypto,
  ) {}

  @ApiRoute({
    summary: "A contract's id, fields and owner",
    path: { name: "contract name: Name (caller's ecosystem), @Name (ecosystem 1) or @<ecosystem>Name" },
    answer: CONTRACT_INFO,
    errors: ['E_CONTRACT', 'E_QUERY'],
  })
  @Get('contract/:name')
  @Auth()
  contract(@Param('name') name: string, @CurrentCaller() caller: Caller) {
    return this.contracts.info(name, caller.ecosystemId);
  }

  @ApiRoute({
    summary: "A page of the caller's ecosystem's contracts",
    form: {
      offset: { description: 'rows to skip', schema: s.integer() },
      limit: { description: '25 by default, at most 1000', schema: s.integer() },
    },
    answer: CONTRACTS_PAGE,
  })
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

  @RpcMethod('getContractInfo', {
    auth: true,
    summary: "A contract's id, fields and owner",
    params: [{ name: 'contractName', type: 'string', description: 'Name, @Name or @<ecosystem>Name' }],
    result: CONTRACT_INFO,
  })
  getContractInfo([name]: [string], { caller }: RpcCallContext) {
    if (!name) throw RpcError.invalidParams('params can not be empty');
    return this.contracts.info(name, caller.ecosystemId);
  }

  @RpcMethod('getContracts', {
    auth: true,
    summary: "A page of the caller's ecosystem's contracts",
    params: [
      { name: 'offset', type: 'int64', optional: true, description: 'rows to skip' },
      { name: 'limit', type: 'int64', optional: true, description: '25 by default, at most 100' },
    ],
    result: CONTRACTS_PAGE,
  })
  getContracts([offset, limit]: [bigint | undefined, bigint | undefined], { caller }: RpcCallContext) {
    return contractsPage(this.contracts, this.crypto, caller.ecosystemId, offset, limit, 100n);
  }
}
