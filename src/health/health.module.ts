import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';

/** Liveness and readiness probes (`/healthz`, `/readyz`). */
@Module({
  imports: [TerminusModule],
  controllers: [HealthController],
})
export class HealthModule {}
