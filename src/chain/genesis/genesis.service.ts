import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config';
import { publicKeyHex04, utf8 } from '../../crypto';
import { DatabaseService, type Sql } from '../../database/database.service';
import { buildBlock, buildFirstBlockTransaction } from '../codec';
import { NodeCrypto } from '../node-crypto.service';
import { NodeIdentity } from '../node-identity.service';
import { parseHonorNodes } from '../platform-parameters.service';
import type { NodeKeys } from '../node-keys';
import type { SeedRow } from '../seed/ecosystem-seed';
import { SYSTEM_CONTRACTS } from './system-contracts';
import { FOUNDER_INITIAL_UTXO, firstEcosystemRows } from './first-ecosystem';
import { idAllocator, insertRows } from '../seed/row-writer';

export const BLOCK_VERSION = 3;
/** spent_info type of the founder's genesis output (formats.md §6.1). */
const UTXO_FIRST_BLOCK = 1;

export interface GenesisBlock {
  hash: Buffer;
  rollbacksHash: Buffer;
  data: Buffer;
  time: bigint;
  txHash: Buffer;
}

/**
 * Writes the genesis state and block 1 on a node's first start (the whole of it in one database
 * transaction), and on later starts checks that this node's key is the one the chain was made with.
 */
@Injectable()
export class GenesisService implements OnModuleInit {
  private readonly logger = new Logger('Genesis');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DatabaseService,
    private readonly crypto: NodeCrypto,
    private readonly identity: NodeIdentity,
  ) {}

  private ready?: Promise<void>;

  onModuleInit(): Promise<void> {
    return this.ensure();
  }

  /** Resolves once the chain has its genesis (written now if the database is empty). */
  ensure(): Promise<void> {
    this.ready ??= this.prepare();
    return this.ready;
  }

  private async prepare(): Promise<void> {
    const tip = await this.db.one<{ block_id: string }>('SELECT "block_id" FROM "info_block" LIMIT 1');
    if (tip) {
      await this.checkNodeKey();
      return;
    }
    const block = await this.db.transaction((sql) => this.writeGenesis(sql, Date.now()));
    this.logger.log(`wrote genesis block 1 ${block.hash.toString('hex')}`);
  }

  /** Writes the genesis state and block (composed by `composeGenesis`) with `sql`. */
  async writeGenesis(sql: Sql, timeMs: number): Promise<GenesisBlock> {
    const genesis = composeGenesis({
      keys: this.identity.keys,
      crypto: this.crypto,
      config: this.config,
      timeMs,
    });
    const { block, founderKeyId, founderUtxo } = genesis;
    await insertRows(sql, genesis.rows);
    await sql.query(
      `INSERT INTO "spent_info" ("output_tx_hash", "output_index", "output_key_id", "output_value", "ecosystem", "block_id", "type")
       VALUES ($1, 0, $2, $3, 1, 1, $4)`,
      [block.txHash, founderKeyId.toString(), founderUtxo.toString(), UTXO_FIRST_BLOCK],
    );
    await sql.query(
      `INSERT INTO "block_chain" ("id", "hash", "rollbacks_hash", "data", "ecosystem_id", "key_id", "node_position", "time", "tx", "consensus_mode")
       VALUES (1, $1, $2, $3, 0, $4, 0, $5, 1, 1)`,
      [block.hash, block.rollbacksHash, block.data, founderKeyId.toString(), block.time.toString()],
    );
    await sql.query(
      `INSERT INTO "info_block" ("hash", "rollbacks_hash", "block_id", "node_position", "ecosystem_id", "key_id", "time", "current_version", "sent", "consensus_mode")
       VALUES ($1, $2, 1, 0, 0, $3, $4, $5, 0, 1)`,
      [
        block.hash,
        block.rollbacksHash,
        founderKeyId.toString(),
        block.time.toString(),
        String(BLOCK_VERSION),
      ],
    );
    await sql.query(
      `INSERT INTO "log_transactions" ("hash", "block", "timestamp", "contract_name", "address", "ecosystem_id", "status")
       VALUES ($1, 1, $2, '', $3, 1, 0)`,
      [block.txHash, String(timeMs), founderKeyId.toString()],
    );
    return block;
  }

  /** A chain made with another node key cannot be served by this one: its blocks would not verify. */
  private async checkNodeKey(): Promise<void> {
    const row = await this.db.one<{ value: string }>(
      `SELECT "value" FROM "1_platform_parameters" WHERE "name" = 'honor_nodes'`,
    );
    const ours = publicKeyHex04(this.identity.keys.node.publicKey);
    const listed = parseHonorNodes(row?.value ?? '').map((node) => node.public_key.toLowerCase());
    const bare = ours.slice(2);
    if (!listed.some((key) => key === ours || key === bare)) {
      throw new Error(
        `the node key in ${this.identity.keys.node.file} is not an honor node of the chain in this database ` +
          `(it lists ${listed.length ? listed.join(', ') : 'no keys'}); use the data directory the chain was made with`,
      );
    }
  }
}

export interface GenesisInput {
  keys: NodeKeys;
  crypto: NodeCrypto;
  config: Pick<AppConfig, 'networkId' | 'tcpAddress' | 'apiAddress' | 'chainTest'>;
  timeMs: number;
}

export interface Genesis {
  block: GenesisBlock;
  rows: SeedRow[];
  founderKeyId: bigint;
  founderUtxo: bigint;
}

/**
 * The genesis state and block 1, deterministic given the keys, the config and the time: the FirstBlock
 * transaction, its block (merkle root, hash and node signature by formats.md §3.2–§3.4) and the rows of
 * ecosystem 1.
 */
export function composeGenesis({ keys, crypto, config, timeMs }: GenesisInput): Genesis {
  const { node, founder } = keys;
  const hasher = crypto.hasher;
  const time = BigInt(Math.floor(timeMs / 1000));
  const firstTx = buildFirstBlockTransaction(
    {
      keyId: founder.keyId,
      time,
      publicKey: founder.publicKey,
      nodePublicKey: node.publicKey,
      stopNetworkCertBundle: new Uint8Array(),
      test: config.chainTest,
      privateBlockchain: true,
    },
    BigInt(timeMs),
    (data) => hasher.hash(data),
  );
  const initialHash = hasher.hash(utf8('0'));
  const built = buildBlock({
    header: {
      blockId: 1n,
      timestamp: time,
      ecosystemId: 0n,
      keyId: founder.keyId,
      nodePosition: 0n,
      version: BLOCK_VERSION,
      consensusMode: 1,
      candidateNodes: new Uint8Array(),
      networkId: config.networkId,
    },
    rollbacksHash: initialHash,
    prevHeader: { blockId: 0n, blockHash: hasher.doubleHash(utf8('0')), rollbacksHash: initialHash },
    txs: [firstTx.bytes],
    hash: (data) => hasher.hash(data),
    sign: (message) => crypto.signer.sign(node.privateKey, message),
  });
  const honorNodes = JSON.stringify([
    {
      tcp_address: config.tcpAddress,
      api_address: config.apiAddress,
      public_key: publicKeyHex04(node.publicKey),
      unban_time: '0',
      stopped: false,
    },
  ]);
  const rows = firstEcosystemRows({
    contracts: SYSTEM_CONTRACTS,
    ecosystemId: 1n,
    founderKeyId: founder.keyId,
    founderPublicKey: founder.publicKey,
    nodeKeyId: node.keyId,
    nodePublicKey: node.publicKey,
    address: (keyId) => crypto.address(keyId),
    nextId: idAllocator(),
    time: new Date(Number(time) * 1000),
    honorNodes,
    test: config.chainTest,
  });
  return {
    block: {
      hash: Buffer.from(built.blockHash),
      rollbacksHash: Buffer.from(initialHash),
      data: Buffer.from(built.bytes),
      time,
      txHash: Buffer.from(firstTx.txHash),
    },
    rows,
    founderKeyId: founder.keyId,
    founderUtxo: FOUNDER_INITIAL_UTXO,
  };
}
