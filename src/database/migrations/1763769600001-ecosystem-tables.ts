import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ecosystem tables (formats.md §6.2). Every ecosystem shares the `1_*` tables through their
 * `ecosystem` column; the last five belong to the first ecosystem alone. Row ids are assigned by the node
 * (deterministically, inside the block), so there are no sequences.
 */
export class EcosystemTables1763769600001 implements MigrationInterface {
  name = 'EcosystemTables1763769600001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "1_keys" (
        "id" bigint NOT NULL,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "pub" bytea NOT NULL DEFAULT '\\x',
        "amount" numeric(30) NOT NULL DEFAULT 0 CHECK ("amount" >= 0),
        "maxpay" numeric(30) NOT NULL DEFAULT 0 CHECK ("maxpay" >= 0),
        "multi" bigint NOT NULL DEFAULT 0,
        "deleted" bigint NOT NULL DEFAULT 0,
        "blocked" bigint NOT NULL DEFAULT 0,
        "account" char(24) NOT NULL,
        PRIMARY KEY ("ecosystem", "id"),
        UNIQUE ("ecosystem", "account")
      );
      CREATE INDEX "1_keys_account_idx" ON "1_keys" ("account");
      CREATE INDEX "1_keys_id_idx" ON "1_keys" ("id");

      CREATE TABLE "1_menu" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" varchar(255) NOT NULL,
        "title" varchar(255) NOT NULL DEFAULT '',
        "value" text NOT NULL DEFAULT '',
        "conditions" text NOT NULL DEFAULT '',
        "permissions" jsonb NOT NULL DEFAULT '{}',
        UNIQUE ("ecosystem", "name")
      );
      CREATE TABLE "1_pages" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" varchar(255) NOT NULL,
        "value" text NOT NULL DEFAULT '',
        "menu" varchar(255) NOT NULL DEFAULT '',
        "validate_count" bigint NOT NULL DEFAULT 1,
        "conditions" text NOT NULL DEFAULT '',
        "permissions" jsonb NOT NULL DEFAULT '{}',
        "app_id" bigint NOT NULL DEFAULT 1,
        "validate_mode" char(1) NOT NULL DEFAULT '0',
        UNIQUE ("ecosystem", "name")
      );
      CREATE TABLE "1_snippets" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" varchar(255) NOT NULL,
        "value" text NOT NULL DEFAULT '',
        "conditions" text NOT NULL DEFAULT '',
        "permissions" jsonb NOT NULL DEFAULT '{}',
        "app_id" bigint NOT NULL DEFAULT 1,
        UNIQUE ("ecosystem", "name")
      );
      CREATE TABLE "1_languages" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" varchar(100) NOT NULL,
        "res" text NOT NULL DEFAULT '',
        "conditions" text NOT NULL DEFAULT '',
        "permissions" jsonb NOT NULL DEFAULT '{}',
        "app_id" bigint NOT NULL DEFAULT 1
      );
      CREATE INDEX "1_languages_ecosystem_name_idx" ON "1_languages" ("ecosystem", "name");
      CREATE TABLE "1_contracts" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" text NOT NULL,
        "value" text NOT NULL DEFAULT '',
        "wallet_id" bigint NOT NULL DEFAULT 0,
        "token_id" bigint NOT NULL DEFAULT 1,
        "conditions" text NOT NULL DEFAULT '',
        "permissions" jsonb NOT NULL DEFAULT '{}',
        "app_id" bigint NOT NULL DEFAULT 1,
        UNIQUE ("ecosystem", "name")
      );
      CREATE TABLE "1_tables" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" varchar(100) NOT NULL,
        "permissions" jsonb NOT NULL DEFAULT '{}',
        "columns" jsonb NOT NULL DEFAULT '{}',
        "conditions" text NOT NULL DEFAULT '',
        "app_id" bigint NOT NULL DEFAULT 1,
        UNIQUE ("ecosystem", "name")
      );
      CREATE TABLE "1_views" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" varchar(100) NOT NULL,
        "columns" jsonb NOT NULL DEFAULT '{}',
        "wheres" jsonb NOT NULL DEFAULT '{}',
        "permissions" jsonb NOT NULL DEFAULT '{}',
        "conditions" text NOT NULL DEFAULT '',
        "app_id" bigint NOT NULL DEFAULT 1,
        UNIQUE ("ecosystem", "name")
      );
      CREATE TABLE "1_parameters" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" varchar(255) NOT NULL,
        "value" text NOT NULL DEFAULT '',
        "conditions" text NOT NULL DEFAULT '',
        "permissions" jsonb NOT NULL DEFAULT '{}',
        UNIQUE ("ecosystem", "name")
      );
      CREATE TABLE "1_history" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "sender_id" bigint NOT NULL DEFAULT 0,
        "recipient_id" bigint NOT NULL DEFAULT 0,
        "sender_balance" numeric(30) NOT NULL DEFAULT 0,
        "recipient_balance" numeric(30) NOT NULL DEFAULT 0,
        "amount" numeric(30) NOT NULL DEFAULT 0,
        "value_detail" jsonb NOT NULL DEFAULT '{}',
        "comment" text NOT NULL DEFAULT '',
        "status" bigint NOT NULL DEFAULT 0,
        "block_id" bigint NOT NULL DEFAULT 0,
        "txhash" bytea NOT NULL DEFAULT '\\x',
        "created_at" bigint NOT NULL DEFAULT 0,
        "type" bigint NOT NULL DEFAULT 1
      );
      CREATE INDEX "1_history_sender_idx" ON "1_history" ("ecosystem", "sender_id");
      CREATE INDEX "1_history_recipient_idx" ON "1_history" ("ecosystem", "recipient_id");
      CREATE INDEX "1_history_block_tx_idx" ON "1_history" ("block_id", "txhash");
      CREATE TABLE "1_sections" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "title" varchar(255) NOT NULL DEFAULT '',
        "urlname" varchar(255) NOT NULL DEFAULT '',
        "page" varchar(255) NOT NULL DEFAULT '',
        "roles_access" jsonb NOT NULL DEFAULT '[]',
        "status" bigint NOT NULL DEFAULT 0
      );
      CREATE INDEX "1_sections_ecosystem_idx" ON "1_sections" ("ecosystem", "status");
      CREATE TABLE "1_members" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "member_name" varchar(255) NOT NULL DEFAULT '',
        "image_id" bigint,
        "member_info" jsonb NOT NULL DEFAULT '{}',
        "account" char(24) NOT NULL,
        UNIQUE ("account", "ecosystem")
      );
      CREATE TABLE "1_roles" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "default_page" varchar(255) NOT NULL DEFAULT '',
        "role_name" varchar(255) NOT NULL,
        "deleted" bigint NOT NULL DEFAULT 0,
        "role_type" bigint NOT NULL DEFAULT 0,
        "creator" jsonb NOT NULL DEFAULT '{}',
        "date_created" timestamp,
        "date_deleted" timestamp,
        "company_id" bigint NOT NULL DEFAULT 0,
        "roles_access" jsonb NOT NULL DEFAULT '[]',
        "image_id" bigint NOT NULL DEFAULT 0
      );
      CREATE INDEX "1_roles_deleted_idx" ON "1_roles" ("ecosystem", "deleted");
      CREATE INDEX "1_roles_type_idx" ON "1_roles" ("ecosystem", "role_type");
      CREATE TABLE "1_roles_participants" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "role" jsonb NOT NULL DEFAULT '{}',
        "member" jsonb NOT NULL DEFAULT '{}',
        "appointed" jsonb NOT NULL DEFAULT '{}',
        "date_created" timestamp,
        "date_deleted" timestamp,
        "deleted" bigint NOT NULL DEFAULT 0
      );
      CREATE INDEX "1_roles_participants_ecosystem_idx" ON "1_roles_participants" ("ecosystem", "deleted");
      CREATE TABLE "1_notifications" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "recipient" jsonb NOT NULL DEFAULT '{}',
        "sender" jsonb NOT NULL DEFAULT '{}',
        "notification" jsonb NOT NULL DEFAULT '{}',
        "page_params" jsonb NOT NULL DEFAULT '{}',
        "processing_info" jsonb NOT NULL DEFAULT '{}',
        "page_name" varchar(255) NOT NULL DEFAULT '',
        "date_created" timestamp,
        "date_start_processing" timestamp,
        "date_closed" timestamp,
        "closed" bigint NOT NULL DEFAULT 0
      );
      CREATE INDEX "1_notifications_ecosystem_idx" ON "1_notifications" ("ecosystem", "closed");
      CREATE TABLE "1_applications" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" varchar(255) NOT NULL,
        "uuid" uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
        "conditions" text NOT NULL DEFAULT '',
        "deleted" bigint NOT NULL DEFAULT 0
      );
      CREATE TABLE "1_binaries" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "app_id" bigint NOT NULL DEFAULT 1,
        "name" varchar(255) NOT NULL,
        "data" bytea NOT NULL DEFAULT '\\x',
        "hash" varchar(64) NOT NULL DEFAULT '',
        "mime_type" varchar(255) NOT NULL DEFAULT '',
        "account" char(24) NOT NULL,
        UNIQUE ("account", "ecosystem", "app_id", "name")
      );
      CREATE TABLE "1_app_params" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "app_id" bigint NOT NULL,
        "name" varchar(255) NOT NULL,
        "value" text NOT NULL DEFAULT '',
        "conditions" text NOT NULL DEFAULT '',
        "permissions" jsonb NOT NULL DEFAULT '{}',
        UNIQUE ("ecosystem", "app_id", "name")
      );
      CREATE TABLE "1_buffer_data" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "key" varchar(255) NOT NULL,
        "value" jsonb NOT NULL DEFAULT '{}',
        "account" char(24) NOT NULL
      );
      CREATE TABLE "1_time_zones" (
        "id" bigint PRIMARY KEY,
        "ecosystem" bigint NOT NULL DEFAULT 1,
        "name" varchar(255) NOT NULL,
        "offset" varchar(6) NOT NULL,
        UNIQUE ("name")
      );

      CREATE TABLE "1_ecosystems" (
        "id" bigint PRIMARY KEY,
        "name" varchar(255) NOT NULL,
        "info" jsonb NOT NULL DEFAULT '{}',
        "fee_mode_info" jsonb NOT NULL DEFAULT '{}',
        "is_valued" bigint NOT NULL DEFAULT 0,
        "emission_amount" jsonb NOT NULL DEFAULT '[]',
        "token_symbol" varchar(255) NOT NULL DEFAULT '',
        "token_name" varchar(255) NOT NULL DEFAULT '',
        "type_emission" bigint NOT NULL DEFAULT 0,
        "type_withdraw" bigint NOT NULL DEFAULT 0,
        "control_mode" bigint NOT NULL DEFAULT 1,
        "digits" bigint NOT NULL DEFAULT 0
      );
      CREATE TABLE "1_platform_parameters" (
        "id" bigint PRIMARY KEY,
        "name" varchar(255) NOT NULL,
        "value" text NOT NULL DEFAULT '',
        "conditions" text NOT NULL DEFAULT ''
      );
      CREATE UNIQUE INDEX "1_platform_parameters_name_idx" ON "1_platform_parameters" ("name");
      CREATE TABLE "1_delayed_contracts" (
        "id" bigint PRIMARY KEY,
        "contract" varchar(255) NOT NULL,
        "key_id" bigint NOT NULL DEFAULT 0,
        "block_id" bigint NOT NULL DEFAULT 0,
        "every_block" bigint NOT NULL DEFAULT 0,
        "counter" bigint NOT NULL DEFAULT 0,
        "high_rate" bigint NOT NULL DEFAULT 0,
        "limit" bigint NOT NULL DEFAULT 0,
        "deleted" bigint NOT NULL DEFAULT 0,
        "conditions" text NOT NULL DEFAULT ''
      );
      CREATE INDEX "1_delayed_contracts_block_idx" ON "1_delayed_contracts" ("block_id");
      CREATE TABLE "1_bad_blocks" (
        "id" bigint PRIMARY KEY,
        "producer_node_id" bigint NOT NULL,
        "block_id" bigint NOT NULL,
        "consumer_node_id" bigint NOT NULL,
        "block_time" timestamp NOT NULL,
        "reason" text NOT NULL DEFAULT '',
        "deleted" bigint NOT NULL DEFAULT 0
      );
      CREATE TABLE "1_node_ban_logs" (
        "id" bigint PRIMARY KEY,
        "node_id" bigint NOT NULL,
        "banned_at" timestamp NOT NULL,
        "ban_time" bigint NOT NULL,
        "reason" text NOT NULL DEFAULT ''
      );
    `);
  }

  async down(runner: QueryRunner): Promise<void> {
    const tables = [
      '1_node_ban_logs',
      '1_bad_blocks',
      '1_delayed_contracts',
      '1_platform_parameters',
      '1_ecosystems',
      '1_time_zones',
      '1_buffer_data',
      '1_app_params',
      '1_binaries',
      '1_applications',
      '1_notifications',
      '1_roles_participants',
      '1_roles',
      '1_members',
      '1_sections',
      '1_history',
      '1_parameters',
      '1_views',
      '1_tables',
      '1_contracts',
      '1_languages',
      '1_snippets',
      '1_pages',
      '1_menu',
      '1_keys',
    ];
    for (const table of tables) await runner.query(`DROP TABLE "${table}"`);
  }
}
