import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { AppConfig } from '../config';
import { ApiExceptionFilter } from './api-exception.filter';
import { ClbRouteGuard } from './request-gates';
import { NodeStateService } from '../common/node-state.service';
import { TokenService } from '../common/token.service';

/**
 * What every domain's requests go through: the node's state, session tokens, the error envelope, and in CLB
 * mode the gate that hides blockchain routes.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        NodeStateService,
        TokenService,
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        // Only a CLB node hides routes; a guard on every request of a normal node would cost for nothing.
        ...(config.nodeMode === 'clb' ? [{ provide: APP_GUARD, useClass: ClbRouteGuard }] : []),
      ],
      exports: [NodeStateService, TokenService],
    };
  }
}
