import type { Server } from 'node:http';
import { type INestApplication, Logger } from '@nestjs/common';
import { BlockProducer } from '../producer/block-producer.service';
import { NodeStateService } from '../common/node-state.service';

export interface StopReport {
  /** The producer stopped between blocks (its block under way finished in time, or none was). */
  blockFinished: boolean;
  /** Every request under way was answered in time (otherwise their connections were cut). */
  requestsFinished: boolean;
}

/** Resolves true when `work` settles within `ms`, false when the time ran out first. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stops the node without losing work: it queues no more transactions (sendTx answers 503 E_STOPPING) and
 * reports not ready, the listening socket closes (idle keep-alive connections with it) while requests
 * under way are answered, the producer finishes the block it is making — both within `timeoutMs` — and
 * then the application closes, the database last.
 */
export async function stopGracefully(app: INestApplication, timeoutMs: number): Promise<StopReport> {
  app.get(NodeStateService).draining = true;
  const server = app.getHttpServer() as Server;
  const listening = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const [blockFinished, requestsFinished] = await Promise.all([
    app.get(BlockProducer).stop(timeoutMs),
    within(listening, timeoutMs),
  ]);
  if (!requestsFinished) server.closeAllConnections();
  await app.close();
  return { blockFinished, requestsFinished };
}

/**
 * SIGTERM (what container runtimes send) and SIGINT stop the node gracefully and exit 0; a failure while
 * closing, or a stop that hangs well past its bounds, exits 1. A second signal while stopping is ignored.
 */
export function stopOnSignals(app: INestApplication, timeoutMs: number): void {
  const logger = new Logger('Shutdown');
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal}: already stopping`);
      return;
    }
    stopping = true;
    logger.log(
      `${signal}: stopping; no new transactions, requests and the block under way get ${timeoutMs} ms`,
    );
    setTimeout(
      () => {
        logger.error('the node did not stop in time');
        process.exit(1);
      },
      2 * timeoutMs + 5_000,
    ).unref();
    stopGracefully(app, timeoutMs).then(
      (report) => {
        logger.log(
          `stopped (block under way finished: ${report.blockFinished}, requests finished: ${report.requestsFinished})`,
        );
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(`the node did not stop cleanly: ${(error as Error)?.stack ?? String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
