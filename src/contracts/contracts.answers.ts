import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the contracts domain, each declared once as its schema: the API description shows it, and
 * the service, the handlers and the SDK take their types from it (`ValueOf`).
 */

/** `contract/:name`, `getContractInfo`: what a call of the contract needs, and its owner. */
export const CONTRACT_INFO = s.object({
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
export type ContractInfoAnswer = ValueOf<typeof CONTRACT_INFO>;

/** `contracts`, `getContracts`: a page of the ecosystem's contracts. */
export const CONTRACTS_PAGE = s.object({
  count: s.integer('how many contracts the ecosystem has'),
  list: s.nullable(
    s.array(
      s.map(s.string(), 'address, app_id, conditions, ecosystem_id, id, name, token_id, value, wallet_id'),
    ),
  ),
});
export type ContractsPage = ValueOf<typeof CONTRACTS_PAGE>;
