import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { NodeCrypto } from '../chain/node-crypto.service';
import { NodeIdentity } from '../chain/node-identity.service';
import { Finality } from '../chain/finality.service';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { BlockProducer } from '../producer/block-producer.service';
import { ApiError } from '../common/api-error';
import { dtoFailures, type DtoClass } from '../common/dto/dto-fields';
import type { ApiRequest } from '../http/api-request';
import { Form } from '../http/form';
import { sendJson } from '../http/responses';
import { APP_CONFIG, type AppConfig } from '../config';
import { publicKeyHex04 } from '../crypto';
import { asBuffer, DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { BlockEntity } from '../blocks/entities/block.entity';
import {
  BlockAnnouncementBody,
  BlockRangeQuery,
  MAX_BLOCKS_PER_REQUEST,
  MAX_HASHES_PER_REQUEST,
  PassedTransactionsBody,
  VotesBody,
  VotesQuery,
} from './network.dto';
import { NetworkService } from './network.service';
import { verifyRequest } from './node-auth';
import type { ChainEntry, PeerStatus } from './peer-client';

/** A batch of blocks stops growing past this many bytes (one block alone may be larger). */
const BLOCK_BATCH_BYTES = 16 * 1024 * 1024;

const BLOCKS = new EntityTable(BlockEntity);
const BLOCK_BYTES = `SELECT ${BLOCKS.select('data')} FROM ${BLOCKS.name} WHERE ${BLOCKS.column('id')} = $1`;
const CHAIN_ENTRY = BLOCKS.select('id', 'hash', 'time', 'nodePosition');
/** The chain's entries from $1 up to (not including) $2. */
const CHAIN_ENTRIES = `SELECT ${CHAIN_ENTRY} FROM ${BLOCKS.name}
  WHERE ${BLOCKS.column('id')} >= $1 AND ${BLOCKS.column('id')} < $2 ORDER BY ${BLOCKS.column('id')}`;

/**
 * The node-to-node routes (`/node/v1/…`), served to the other honor nodes and left out of the public API
 * documents. Every one but `genesis` needs a request signed by a node key this node takes (an honor
 * node's, or a configured peer's); the others answer 401 in the API's error envelope.
 */
@ApiExcludeController()
@Controller('node/v1')
export class NodeController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DatabaseService,
    private readonly crypto: NodeCrypto,
    private readonly identity: NodeIdentity,
    private readonly producer: BlockProducer,
    private readonly network: NetworkService,
    private readonly finality: Finality,
    private readonly parameters: PlatformParametersService,
  ) {}

  /** Block 1 and the addresses its node listed itself with: what a new node of the network starts from. */
  @Get('genesis')
  async genesis(@Res() res: Response) {
    const row = await this.db.one<Pick<BlockEntity, 'data'>>(BLOCK_BYTES, [1]);
    if (!row) throw new ApiError('E_NOTFOUND');
    // The addresses as genesis wrote them: the first entry, whatever was appended since.
    const [first] = await this.parameters.honorNodes();
    sendJson(res, 200, {
      block: asBuffer(row.data).toString('base64'),
      api_address: first?.api_address || this.config.apiAddress,
      tcp_address: first?.tcp_address || this.config.tcpAddress,
    });
  }

  @Get('status')
  async status(@Req() req: ApiRequest, @Res() res: Response) {
    await this.authenticate(req, 'any node');
    const tip = await this.producer.tip(this.db, false);
    const answer: PeerStatus = {
      block_id: tip.id.toString(),
      hash: tip.hash.toString('hex'),
      time: tip.time.toString(),
      public_key: publicKeyHex04(this.identity.keys.node.publicKey),
      api_address: this.config.apiAddress,
      tcp_address: this.config.tcpAddress,
      final_block_id: (await this.finality.finalized()).id.toString(),
    };
    sendJson(res, 200, answer);
  }

  @Get('hashes')
  async hashes(@Req() req: ApiRequest, @Res() res: Response, @Form() range: BlockRangeQuery) {
    await this.authenticate(req, 'any node');
    const count = range.count > BigInt(MAX_HASHES_PER_REQUEST) ? BigInt(MAX_HASHES_PER_REQUEST) : range.count;
    const rows = await this.db.query<RowOf<typeof CHAIN_ENTRY>>(CHAIN_ENTRIES, [
      range.from.toString(),
      (range.from + count).toString(),
    ]);
    const hashes: ChainEntry[] = rows.map((row) => ({
      id: row.id,
      hash: asBuffer(row.hash).toString('hex'),
      time: row.time,
      position: row.nodePosition,
    }));
    sendJson(res, 200, { hashes });
  }

  @Get('blocks')
  async blocks(@Req() req: ApiRequest, @Res() res: Response, @Form() range: BlockRangeQuery) {
    await this.authenticate(req, 'any node');
    const count = range.count > BigInt(MAX_BLOCKS_PER_REQUEST) ? BigInt(MAX_BLOCKS_PER_REQUEST) : range.count;
    const blocks: string[] = [];
    let bytes = 0;
    // One block at a time: a batch stops at its byte bound without reading the rest.
    for (
      let id = range.from;
      id < range.from + count && (blocks.length === 0 || bytes < BLOCK_BATCH_BYTES);
      id++
    ) {
      const row = await this.db.one<Pick<BlockEntity, 'data'>>(BLOCK_BYTES, [id.toString()]);
      if (!row) break;
      const data = asBuffer(row.data);
      bytes += data.length;
      blocks.push(data.toString('base64'));
    }
    sendJson(res, 200, { blocks });
  }

  @Post('announce')
  async announce(@Req() req: ApiRequest, @Res() res: Response) {
    const key = await this.authenticate(req, 'honor node');
    const body = readJson(req, BlockAnnouncementBody);
    // Taken after the answer: the producer does not wait for its peers to run its block.
    sendJson(res, 202, {});
    void this.network.announced(key, body).catch(() => undefined);
  }

  /** The honor nodes' signed votes recorded here from a height on (a peer that missed some asks). */
  @Get('votes')
  async votes(@Req() req: ApiRequest, @Res() res: Response, @Form() query: VotesQuery) {
    await this.authenticate(req, 'any node');
    sendJson(res, 200, { votes: await this.finality.votesFrom(query.from) });
  }

  /** An honor node's new votes. */
  @Post('votes')
  async receiveVotes(@Req() req: ApiRequest, @Res() res: Response) {
    const key = await this.authenticate(req, 'honor node');
    const body = readJson(req, VotesBody);
    sendJson(res, 202, {});
    void this.finality.receive(body.votes, key).catch(() => undefined);
  }

  @Post('txs')
  async txs(@Req() req: ApiRequest, @Res() res: Response) {
    await this.authenticate(req, 'any node');
    const body = readJson(req, PassedTransactionsBody);
    const queued = await this.network.received(body.txs.map((tx) => Buffer.from(tx, 'base64')));
    sendJson(res, 200, { queued });
  }

  /** The sender's key (bare hex) when the request is signed by a node this one takes; 401 otherwise. */
  private async authenticate(req: ApiRequest, from: 'any node' | 'honor node'): Promise<string> {
    const verdict = verifyRequest(
      this.crypto.signer,
      this.crypto.hasher,
      req.headers,
      req.method,
      req.originalUrl,
      req.rawBody ?? Buffer.alloc(0),
    );
    if ('refused' in verdict) throw ApiError.server(verdict.refused, 401);
    if (!(await this.network.accepts(verdict.key, from))) {
      throw ApiError.server('the node key is not one of this network’s nodes, or is banned here', 401);
    }
    return verdict.key;
  }
}

/** A JSON body read into its DTO: 400 in the API's envelope when it is not JSON or not that shape. */
function readJson<T extends object>(req: ApiRequest, dto: DtoClass<T>): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse((req.rawBody ?? Buffer.alloc(0)).toString('utf8'));
  } catch {
    throw ApiError.server('the body is not JSON', 400);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw ApiError.server('the body is not a JSON object', 400);
  }
  const instance = Object.assign(new dto(), parsed);
  const [failure] = dtoFailures(dto, instance);
  if (failure) throw ApiError.server(failure.message, 400);
  return instance;
}
