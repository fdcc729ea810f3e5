import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The node's own tables (formats.md §6.1): the chain, its tip, the mempool, statuses and the journal. */
export class PlatformTables1763769600000 implements MigrationInterface {
  name = 'PlatformTables1763769600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "migration_history" (
        "id" serial PRIMARY KEY,
        "version" varchar(255) NOT NULL,
        "date_applied" bigint NOT NULL
      );
      CREATE TABLE "block_chain" (
        "id" bigint PRIMARY KEY,
        "hash" bytea NOT NULL,
        "rollbacks_hash" bytea NOT NULL,
        "data" bytea NOT NULL,
        "ecosystem_id" bigint NOT NULL DEFAULT 0,
        "key_id" bigint NOT NULL DEFAULT 0,
        "node_position" bigint NOT NULL DEFAULT 0,
        "time" bigint NOT NULL,
        "tx" integer NOT NULL DEFAULT 0,
        "consensus_mode" integer NOT NULL DEFAULT 1,
        "candidate_nodes" bytea
      );
      CREATE UNIQUE INDEX "block_chain_hash_idx" ON "block_chain" ("hash");
      CREATE INDEX "block_chain_node_position_time_idx" ON "block_chain" ("node_position", "time");
      CREATE TABLE "confirmations" (
        "block_id" bigint PRIMARY KEY,
        "good" integer NOT NULL DEFAULT 0,
        "bad" integer NOT NULL DEFAULT 0,
        "time" bigint NOT NULL DEFAULT 0
      );
      CREATE TABLE "info_block" (
        "hash" bytea NOT NULL,
        "rollbacks_hash" bytea NOT NULL,
        "block_id" bigint NOT NULL,
        "node_position" bigint NOT NULL DEFAULT 0,
        "ecosystem_id" bigint NOT NULL DEFAULT 0,
        "key_id" bigint NOT NULL DEFAULT 0,
        "time" bigint NOT NULL,
        "current_version" varchar(50) NOT NULL DEFAULT '0.0.1',
        "sent" smallint NOT NULL DEFAULT 0,
        "consensus_mode" integer NOT NULL DEFAULT 1,
        "candidate_nodes" bytea
      );
      CREATE INDEX "info_block_sent_idx" ON "info_block" ("sent");
      CREATE TABLE "install" ("progress" varchar(10) NOT NULL);
      CREATE TABLE "log_transactions" (
        "hash" bytea PRIMARY KEY,
        "block" bigint NOT NULL,
        "timestamp" bigint NOT NULL,
        "contract_name" varchar(255) NOT NULL DEFAULT '',
        "address" bigint NOT NULL DEFAULT 0,
        "ecosystem_id" bigint NOT NULL DEFAULT 1,
        "status" bigint NOT NULL DEFAULT 0
      );
      CREATE INDEX "log_transactions_block_idx" ON "log_transactions" ("block");
      CREATE TABLE "queue_blocks" (
        "hash" bytea PRIMARY KEY,
        "honor_node_id" bigint NOT NULL,
        "block_id" bigint NOT NULL
      );
      CREATE TABLE "queue_tx" (
        "hash" bytea PRIMARY KEY,
        "data" bytea NOT NULL,
        "from_gate" integer NOT NULL DEFAULT 0,
        "expedite" numeric(30) NOT NULL DEFAULT 0 CHECK ("expedite" >= 0),
        "time" bigint NOT NULL
      );
      CREATE TABLE "rollback_tx" (
        "id" bigserial PRIMARY KEY,
        "block_id" bigint NOT NULL,
        "tx_hash" bytea NOT NULL,
        "table_name" varchar(255) NOT NULL,
        "table_id" varchar(255) NOT NULL,
        "data_hash" bytea,
        "data" text NOT NULL DEFAULT ''
      );
      CREATE INDEX "rollback_tx_table_idx" ON "rollback_tx" ("table_name", "table_id", "block_id");
      CREATE INDEX "rollback_tx_block_idx" ON "rollback_tx" ("block_id");
      CREATE TABLE "stop_daemons" ("stop_time" integer NOT NULL);
      CREATE TABLE "spent_info" (
        "input_tx_hash" bytea,
        "input_index" integer,
        "output_tx_hash" bytea NOT NULL,
        "output_index" integer NOT NULL,
        "output_key_id" bigint NOT NULL,
        "output_value" numeric(30) NOT NULL CHECK ("output_value" >= 0),
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "block_id" bigint NOT NULL,
        "type" bigint NOT NULL,
        PRIMARY KEY ("output_tx_hash", "output_key_id", "output_index")
      );
      CREATE INDEX "spent_info_block_id_idx" ON "spent_info" ("block_id");
      CREATE INDEX "spent_info_input_tx_hash_idx" ON "spent_info" ("input_tx_hash");
      CREATE INDEX "spent_info_output_key_id_idx" ON "spent_info" ("output_key_id");
      CREATE INDEX "spent_info_output_tx_hash_idx" ON "spent_info" ("output_tx_hash");
      CREATE TABLE "transactions" (
        "hash" bytea PRIMARY KEY,
        "data" bytea NOT NULL,
        "used" smallint NOT NULL DEFAULT 0,
        "high_rate" smallint NOT NULL DEFAULT 0,
        "expedite" numeric(30) NOT NULL DEFAULT 0 CHECK ("expedite" >= 0),
        "time" bigint NOT NULL,
        "type" smallint NOT NULL DEFAULT 0,
        "key_id" bigint NOT NULL DEFAULT 0,
        "sent" smallint NOT NULL DEFAULT 0,
        "verified" smallint NOT NULL DEFAULT 1
      );
      CREATE INDEX "transactions_state_idx" ON "transactions" ("sent", "used", "verified", "high_rate");
      CREATE TABLE "transactions_status" (
        "hash" bytea PRIMARY KEY,
        "time" bigint NOT NULL,
        "type" integer NOT NULL,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "wallet_id" bigint NOT NULL,
        "block_id" bigint NOT NULL DEFAULT 0,
        "error" text NOT NULL DEFAULT '',
        "penalty" integer NOT NULL DEFAULT 0
      );
    `);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      DROP TABLE "transactions_status"; DROP TABLE "transactions"; DROP TABLE "spent_info";
      DROP TABLE "stop_daemons"; DROP TABLE "rollback_tx"; DROP TABLE "queue_tx"; DROP TABLE "queue_blocks";
      DROP TABLE "log_transactions"; DROP TABLE "install"; DROP TABLE "info_block"; DROP TABLE "confirmations";
      DROP TABLE "block_chain"; DROP TABLE "migration_history";
    `);
  }
}
