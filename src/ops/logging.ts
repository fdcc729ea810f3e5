import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import pretty from 'pino-pretty';
import type { AppConfig } from '../config';

/**
 * The node's logger: JSON lines by default, readable lines (pino-pretty) for a person at a terminal or with
 * LOG_FORMAT=pretty. A test gives its own destination to read the JSON lines.
 */
export function createLogger(
  config: Pick<AppConfig, 'logLevel' | 'logFormat'>,
  destination?: pino.DestinationStream,
): pino.Logger {
  if (destination || config.logFormat === 'json') return pino({ level: config.logLevel }, destination);
  return pino(
    { level: config.logLevel },
    pretty({
      // Synchronous like pino's own stdout, so a line written just before an exit is not lost.
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,context',
      messageFormat: '{if context}[{context}] {end}{msg}',
    }),
  );
}

/** Nest's own start-up lines (modules wired, each route mapped, application started): one per route. */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Where Nest logs an error it also throws to the caller (building the app, listening): main.ts reports
 * those, naming the setting at fault in one line, so here they are only debug and not printed twice.
 */
const RETHROWN_ERROR_CONTEXTS = new Set(['ExceptionHandler', 'NestApplication']);

/** Nest's logger, writing to the node's: the framework's start-up chatter at debug, not info. */
export class NestLogger extends NestPinoLogger {
  constructor(logger: pino.Logger) {
    super(new PinoLogger({ pinoHttp: { logger } }), {});
  }

  override log(message: unknown, ...params: unknown[]): void {
    if (FRAMEWORK_CONTEXTS.has(params.at(-1) as string)) this.debug(message, ...params);
    else super.log(message, ...params);
  }

  override error(message: unknown, ...params: unknown[]): void {
    if (RETHROWN_ERROR_CONTEXTS.has(params.at(-1) as string)) this.debug(message, ...params);
    else super.error(message, ...params);
  }
}
