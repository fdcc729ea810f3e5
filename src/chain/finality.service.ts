import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import {
  ConsensusCore,
  slotAt,
  type BlockHeader,
  type ConsensusAction,
  type Hash,
  type ProductionTurn,
  type SlotSchedule,
  type Vote,
} from '../consensus/consensus-core';
import { publicKeyHex04 } from '../crypto';
import { asBuffer, DatabaseService, type Sql } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { BlockEntity } from '../blocks/entities/block.entity';
import { BlockVoteEntity } from '../blocks/entities/block-vote.entity';
import { FinalBlockEntity } from '../blocks/entities/final-block.entity';
import { ConfirmationEntity } from '../tx/entities/confirmation.entity';
import { PrometheusMetrics } from '../prometheus/prometheus-metrics';
import { ChainEvents } from './chain-events';
import { ChainLock } from './chain-lock';
import { asciiBytes } from './codec';
import { activeHonorNodes, agreedSlotMs, bareKey, SLOT_PARAMETERS, slotLengthMs } from './honor-nodes';
import { NodeCrypto } from './node-crypto.service';
import { NodeIdentity } from './node-identity.service';
import { parseHonorNodes, PlatformParametersService } from './platform-parameters.service';

/** A node this many blocks behind the best chain it knows makes no block: it catches up first. */
const BEHIND_LIMIT = 3;
/** Votes kept below the final block: what a peer that lagged may still ask for. */
const VOTES_KEPT_BELOW_FINAL = 1000n;
/** Checked votes remembered, so that the same vote served again is not checked again. */
const SEEN_VOTES_KEPT = 20_000;
/** Votes one answer carries. */
export const MAX_VOTES_PER_ANSWER = 2000;

/** A vote as nodes send it: signed by its voter's node key. */
export interface SignedVote {
  block_id: string;
  /** Hex. */
  hash: string;
  /** The voter's node key, 128 hex digits (04 prefix optional). */
  public_key: string;
  /** Hex, 64 bytes r‖s over {@link voteText}. */
  signature: string;
}

/** What a vote signs: the network, the height and the block, so that a vote cannot be replayed elsewhere. */
export function voteText(networkId: bigint | number, blockId: string, hash: string): Uint8Array {
  return asciiBytes(`IBAX block vote\n${networkId}\n${blockId}\n${hash.toLowerCase()}`);
}

/**
 * A core's action that needs peers, with its peers named by public key (hex): a ban names the voter or,
 * for a follower that sent a bad block, the sender.
 */
export type NetworkAction =
  | Extract<ConsensusAction, { kind: 'switch' | 'fetch' }>
  | { kind: 'ban'; key: string; voter: boolean; reason: string };

/**
 * What the network service carries out for the core, what needs peers: this node's new votes (signed and
 * recorded already) to send, and the other actions (switch, fetch, ban).
 */
export type FinalityActionSink = (ownVotes: SignedVote[], actions: NetworkAction[]) => void;

const BLOCKS = new EntityTable(BlockEntity);
const VOTES = new EntityTable(BlockVoteEntity);
const FINAL = new EntityTable(FinalBlockEntity);
const CHAIN_ENTRY = BLOCKS.select('id', 'hash', 'time', 'nodePosition');
type ChainRow = RowOf<typeof CHAIN_ENTRY>;
const FINAL_RECORD = FINAL.select('blockId', 'hash');
const BLOCK_ONE = `FROM ${BLOCKS.name} WHERE ${BLOCKS.column('id')} = 1`;
const SIGNED_VOTE = VOTES.select('blockId', 'voter', 'hash', 'signature');
const VOTE = VOTES.select('blockId', 'voter', 'hash');
const CONFIRMATIONS = new EntityTable(ConfirmationEntity);
const FINAL_ID = FINAL.column('blockId');
const VOTE_HEIGHT = VOTES.column('blockId');
const RECORD_FINAL_AT = recordFinalStatement(false);
const RECORD_FINAL_IF_HELD = `${recordFinalStatement(true)} RETURNING ${FINAL_ID}`;
const FINAL_RECORDS_ABOVE = `DELETE FROM ${FINAL.name} WHERE ${FINAL_ID} > $1`;
const FINAL_RECORDS_BELOW = `DELETE FROM ${FINAL.name} WHERE ${FINAL_ID} < $1`;
const FINAL_HASH_CORRECTED = `UPDATE ${FINAL.name} SET ${FINAL.assignments({ hash: '$2' })} WHERE ${FINAL_ID} = $1`;
const VOTES_ABOVE = `DELETE FROM ${VOTES.name} WHERE ${VOTE_HEIGHT} > $1`;
const VOTES_BELOW = `DELETE FROM ${VOTES.name} WHERE ${VOTE_HEIGHT} < $1`;
const STORE_VOTES = `INSERT INTO ${VOTES.name} (${VOTES.columnList('blockId', 'voter', 'hash', 'signature')})
  SELECT * FROM unnest($1::bigint[], $2::bytea[], $3::bytea[], $4::bytea[])
  ON CONFLICT (${VOTES.columnList('blockId', 'voter')}) DO NOTHING`;
const COUNT_CONFIRMATIONS = countConfirmationsStatement();

/** Names the chain's block $1 in the final block's record (unless one names it); `whileHash`: if its hash is $2. */
function recordFinalStatement(whileHash: boolean): string {
  const hashCheck = whileHash ? ` AND ${BLOCKS.column('hash')} = $2` : '';
  return `INSERT INTO ${FINAL.name} (${FINAL.columnList('blockId', 'hash')})
  SELECT ${BLOCKS.columnList('id', 'hash')} FROM ${BLOCKS.name} WHERE ${BLOCKS.column('id')} = $1${hashCheck}
  ON CONFLICT (${FINAL_ID}) DO NOTHING`;
}

/** txinfo's confirmations of the blocks $1 counted from their votes, stamped $2. */
function countConfirmationsStatement(): string {
  const [good, bad, time] = (['good', 'bad', 'time'] as const).map((name) => CONFIRMATIONS.column(name));
  const [voteHash, blockHash] = [VOTES.column('hash', 'v'), BLOCKS.column('hash', 'b')];
  const [blockId, voteHeight] = [BLOCKS.column('id', 'b'), VOTES.column('blockId', 'v')];
  return `INSERT INTO ${CONFIRMATIONS.name} (${CONFIRMATIONS.columnList('blockId', 'good', 'bad', 'time')})
  SELECT ${blockId}, count(*) FILTER (WHERE ${voteHash} = ${blockHash}), count(*) FILTER (WHERE ${voteHash} <> ${blockHash}), $2
    FROM ${VOTES.name} AS "v" JOIN ${BLOCKS.name} AS "b" ON ${blockId} = ${voteHeight}
   WHERE ${voteHeight} = ANY($1::bigint[]) GROUP BY ${blockId}
  ON CONFLICT (${CONFIRMATIONS.column('blockId')})
  DO UPDATE SET ${good} = EXCLUDED.${good}, ${bad} = EXCLUDED.${bad}, ${time} = EXCLUDED.${time}`;
}

/**
 * The running node's side of the consensus core (src/consensus): it keeps the core in step with the chain
 * in the database (every block made or taken here is voted for, where the voting rule allows), signs and
 * records this node's votes before they leave, checks and records the votes of others, records the highest
 * final block this node holds, and hands what needs the network (sending votes, switching chains, banning)
 * to the network service. The producer asks it whether to make a block; rollbacks ask it how far back they
 * may go. The voters are the active honor nodes, in their order; a follower counts votes and casts none.
 */
@Injectable()
export class Finality implements OnApplicationBootstrap {
  private readonly logger = new Logger('Finality');
  private core?: ConsensusCore;
  /** The voters' keys (bare hex) by position: the order the core numbers them in. */
  private voterKeys: string[] = [];
  private membership = '';
  private queue: Promise<unknown> = Promise.resolve();
  private sink?: FinalityActionSink;
  private turnListener?: () => void;
  private persistedFinal = 0n;
  /** Votes whose signature was checked here already (height, voter, hash). */
  private readonly seenVotes = new Set<string>();
  /** The slot clock the core counts slots with (set before the core is built from the chain). */
  private schedule?: SlotSchedule;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: DatabaseService,
    private readonly crypto: NodeCrypto,
    private readonly identity: NodeIdentity,
    private readonly parameters: PlatformParametersService,
    private readonly events: ChainEvents,
    private readonly lock: ChainLock,
    private readonly metrics: PrometheusMetrics,
  ) {}

  /** Whether this process takes part in consensus (it makes or takes blocks). */
  get enabled(): boolean {
    return this.config.blockProducer && this.config.nodeMode !== 'clb';
  }

  private started = false;

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.events.subscribe((change) => {
      if (this.started && change.kind !== 'unknown') void this.serially(() => this.follow());
    });
  }

  /**
   * Called by the producer once this process holds the chain's producer lock: of the processes sharing a
   * database, only that one votes and follows the network (the others read the record it keeps).
   */
  start(): Promise<void> {
    if (this.started || !this.enabled) return Promise.resolve();
    this.started = true;
    return this.serially(() => this.follow());
  }

  /**
   * `listener` is called when a block applied here opened this node's turn to make one (the previous
   * slot's block came while its leader waited for it): the producer looks at once instead of at its next
   * look.
   */
  onTurn(listener: () => void): void {
    this.turnListener = listener;
  }

  /** The network service takes the actions that need peers. */
  onActions(sink: FinalityActionSink): void {
    this.sink = sink;
  }

  /** The highest final block in this node's database (block 1 before any vote). */
  async finalized(sql: Sql = this.db): Promise<{ id: bigint; hash: Buffer }> {
    const row = await sql.one<RowOf<typeof FINAL_RECORD>>(
      `SELECT ${FINAL_RECORD} FROM ${FINAL.name} ORDER BY ${FINAL.column('blockId')} DESC LIMIT 1`,
    );
    if (row) return { id: BigInt(row.blockId), hash: asBuffer(row.hash) };
    const first = await sql.one<Pick<BlockEntity, 'hash'>>(`SELECT ${BLOCKS.select('hash')} ${BLOCK_ONE}`);
    return { id: first ? 1n : 0n, hash: first ? asBuffer(first.hash) : Buffer.alloc(0) };
  }

  /** The lowest height a fork switch may take this node's chain back to. */
  get rollbackFloor(): number {
    return this.core?.rollbackFloor ?? 1;
  }

  /** The height of the highest final block this node knows of (held here or not yet). */
  get finalHeight(): number {
    return this.core?.final.height ?? 1;
  }

  /** Whether the core knows the block `hash` (on this node's chain or another it heard of). */
  knows(hash: string): boolean {
    return this.core?.header(hash.toLowerCase()) !== undefined;
  }

  /** Whether this node's chain holds block `hash` at `id` (as far as the core has seen). */
  holds(id: string, hash: string): boolean {
    return this.core?.chainAt(Number(id)) === hash.toLowerCase();
  }

  /** The node key (bare hex) of voter `position`. */
  voterKey(position: number): string | undefined {
    return this.voterKeys[position];
  }

  /** The voter position of a node key (bare or 04-prefixed hex), or -1. */
  voterOf(publicKeyHex: string): number {
    return this.voterKeys.indexOf(bareKey(publicKeyHex));
  }

  /**
   * Whether this node makes a block now, as the core decides (its slot and build share, its chain being
   * the one the fork choice picks, not being behind a chain it knows of), and until when it may build.
   * Nothing before the core is built from the chain.
   */
  turn(nowMs = Date.now()): ProductionTurn | undefined {
    return this.core?.mayProduce(nowMs);
  }

  /**
   * When the producer looks again after a look that made no block: within its own build share soon (a
   * block may be allowed once the chain catches up, or transactions come), else at its next slot; a
   * follower and a node whose core is not built yet in a slot's time.
   */
  nextLookAt(nowMs = Date.now()): number {
    const core = this.core;
    const slotMs = this.schedule?.slotMs ?? 1_000;
    if (!core || core.options.self < 0) return nowMs + slotMs;
    return core.nextLookAt(nowMs, Math.max(50, slotMs / 4));
  }

  /** Whether a block this node stamps with `timeSeconds` lies in its own slot, as its peers will check. */
  stampsOwnSlot(timeSeconds: bigint): boolean {
    return this.core?.stampsOwnSlot(Number(timeSeconds) * 1000) ?? false;
  }

  /**
   * This node's position among the voters (the producer's in the blocks it makes), -1 when it is not one,
   * unknown before the core is built from the chain.
   */
  get position(): number | undefined {
    return this.core?.options.self;
  }

  /** The block the fork choice picks now, when it is not this node's tip. */
  pendingSwitch(): NetworkAction[] {
    const actions = this.core ? this.core.learned([], -1) : [];
    return actions.filter(
      (action): action is Extract<ConsensusAction, { kind: 'switch' }> => action.kind === 'switch',
    );
  }

  // ------------------------------------------------------------------------------ what peers tell

  /** Votes a peer sent or served: each checked against its voter's key, recorded, and counted. */
  receive(votes: readonly SignedVote[], sourceKey: string): Promise<number> {
    return this.serially(async () => {
      if (!this.started) return 0;
      // Peers serve the same votes again each round: a vote is checked once, and a batch of votes seen
      // already costs no look at the chain.
      const seenKey = (vote: SignedVote) =>
        `${vote.block_id}:${bareKey(vote.public_key)}:${vote.hash.toLowerCase()}`;
      const fresh = votes.filter((vote) => !this.seenVotes.has(seenKey(vote)));
      if (fresh.length === 0) return 0;
      await this.follow();
      const core = this.core;
      if (!core) return 0;
      const taken: Vote[] = [];
      const rows: { voter: Buffer; hash: Buffer; signature: Buffer; id: string }[] = [];
      for (const signed of fresh) {
        const voter = this.voterOf(signed.public_key);
        const height = Number(signed.block_id);
        if (voter === core.options.self) {
          // Its own votes come back from every peer: recorded here before they left.
          this.seenVotes.add(seenKey(signed));
          continue;
        }
        if (voter < 0 || !Number.isSafeInteger(height) || height < 1) continue;
        try {
          this.crypto.signer.verify(
            Buffer.from(bareKey(signed.public_key), 'hex'),
            voteText(this.config.networkId, signed.block_id, signed.hash),
            Buffer.from(signed.signature, 'hex'),
          );
        } catch {
          continue;
        }
        if (this.seenVotes.size >= SEEN_VOTES_KEPT) this.seenVotes.clear();
        this.seenVotes.add(seenKey(signed));
        // Votes at or below the final block still count as confirmations; the core needs only those above.
        if (height > core.final.height) taken.push({ voter, height, hash: signed.hash.toLowerCase() });
        rows.push({
          id: signed.block_id,
          voter: Buffer.from(bareKey(signed.public_key), 'hex'),
          hash: Buffer.from(signed.hash, 'hex'),
          signature: Buffer.from(signed.signature, 'hex'),
        });
      }
      if (rows.length === 0) return 0;
      await this.storeVotes(rows);
      if (taken.length > 0) await this.carryOut(core.received(taken, this.voterOf(sourceKey)));
      return rows.length;
    });
  }

  /**
   * A peer's chain above this node's highest final block, as `hashes` entries (id, hash, time, position),
   * lowest first and starting with a block this node holds.
   */
  learnChain(
    entries: readonly { id: string; hash: string; time: string; position: string }[],
    sourceKey: string,
  ) {
    return this.serially(async () => {
      if (!this.started) return;
      await this.follow();
      const core = this.core;
      if (!core || entries.length < 2) return;
      const headers: BlockHeader[] = [];
      for (let index = 1; index < entries.length; index++) {
        headers.push(this.headerOf(entries[index], entries[index - 1].hash));
      }
      await this.carryOut(core.learned(headers, this.voterOf(sourceKey)));
    });
  }

  /** No peer held a block the core asked for: it is asked for again when something names it again. */
  fetchFailed(hash: string): Promise<void> {
    return this.serially(async () => this.core?.fetchFailed(hash.toLowerCase()));
  }

  /** A block the fork choice wanted could not be had, or was bad: the core stops waiting for it. */
  unavailable(hash: string): Promise<void> {
    return this.serially(async () => {
      if (this.core) await this.carryOut(this.core.unavailable(hash.toLowerCase()));
    });
  }

  /**
   * A peer sent a bad block (`block`: its hash and producer's position, when its producer's signature held
   * and the verdict is final): the core decides whom to ban, and never takes that block again.
   */
  refused(refusal: {
    sourceKey: string;
    reason: string;
    block?: { hash: string; producer: number };
  }): Promise<void> {
    return this.serially(async () => {
      if (!this.core) return;
      const { block } = refusal;
      await this.carryOut(
        this.core.refused({
          source: this.voterOf(refusal.sourceKey),
          reason: refusal.reason,
          block: block && { hash: block.hash.toLowerCase(), producer: block.producer },
        }),
        refusal.sourceKey,
      );
    });
  }

  /** The signed votes recorded here at heights from `from` on, for a peer that missed them. */
  async votesFrom(from: bigint): Promise<SignedVote[]> {
    const rows = await this.db.query<RowOf<typeof SIGNED_VOTE>>(
      `SELECT ${SIGNED_VOTE} FROM ${VOTES.name} WHERE ${VOTES.column('blockId')} >= $1
        ORDER BY ${VOTES.qualified('blockId')}, ${VOTES.column('voter')} LIMIT ${MAX_VOTES_PER_ANSWER}`,
      [from.toString()],
    );
    return rows.map((row) => ({
      block_id: row.blockId,
      hash: asBuffer(row.hash).toString('hex'),
      public_key: asBuffer(row.voter).toString('hex'),
      signature: asBuffer(row.signature).toString('hex'),
    }));
  }

  /**
   * After an operator's rollback across the final block: the record follows the chain, and the votes above
   * it go (the operator overrides them), so the core starts again from the chain as it is.
   */
  async forgetAbove(height: bigint, sql: Sql): Promise<void> {
    await sql.query(FINAL_RECORDS_ABOVE, [height.toString()]);
    await sql.query(VOTES_ABOVE, [height.toString()]);
    await sql.query(RECORD_FINAL_AT, [height.toString()]);
    this.core = undefined;
    this.persistedFinal = height;
  }

  // ------------------------------------------------------------------------------ the core in step

  /** One change of the core at a time: events, votes and chains come in from several places at once. */
  private serially<T>(step: () => Promise<T>): Promise<T> {
    const result = this.queue.then(step, step);
    this.queue = result.catch((error: Error) => this.logger.warn(`finality: ${error.message}`));
    return result;
  }

  /** Brings the core to the chain in the database: blocks taken back, blocks added, voter changes. */
  private async follow(): Promise<void> {
    const { membership } = await this.readMembership();
    if (!this.core || membership !== this.membership) {
      await this.rebuild();
      return;
    }
    const core = this.core;
    const rows = await this.chainRows(BigInt(core.rollbackFloor));
    if (rows.length === 0) return;
    let diverged = rows.findIndex(
      (row) => core.chainAt(Number(row.id)) !== asBuffer(row.hash).toString('hex'),
    );
    if (diverged < 0) {
      // The database may be shorter than the core (blocks taken back).
      if (core.tip.height > Number(rows[rows.length - 1].id))
        core.rolledBack(Number(rows[rows.length - 1].id));
      return;
    }
    if (diverged === 0) {
      // Even the final block differs: the record was changed under the core (an operator's forced rollback).
      await this.rebuild();
      return;
    }
    const firstNew = Number(rows[diverged].id);
    if (core.tip.height >= firstNew) core.rolledBack(firstNew - 1);
    const actions: ConsensusAction[] = [];
    const taken = rows.slice(diverged).map((row) => row.id);
    for (; diverged < rows.length; diverged++) {
      actions.push(
        ...core.applied(
          this.headerOf(rowEntry(rows[diverged]), asBuffer(rows[diverged - 1].hash).toString('hex')),
        ),
      );
    }
    await this.carryOut(actions);
    await this.countConfirmations(taken);
    if (this.turnListener && core.mayProduce(Date.now())) this.turnListener();
  }

  private async rebuild(): Promise<void> {
    const ownKey = bareKey(publicKeyHex04(this.identity.keys.node.publicKey));
    const { keys, slotMs, membership } = await this.readMembership();
    this.voterKeys = keys;
    this.membership = membership;
    const first = await this.db.one<Pick<BlockEntity, 'time'>>(
      `SELECT ${BLOCKS.select('time')} ${BLOCK_ONE}`,
    );
    if (!first) return;
    const voters = Math.max(1, this.voterKeys.length);
    this.schedule = { startMs: Number(first.time) * 1000, slotMs };
    const final = await this.finalized();
    this.persistedFinal = final.id;
    const rows = await this.chainRows(final.id);
    if (rows.length === 0 || BigInt(rows[0].id) !== final.id) {
      throw new Error(`the final block ${final.id} is not in the chain`);
    }
    if (asBuffer(rows[0].hash).toString('hex') !== final.hash.toString('hex')) {
      // Only a change made by hand can get here (every rollback checks the record): the chain is the truth.
      this.logger.error(
        `the record names final block ${final.id} with another hash than the chain's: it follows the chain (record ${final.hash.toString('hex')}, chain ${asBuffer(rows[0].hash).toString('hex')} at ${rows[0].id})`,
      );
      await this.db.query(FINAL_HASH_CORRECTED, [final.id.toString(), asBuffer(rows[0].hash)]);
    }
    const headers: BlockHeader[] = [];
    for (let index = 0; index < rows.length; index++) {
      headers.push(
        this.headerOf(
          rowEntry(rows[index]),
          index === 0 ? '' : asBuffer(rows[index - 1].hash).toString('hex'),
        ),
      );
    }
    const recorded = await this.db.query<RowOf<typeof VOTE>>(
      `SELECT ${VOTE} FROM ${VOTES.name} WHERE ${VOTES.column('blockId')} > $1`,
      [final.id.toString()],
    );
    const votes: Vote[] = [];
    for (const row of recorded) {
      const voter = this.voterKeys.indexOf(asBuffer(row.voter).toString('hex'));
      if (voter >= 0)
        votes.push({ voter, height: Number(row.blockId), hash: asBuffer(row.hash).toString('hex') });
    }
    this.core = new ConsensusCore(
      {
        self: this.voterKeys.indexOf(ownKey),
        voters,
        schedule: this.schedule,
        buildShare: this.config.blockBuildShare,
        behindLimit: BEHIND_LIMIT,
      },
      headers[0],
      headers.slice(1),
      votes,
    );
    this.metrics.finalized(Number(final.id));
    // Blocks applied while the node was down or before the voters changed are voted for now.
    await this.carryOut(this.core.received([], -1));
  }

  /**
   * The voters' keys (bare hex) in position order, from `honor_nodes` as the chain holds it now: the active
   * nodes, or this node alone when the list is empty (formats.md §5.1).
   */
  private voterKeysOf(honorNodes: string): string[] {
    const listed = parseHonorNodes(honorNodes);
    if (listed.length === 0) return [bareKey(publicKeyHex04(this.identity.keys.node.publicKey))];
    return activeHonorNodes(listed, BigInt(Math.floor(Date.now() / 1000))).map((node) =>
      bareKey(node.public_key),
    );
  }

  /**
   * The voters and the slot length as the chain sets them now; `membership` names both, so that the core
   * is built again when either changes (a contract may change the slot's parameters).
   */
  private async readMembership(): Promise<{ keys: string[]; slotMs: number; membership: string }> {
    const values = await this.parameters.values([...SLOT_PARAMETERS, 'honor_nodes']);
    const keys = this.voterKeysOf(values.get('honor_nodes') ?? '');
    const slotMs = agreedSlotMs(slotLengthMs(values, this.config.blockSlotMs), Math.max(1, keys.length));
    return { keys, slotMs, membership: `${slotMs}:${keys.join(',')}` };
  }

  private chainRows(from: bigint): Promise<ChainRow[]> {
    return this.db.query<ChainRow>(
      `SELECT ${CHAIN_ENTRY} FROM ${BLOCKS.name} WHERE ${BLOCKS.column('id')} >= $1 ORDER BY ${BLOCKS.qualified('id')}`,
      [from.toString()],
    );
  }

  private headerOf(
    entry: { id: string; hash: string; time: string; position: string },
    parent: Hash,
  ): BlockHeader {
    const schedule = this.schedule;
    return {
      height: Number(entry.id),
      hash: entry.hash.toLowerCase(),
      parent: parent.toLowerCase(),
      slot: schedule ? slotAt(schedule, Number(entry.time) * 1000) : 0,
      producer: Number(entry.position),
    };
  }

  /**
   * Votes are signed and recorded before anyone hears of them; final blocks recorded; the rest goes to the
   * network, its peers named by key (`senderKey`: who sent what the actions answer, for a ban of a sender
   * that is no voter).
   */
  private async carryOut(actions: ConsensusAction[], senderKey?: string): Promise<void> {
    const forNetwork: NetworkAction[] = [];
    const own: { id: string; voter: Buffer; hash: Buffer; signature: Buffer }[] = [];
    for (const action of actions) {
      if (action.kind === 'vote') {
        const { height, hash } = action.vote;
        const id = String(height);
        own.push({
          id,
          voter: Buffer.from(this.identity.keys.node.publicKey),
          hash: Buffer.from(hash, 'hex'),
          signature: Buffer.from(
            this.crypto.signer.sign(
              this.identity.keys.node.privateKey,
              voteText(this.config.networkId, id, hash),
            ),
          ),
        });
      } else if (action.kind === 'ban') {
        const key = action.peer === 'sender' ? senderKey : this.voterKey(action.peer);
        if (key)
          forNetwork.push({ kind: 'ban', key, voter: action.peer !== 'sender', reason: action.reason });
      } else if (action.kind !== 'final') {
        forNetwork.push(action);
      }
    }
    if (own.length > 0) await this.storeVotes(own);
    await this.recordFinal();
    if (own.length > 0 || forNetwork.length > 0) {
      const signed = own.map((vote) => ({
        block_id: vote.id,
        hash: vote.hash.toString('hex'),
        public_key: vote.voter.toString('hex'),
        signature: vote.signature.toString('hex'),
      }));
      this.sink?.(signed, forNetwork);
    }
  }

  private async storeVotes(rows: readonly { id: string; voter: Buffer; hash: Buffer; signature: Buffer }[]) {
    await this.db.query(STORE_VOTES, [
      rows.map((row) => row.id),
      rows.map((row) => row.voter),
      rows.map((row) => row.hash),
      rows.map((row) => row.signature),
    ]);
    await this.countConfirmations([...new Set(rows.map((row) => row.id))]);
  }

  /**
   * txinfo's `confirm`: the votes for the block this node holds at each height (`good`) and for other
   * blocks there (`bad`). Counted when votes come and when a block is taken (votes may come before it).
   */
  private async countConfirmations(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(COUNT_CONFIRMATIONS, [ids, Math.floor(Date.now() / 1000)]);
  }

  /** The highest final block this node holds, recorded once it moves up. */
  private async recordFinal(): Promise<void> {
    const core = this.core;
    if (!core) return;
    const floor = BigInt(core.rollbackFloor);
    if (floor <= this.persistedFinal) return;
    const hash = core.chainAt(core.rollbackFloor)!;
    // Under the chain lock, and only if the database still holds that block: a fork switch may have changed
    // the chain since the core last looked, and the record must never name a block the chain lacks.
    const recorded = await this.lock.run(async () => {
      const rows = await this.db.query(RECORD_FINAL_IF_HELD, [floor.toString(), Buffer.from(hash, 'hex')]);
      if (rows.length === 0) return false;
      await this.db.query(FINAL_RECORDS_BELOW, [floor.toString()]);
      return true;
    });
    this.logger.debug(`final block ${floor} ${hash} recorded: ${recorded}`);
    if (!recorded) {
      // The core is behind the chain: it starts again from the record at the next event.
      this.core = undefined;
      return;
    }
    if (floor > VOTES_KEPT_BELOW_FINAL) {
      await this.db.query(VOTES_BELOW, [(floor - VOTES_KEPT_BELOW_FINAL).toString()]);
    }
    this.persistedFinal = floor;
    this.metrics.finalized(Number(floor));
  }
}

function rowEntry(row: ChainRow) {
  return {
    id: row.id,
    hash: asBuffer(row.hash).toString('hex'),
    time: row.time,
    position: row.nodePosition,
  };
}
