import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { PrometheusModule } from '../prometheus/prometheus.module';
import { OpenRpcDiscovery } from './openrpc';
import { RpcGatewayController } from './rpc-gateway';
import { RpcRegistry } from './rpc-registry.service';
import { RpcDispatcher } from './rpc-dispatcher.service';

/**
 * JSON-RPC: the dispatcher any transport hands its messages to, the HTTP gateway (`/`, `/rpc`), the registry
 * that finds every `@RpcMethod` of every module's providers at start-up, and `rpc.discover`.
 */
@Module({
  imports: [DiscoveryModule, PrometheusModule],
  controllers: [RpcGatewayController],
  providers: [RpcRegistry, RpcDispatcher, OpenRpcDiscovery],
  exports: [RpcRegistry, RpcDispatcher],
})
export class RpcModule {}
