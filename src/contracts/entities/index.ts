import { BufferDataEntity } from './buffer-data.entity';
import { ContractEntity } from './contract.entity';
import { DelayedContractEntity } from './delayed-contract.entity';

export { BufferDataEntity, ContractEntity, DelayedContractEntity };

export const CONTRACTS_ENTITIES = [ContractEntity, DelayedContractEntity, BufferDataEntity];
