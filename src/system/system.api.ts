import { Controller, Get, Injectable, Param } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { RPC_NAMESPACES, type RpcNamespace } from '../config';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { RpcRegistry } from '../rpc/rpc-registry.service';
import { SystemService } from './system.service';

@Controller('api/v2')
export class SystemController {
  constructor(private readonly system: SystemService) {}

  @Get('version')
  version() {
    return this.system.version();
  }

  @Get('network')
  network() {
    return this.system.network();
  }

  @Get('config/:option')
  config(@Param('option') option: string) {
    if (option !== 'centrifugo') throw new ApiError('E_NOTFOUND');
    return this.system.centrifugoUrl();
  }
}

@Injectable()
export class SystemRpc {
  constructor(
    private readonly system: SystemService,
    private readonly registry: RpcRegistry,
  ) {}

  @RpcMethod('getVersion')
  getVersion() {
    return this.system.version();
  }

  @RpcMethod('getNetwork', { namespaces: ['chain', 'net'] })
  getNetwork() {
    return this.system.network();
  }

  @RpcMethod('status', { namespaces: ['net'] })
  status() {
    return this.system.status();
  }

  @RpcMethod('getConfig', { params: [{ name: 'option', type: 'string', optional: true }] })
  getConfig([option]: [string | undefined]) {
    if ((option ?? 'centrifugo') !== 'centrifugo') throw new ApiError('E_NOTFOUND');
    return { centrifugo: this.system.centrifugoUrl() };
  }

  @RpcMethod('modules', { namespaces: ['rpc'] })
  modules() {
    return this.registry.modules();
  }

  @RpcMethod('startJsonRpc', {
    namespaces: ['admin'],
    params: [{ name: 'methods', type: 'string', optional: true }],
  })
  startJsonRpc([methods]: [string | undefined]) {
    const requested = (methods || 'ibax,chain,net')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const unknown = requested.filter((name) => !(RPC_NAMESPACES as readonly string[]).includes(name));
    if (unknown.length > 0) {
      throw RpcError.invalidParams(
        `unknown namespace ${unknown.join(', ')}; known: ${RPC_NAMESPACES.join(', ')}`,
      );
    }
    this.registry.start(requested as RpcNamespace[]);
    return true;
  }

  @RpcMethod('stopJsonRpc', { namespaces: ['admin'] })
  stopJsonRpc() {
    // The reply to this call still goes out; later requests to `/` find JSON-RPC switched off.
    this.registry.stop();
    return true;
  }
}
