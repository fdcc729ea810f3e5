import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { NotifyController, NotifyRpc } from './notify.api';
import { NotifyService } from './notify.service';
import { NotificationPublisher } from './notification-publisher.service';
import { ChainCoreModule } from '../chain/chain-core.module';
import { PrometheusModule } from '../prometheus/prometheus.module';
import { NOTIFY_ENTITIES } from './entities';

/**
 * Notifications: the notification service's address, login connection tokens, open notification counts,
 * and their publishing to Centrifugo after each block and on `updnotificator`.
 */
@Module({
  imports: [TypeOrmModule.forFeature(NOTIFY_ENTITIES), ChainCoreModule, PrometheusModule],
  controllers: [NotifyController],
  providers: [NotifyService, NotificationPublisher, NotifyRpc],
  exports: [NotifyService, NotificationPublisher],
})
export class NotifyModule {}
