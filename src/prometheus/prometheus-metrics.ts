import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DatabaseService } from '../database/database.service';
import { CounterSeries, HistogramSeries, RequestCounter, RequestHistogram } from './request-series';

/** Seconds: from a fast cached read to a request that hits the request deadline. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const QUERY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];
const BLOCK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16];

/** The label of a request no route matched (404s, answers of the middleware before routing). */
export const UNMATCHED_ROUTE = '<unmatched>';
/** The label of a JSON-RPC call that names no served method: unknown names must not grow the series. */
export const UNKNOWN_RPC_METHOD = '<unknown>';

/** Why a transaction was not queued; the admission checks each fall in one group. */
export type TxRefusalReason =
  'malformed' | 'size' | 'header' | 'time' | 'signature' | 'contract' | 'duplicate' | 'banned' | 'busy';

interface HttpSeries {
  count: CounterSeries;
  duration: HistogramSeries;
}

/**
 * The node's Prometheus metrics, one registry per application (tests boot several in one process).
 * The request path only bumps series it found once in a map keyed by its label values: no label objects
 * or label hashing per request (`request-series.ts`). Chain and pool gauges are read when scraped
 * (`PrometheusController`).
 */
@Injectable()
export class PrometheusMetrics {
  readonly registry = new Registry();

  private readonly httpRequests = new RequestCounter({
    name: 'ibax_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registry: this.registry,
  });
  private readonly httpDuration = new RequestHistogram({
    name: 'ibax_http_request_duration_seconds',
    help: 'Time from a request reaching the node to its answer being written, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registry: this.registry,
  });
  private readonly httpSeries = new Map<string, HttpSeries>();

  private readonly blocksReceived = new Counter({
    name: 'ibax_blocks_received_total',
    help: 'Blocks of other honor nodes checked, run and written here',
    registers: [this.registry],
  });
  private readonly badBlocks = new Counter({
    name: 'ibax_bad_blocks_total',
    help: 'Blocks of other honor nodes refused as bad (their producer is banned here for a while)',
    registers: [this.registry],
  });
  private readonly blockPropagation = new Histogram({
    name: 'ibax_block_propagation_seconds',
    help: "Time from a block's commit on its producer to its commit here",
    buckets: BLOCK_BUCKETS,
    registers: [this.registry],
  });
  private readonly blockReplay = new Histogram({
    name: 'ibax_block_replay_seconds',
    help: "Time to check and run another node's block here, from its bytes to its commit",
    buckets: BLOCK_BUCKETS,
    registers: [this.registry],
  });
  private readonly finalizedBlock = new Gauge({
    name: 'ibax_finalized_block_id',
    help: 'The highest final block this node holds: voted for by more than half of the honor nodes',
    registers: [this.registry],
  });
  private readonly reorgs = new Counter({
    name: 'ibax_reorgs_total',
    help: 'Times this node took back blocks of its chain to follow another branch',
    registers: [this.registry],
  });
  private readonly reorgDepth = new Histogram({
    name: 'ibax_reorg_depth_blocks',
    help: 'Blocks taken back by each switch to another branch',
    buckets: [1, 2, 3, 5, 10, 20, 60],
    registers: [this.registry],
  });
  private readonly peerCount = new Gauge({
    name: 'ibax_peers',
    help: 'Other honor nodes, by state: reachable (answered the last look), unreachable, banned (here, for bad blocks)',
    labelNames: ['state'],
    registers: [this.registry],
  });
  private readonly peerHeight = new Gauge({
    name: 'ibax_peer_block_height',
    help: 'The last block id each other honor node reported, by its position',
    labelNames: ['position'],
    registers: [this.registry],
  });

  private readonly rpcCalls = new RequestCounter({
    name: 'ibax_rpc_calls_total',
    help: 'JSON-RPC calls (each call of a batch counts), by method and outcome (ok, or the JSON-RPC error code)',
    labelNames: ['method', 'outcome'],
    registry: this.registry,
  });
  private readonly rpcDuration = new RequestHistogram({
    name: 'ibax_rpc_call_duration_seconds',
    help: 'Time a JSON-RPC call took inside the gateway, by method',
    labelNames: ['method'],
    buckets: LATENCY_BUCKETS,
    registry: this.registry,
  });
  private readonly rpcSeries = new Map<string, CounterSeries>();
  private readonly rpcDurationSeries = new Map<string, HistogramSeries>();

  readonly chainHeight = new Gauge({
    name: 'ibax_chain_height',
    help: 'Id of the last block of the chain in the database',
    registers: [this.registry],
  });
  private readonly blockProduction = new Histogram({
    name: 'ibax_block_production_seconds',
    help: 'Time to make one block: run its transactions and write it, in one database transaction',
    buckets: BLOCK_BUCKETS,
    registers: [this.registry],
  });
  private readonly blockTransactions = new Counter({
    name: 'ibax_block_transactions_total',
    help: 'Transactions taken from the queue by the block producer, by result (included in a block, failed)',
    labelNames: ['result'],
    registers: [this.registry],
  });
  private readonly includedTransactions = this.blockTransactions.labels('included');
  private readonly failedTransactions = this.blockTransactions.labels('failed');
  readonly txWaiting = new Gauge({
    name: 'ibax_tx_waiting',
    help: 'Transactions in the queue waiting for a block',
    registers: [this.registry],
  });
  private readonly txAdmittedCount = new Counter({
    name: 'ibax_tx_admitted_total',
    help: 'Transactions accepted by sendTx (and node-signed registrations) and queued',
    registers: [this.registry],
  });
  private readonly txRefusedCount = new Counter({
    name: 'ibax_tx_refused_total',
    help: 'Transactions refused at admission, by reason',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  private readonly notificationsPublished = new Counter({
    name: 'ibax_notifications_published_total',
    help: 'Notification counts published to Centrifugo (one per account channel)',
    registers: [this.registry],
  });
  private readonly notificationPublishFailures = new Counter({
    name: 'ibax_notification_publish_failures_total',
    help: 'Notification counts that could not be published to Centrifugo after every retry',
    registers: [this.registry],
  });

  readonly dbPool = new Gauge({
    name: 'ibax_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting = callers waiting for one)',
    labelNames: ['state'],
    registers: [this.registry],
  });
  private readonly dbQueryDuration = new Histogram({
    name: 'ibax_db_query_duration_seconds',
    help: 'Time of one SQL statement, from the node sending it to its rows arriving',
    buckets: QUERY_BUCKETS,
    registers: [this.registry],
  });

  constructor(db: DatabaseService) {
    collectDefaultMetrics({ register: this.registry });
    // Both series exist from the start at 0, so `rate()` and alerts see the first failure as an increase.
    this.includedTransactions.inc(0);
    this.failedTransactions.inc(0);
    this.notificationPublishFailures.inc(0);
    db.queryTimer = (seconds) => this.dbQueryDuration.observe(seconds);
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.httpSeries.get(key);
    if (!series) {
      const labels = [method, route, String(status)];
      series = { count: this.httpRequests.labels(...labels), duration: this.httpDuration.labels(...labels) };
      this.httpSeries.set(key, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
  }

  rpcCall(method: string, outcome: string, seconds: number): void {
    const key = `${method} ${outcome}`;
    let calls = this.rpcSeries.get(key);
    if (!calls) {
      calls = this.rpcCalls.labels(method, outcome);
      this.rpcSeries.set(key, calls);
    }
    calls.inc();
    let duration = this.rpcDurationSeries.get(method);
    if (!duration) {
      duration = this.rpcDuration.labels(method);
      this.rpcDurationSeries.set(method, duration);
    }
    duration.observe(seconds);
  }

  blockReceived(): void {
    this.blocksReceived.inc();
  }

  badBlockRefused(): void {
    this.badBlocks.inc();
  }

  blockPropagated(seconds: number): void {
    this.blockPropagation.observe(seconds);
  }

  finalized(blockId: number): void {
    this.finalizedBlock.set(blockId);
  }

  reorganized(depth: number): void {
    this.reorgs.inc();
    this.reorgDepth.observe(depth);
  }

  blockReplayed(seconds: number): void {
    this.blockReplay.observe(seconds);
  }

  /** The peers as the network service last saw them; positions are replaced as a whole. */
  peersSeen(
    peers: readonly { position: number | null; height?: bigint; reachable: boolean; banned: boolean }[],
  ): void {
    this.peerCount.reset();
    this.peerHeight.reset();
    for (const state of ['reachable', 'unreachable', 'banned'] as const) this.peerCount.set({ state }, 0);
    for (const peer of peers) {
      this.peerCount.inc({ state: peer.banned ? 'banned' : peer.reachable ? 'reachable' : 'unreachable' });
      // A peer not (yet) among the active honor nodes has no position to name it by.
      if (peer.height !== undefined && peer.position !== null) {
        this.peerHeight.set({ position: String(peer.position) }, Number(peer.height));
      }
    }
  }

  blockProduced(seconds: number): void {
    this.blockProduction.observe(seconds);
  }

  /**
   * Counts a batch the producer took from the queue once its database transaction committed, whether
   * or not it made a block: a batch where every transaction fails writes no block but empties the queue.
   */
  transactionsSettled(included: number, failed: number): void {
    this.includedTransactions.inc(included);
    this.failedTransactions.inc(failed);
  }

  txAdmitted(count: number): void {
    this.txAdmittedCount.inc(count);
  }

  txRefused(reason: TxRefusalReason, count = 1): void {
    this.txRefusedCount.inc({ reason }, count);
  }

  notificationsSent(published: number, failed: number): void {
    this.notificationsPublished.inc(published);
    this.notificationPublishFailures.inc(failed);
  }
}
