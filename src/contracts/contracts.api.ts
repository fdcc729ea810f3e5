import { Controller, Get, Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller';
import { Form } from '../http/form';
import { Auth, CurrentCaller } from '../http/request-gates';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { ContractInfoParams, ContractPath, ContractsPageForm, ContractsPageParams } from './contracts.dto';
import { ContractsService, type ContractRow } from './contracts.service';
import { NodeCrypto } from '../chain/node-crypto.service';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { CONTRACT_INFO, CONTRACTS_PAGE, type ContractsPage } from './contracts.answers';

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
): Promise<ContractsPage> {
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

  @ApiRoute({
    summary: "A contract's id, fields and owner",
    description:
      "Looks the name up among the compiled contracts (`Name`: the session's ecosystem, `@Name`: ecosystem " +
      '1, `@<ecosystem>Name`: that one) and joins its `1_contracts` row. `id` (table id + 5000) is what a ' +
      "transaction names; `fields` are the data section's parameters (`[]` when none); `tableid`, " +
      "`walletid` and `tokenid` are decimal text, `address` the owner wallet's. An unknown contract is 404 " +
      'E_CONTRACT, a database failure 500 E_QUERY. JSON-RPC: `ibax.getContractInfo`.',
    answer: CONTRACT_INFO,
    errors: ['E_CONTRACT', 'E_QUERY'],
  })
  @Get('contract/:name')
  @Auth()
  contract(@Form() { name }: ContractPath, @CurrentCaller() caller: Caller) {
    return this.contracts.info(name, caller.ecosystemId);
  }

  @ApiRoute({
    summary: "A page of the caller's ecosystem's contracts",
    description:
      "Rows of `1_contracts` of the session's ecosystem by id, with their source in `value`; every member " +
      "is text, `id` the table id (a transaction names it + 5000), `address` the owner's. `count` counts " +
      "all the ecosystem's contracts and `list` is null for an empty page; `limit` is 25 by default and at " +
      'most 1000, a negative offset counts as 0, and a value that is not an integer is 400 E_SERVER. ' +
      'JSON-RPC: `ibax.getContracts` (at most 100).',
    answer: CONTRACTS_PAGE,
    errors: ['E_SERVER'],
  })
  @Get('contracts')
  @Auth()
  list(@Form() { offset, limit }: ContractsPageForm, @CurrentCaller() caller: Caller) {
    return contractsPage(this.contracts, this.crypto, caller.ecosystemId, offset, limit, 1000n);
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
    result: CONTRACT_INFO,
    errors: ['E_CONTRACT', 'E_QUERY'],
  })
  getContractInfo({ contractName }: ContractInfoParams, { caller }: RpcCallContext) {
    return this.contracts.info(contractName, caller.ecosystemId);
  }

  @RpcMethod('getContracts', {
    auth: true,
    summary: "A page of the caller's ecosystem's contracts",
    result: CONTRACTS_PAGE,
  })
  getContracts({ offset, limit }: ContractsPageParams, { caller }: RpcCallContext) {
    return contractsPage(this.contracts, this.crypto, caller.ecosystemId, offset, limit, 100n);
  }
}
