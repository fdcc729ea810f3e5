import { ConfirmationEntity } from './confirmation.entity';
import { LogTransactionEntity } from './log-transaction.entity';
import { QueueTxEntity } from './queue-tx.entity';
import { TransactionStatusEntity } from './transaction-status.entity';
import { TransactionEntity } from './transaction.entity';

export {
  ConfirmationEntity,
  LogTransactionEntity,
  QueueTxEntity,
  TransactionEntity,
  TransactionStatusEntity,
};

export const TX_ENTITIES = [
  TransactionEntity,
  TransactionStatusEntity,
  LogTransactionEntity,
  QueueTxEntity,
  ConfirmationEntity,
];
