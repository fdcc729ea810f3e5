import { basename } from 'node:path';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { StartupFailure } from '../common/startup-failure';
import { APP_CONFIG, type AppConfig } from '../config';
import { publicKeyHex04, utf8 } from '../crypto';
import { DatabaseService, type Sql } from '../database/database.service';
import {
  buildBlock,
  buildFirstBlockTransaction,
  decodeFirstBlockTransaction,
  parseBlock,
} from '../chain/codec';
import { NodeCrypto } from '../chain/node-crypto.service';
import { NodeIdentity } from '../chain/node-identity.service';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import type { NodeKeys } from '../chain/node-keys';
import type { SeedRow } from '../chain/seed/ecosystem-seed';
import { SYSTEM_CONTRACTS } from './system-contracts';
import { FOUNDER_INITIAL_UTXO, firstEcosystemRows } from './first-ecosystem';
import { idAllocator, insertRows } from '../chain/seed/row-writer';

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
    private readonly parameters: PlatformParametersService,
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
    const peer = this.config.network.genesisPeer;
    const genesis = peer ? await this.genesisOf(peer) : this.ownGenesis(Date.now());
    const block = await this.db.transaction((sql) => this.write(sql, genesis));
    this.logger.log(`wrote genesis block 1 ${block.hash.toString('hex')}${peer ? ` of ${peer}` : ''}`);
  }

  /** Writes this node's own genesis state and block (composed by `composeGenesis`) with `sql`. */
  writeGenesis(sql: Sql, timeMs: number): Promise<GenesisBlock> {
    return this.write(sql, this.ownGenesis(timeMs));
  }

  private ownGenesis(timeMs: number): Genesis {
    const { node } = this.identity.keys;
    return composeGenesis({
      keys: { node, founder: this.identity.founder },
      sign: (message) => this.crypto.signer.sign(node.privateKey, message),
      crypto: this.crypto,
      config: this.config,
      timeMs,
    });
  }

  /**
   * The genesis of the network's first node (GENESIS_PEER), asked for until it answers: its block 1 and
   * the addresses it listed itself with. The state is composed here from what the block's FirstBlock
   * transaction holds, and taken only if composing it gives the very bytes of the block received.
   */
  private async genesisOf(peer: string): Promise<Genesis> {
    const url = `${peer}/node/v1/genesis`;
    for (let attempt = 0; ; attempt++) {
      let answer: { block: string; api_address: string; tcp_address: string } | undefined;
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        if (response.ok) answer = (await response.json()) as typeof answer;
      } catch {
        // Not up yet: the nodes of a network start together.
      }
      if (answer) return this.adopt(peer, answer);
      if (attempt % 10 === 0) this.logger.log(`waiting for the genesis block of ${peer}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  private adopt(peer: string, answer: { block: string; api_address: string; tcp_address: string }): Genesis {
    const received = Buffer.from(answer.block, 'base64');
    const block = parseBlock(received);
    const first = decodeFirstBlockTransaction(block.txs[0] ?? new Uint8Array());
    const keyOf = (publicKey: Uint8Array) => ({ publicKey, keyId: this.crypto.keyId(publicKey) });
    const genesis = composeGenesis({
      keys: { node: keyOf(first.data.nodePublicKey), founder: keyOf(first.data.publicKey) },
      sign: () => block.header.sign,
      crypto: this.crypto,
      config: {
        networkId: block.header.networkId,
        tcpAddress: answer.tcp_address,
        apiAddress: answer.api_address,
        chainTest: first.data.test,
      },
      timeMs: Number(first.timestamp),
    });
    if (block.header.networkId !== this.config.networkId || !genesis.block.data.equals(received)) {
      throw new Error(
        `the genesis block of ${peer} is not one this node can take (network ${block.header.networkId}, ours ${this.config.networkId})`,
      );
    }
    return genesis;
  }

  private async write(sql: Sql, genesis: Genesis): Promise<GenesisBlock> {
    const { block, founderKeyId, founderUtxo } = genesis;
    const timeMs = genesis.timeMs;
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

  /**
   * A chain made with another node key cannot be served by this one: its blocks would not verify. A node
   * of a network (NETWORK_PEERS) may wait to be listed: the first node adds it.
   */
  private async checkNodeKey(): Promise<void> {
    if (this.config.network.peers.length > 0) return;
    const ours = publicKeyHex04(this.identity.keys.node.publicKey);
    const listed = (await this.parameters.honorNodes()).map((node) => node.public_key.toLowerCase());
    const bare = ours.slice(2);
    if (!listed.some((key) => key === ours || key === bare)) {
      // A setting at fault, like the others a start can fail on: one line naming it, no stack.
      throw new StartupFailure(
        `DATA_DIR=${JSON.stringify(this.config.dataDir)}: its node key (${basename(this.identity.keys.node.file)}) ` +
          `is not an honor node of the chain in the database (it lists ${listed.length ? listed.join(', ') : 'no keys'}); ` +
          'use the data directory the chain was made with',
      );
    }
  }
}

export interface GenesisInput {
  keys: { node: NodeKeyPart; founder: NodeKeyPart };
  /** Signs block 1 with the node key (the node that makes the genesis). */
  sign: (message: Uint8Array) => Uint8Array;
  crypto: NodeCrypto;
  config: Pick<AppConfig, 'networkId' | 'tcpAddress' | 'apiAddress' | 'chainTest'>;
  timeMs: number;
}

type NodeKeyPart = Pick<NodeKeys['node'], 'publicKey' | 'keyId'>;

export interface Genesis {
  block: GenesisBlock;
  timeMs: number;
  rows: SeedRow[];
  founderKeyId: bigint;
  founderUtxo: bigint;
}

/**
 * The genesis state and block 1, deterministic given the keys, the config and the time: the FirstBlock
 * transaction, its block (merkle root, hash and node signature by formats.md §3.2–§3.4) and the rows of
 * ecosystem 1.
 */
export function composeGenesis({ keys, sign, crypto, config, timeMs }: GenesisInput): Genesis {
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
    sign,
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
    timeMs,
    rows,
    founderKeyId: founder.keyId,
    founderUtxo: FOUNDER_INITIAL_UTXO,
  };
}
