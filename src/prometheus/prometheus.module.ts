import { Module } from '@nestjs/common';
import { PrometheusController } from './prometheus.controller';
import { PrometheusMetrics } from './prometheus-metrics';

/** `GET /metrics`, and the registry whose series the gateway, admission and producer bump. */
@Module({
  controllers: [PrometheusController],
  providers: [PrometheusMetrics],
  exports: [PrometheusMetrics],
})
export class PrometheusModule {}
