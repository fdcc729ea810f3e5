import { Controller, Get, Res } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { DatabaseService } from '../database/database.service';
import { EntityTable } from '../database/entity-table';
import { InfoBlockEntity } from '../blocks/entities/info-block.entity';
import { TransactionEntity } from '../tx/entities/transaction.entity';
import { afterAnswer } from '../http/after-answer';
import { PrometheusMetrics, UNMATCHED_ROUTE } from './prometheus-metrics';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

/** What pg's Pool and the embedded database's pool both tell about their connections. */
interface PoolCounts {
  totalCount?: number;
  idleCount?: number;
  waitingCount?: number;
}

/**
 * `GET /metrics`: the Prometheus text format (monitoring systems scrape it). Separate from the interface's
 * own `api/v2/metrics/*` JSON counters, which stay as the interface document describes them.
 */
@Controller()
export class PrometheusController {
  constructor(
    private readonly metrics: PrometheusMetrics,
    private readonly db: DatabaseService,
  ) {}

  @ApiRoute({
    summary: 'Prometheus metrics (text format): HTTP, JSON-RPC, chain, admission, database, process',
    description:
      'The `ibax_*` series of this process (HTTP requests by route pattern and status, JSON-RPC calls by ' +
      'method and outcome, chain height, block production, admitted, refused and waiting transactions, ' +
      'database pool and query times) and the Node.js process defaults. Chain height and waiting ' +
      'transactions are read from the database at scrape time (a failing read is 500 E_RECOVERED). Served ' +
      'in every node state, without a session; not the JSON counters of `/api/v2/metrics/*`.',
    answer: s.string('Prometheus text exposition format 0.0.4'),
    produces: 'text/plain',
  })
  @Get('metrics')
  async scrape(@Res() res: Response): Promise<void> {
    await this.readChainState();
    const text = await this.metrics.registry.metrics();
    res.status(200).setHeader('Content-Type', this.metrics.registry.contentType);
    res.end(text);
  }

  /** The gauges that live in the database are read at scrape time, so they are true on any process. */
  private async readChainState(): Promise<void> {
    const pool = (this.db.dataSource.driver as unknown as { master?: PoolCounts }).master;
    this.metrics.dbPool.set({ state: 'total' }, pool?.totalCount ?? 0);
    this.metrics.dbPool.set({ state: 'idle' }, pool?.idleCount ?? 0);
    this.metrics.dbPool.set({ state: 'waiting' }, pool?.waitingCount ?? 0);
    const row = await this.db.one<{ height: string | null; waiting: string }>(HEIGHT_AND_WAITING);
    this.metrics.chainHeight.set(Number(row?.height ?? 0));
    this.metrics.txWaiting.set(Number(row?.waiting ?? 0));
  }
}

/** The catch-all route Nest mounts on Express 5 for its 404 answer. */
const NOT_FOUND_ROUTE = '/{*path}';

const INFO_BLOCK = new EntityTable(InfoBlockEntity);
const QUEUE = new EntityTable(TransactionEntity);
/** The chain's height as the info block has it, and the transactions waiting in the queue. */
const HEIGHT_AND_WAITING = `SELECT
    (SELECT ${INFO_BLOCK.column('blockId')} FROM ${INFO_BLOCK.name} LIMIT 1) AS "height",
    (SELECT count(*) FROM ${QUEUE.name} WHERE ${QUEUE.column('used')} = 0) AS "waiting"`;

/**
 * Counts every answered request by its route pattern (`/api/v2/block/:id`, never the raw path, so ids do
 * not make new series) and status. Mounted first, so the time covers the whole request path.
 */
export function httpMetrics(metrics: PrometheusMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    afterAnswer(res, () => {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      metrics.httpRequest(
        req.method,
        typeof route === 'string' && route !== NOT_FOUND_ROUTE ? route : UNMATCHED_ROUTE,
        res.statusCode,
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}
