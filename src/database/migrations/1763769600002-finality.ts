import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Finality (docs/architecture.md, "Finality and fork choice"): the honor nodes' signed votes for blocks, and
 * the highest final block this node holds. Neither is part of the chain's state: they are this node's record
 * of what the network agreed on, kept so that a restarted node never votes twice at one height and never
 * takes back a final block.
 */
export class Finality1763769600002 implements MigrationInterface {
  name = 'Finality1763769600002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "block_votes" (
        "block_id" bigint NOT NULL,
        "voter" bytea NOT NULL,
        "hash" bytea NOT NULL,
        "signature" bytea NOT NULL,
        PRIMARY KEY ("block_id", "voter")
      );
      CREATE TABLE "final_block" (
        "block_id" bigint PRIMARY KEY,
        "hash" bytea NOT NULL
      );
    `);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "final_block"; DROP TABLE "block_votes";`);
  }
}
