import { Controller, Get, Res } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { Response } from 'express';
import { sendJson } from '../http/responses';
import { NodeStateService } from '../common/node-state.service';
import { DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { InfoBlockEntity } from '../blocks/entities/info-block.entity';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

/** Probes for orchestrators: `/healthz` = the process serves; `/readyz` = database reachable, genesis present. */
const INFO_BLOCK = new EntityTable(InfoBlockEntity);
const INFO_HEIGHT = INFO_BLOCK.select('blockId');

@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: DatabaseService,
    private readonly nodeState: NodeStateService,
  ) {}

  @ApiRoute({
    summary: 'Liveness: the process serves',
    description:
      'Answers 200 `{"status":"ok"}` whenever the process answers HTTP, without touching the database; served ' +
      'in every node state (never 503) and without a session. For liveness probes; readiness is `/readyz`.',
    answer: s.object({ status: s.string('ok') }),
  })
  @Get('healthz')
  alive() {
    return { status: 'ok' };
  }

  @ApiRoute({
    summary: 'Readiness: database reachable, genesis present, not stopping (503 otherwise)',
    description:
      'Checks `node` (not draining after a stop signal), `database` (answers `SELECT 1`) and `genesis` ' +
      '(`info_block` has a block; its height in the details). All up: 200 with the Terminus report ' +
      '`{status:"ok", info, error, details}`; otherwise 503 with the same shape, `status` "error" and the ' +
      'failing checks under `error`. Served in every node state, without a session.',
    answer: s.object({
      status: s.string(),
      info: s.map(s.any()),
      error: s.map(s.any()),
      details: s.map(s.any()),
    }),
  })
  @Get('readyz')
  async ready(@Res() res: Response): Promise<void> {
    try {
      const result = await this.health.check([
        () => this.serving(),
        () => this.database(),
        () => this.genesis(),
      ]);
      sendJson(res, 200, result);
    } catch (error) {
      const body = (error as { getResponse?: () => unknown }).getResponse?.() ?? { status: 'error' };
      sendJson(res, 503, body);
    }
  }

  /** A node that is stopping finishes its work but takes no new traffic. */
  private serving() {
    const indicator = this.indicators.check('node');
    return this.nodeState.draining ? indicator.down({ message: 'stopping' }) : indicator.up();
  }

  private async database() {
    const indicator = this.indicators.check('database');
    try {
      await this.db.query('SELECT 1');
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }

  private async genesis() {
    const indicator = this.indicators.check('genesis');
    try {
      const row = await this.db.one<RowOf<typeof INFO_HEIGHT>>(
        `SELECT ${INFO_HEIGHT} FROM ${INFO_BLOCK.name} LIMIT 1`,
      );
      return row ? indicator.up({ height: row.blockId }) : indicator.down({ message: 'no genesis block' });
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }
}
