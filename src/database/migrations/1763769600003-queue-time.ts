import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each waiting transaction entered this node's queue, by the node's clock (Unix ms). A transaction's
 * own time is its sender's, and a client may sign long before it sends: the queue's back-pressure asks how
 * long the oldest transaction has waited here (`TxQueueBound`), which only the queue itself can tell.
 * Transactions already waiting when the column comes count from then.
 */
export class QueueTime1763769600003 implements MigrationInterface {
  name = 'QueueTime1763769600003';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE "transactions" ADD COLUMN "queued_at" bigint NOT NULL DEFAULT 0;
      UPDATE "transactions" SET "queued_at" = (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
    `);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "transactions" DROP COLUMN "queued_at"`);
  }
}
