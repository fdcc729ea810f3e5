import { Controller, Get, Injectable, Param } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { RPC_NAMESPACES, type RpcNamespace } from '../config';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { RpcRegistry } from '../rpc/rpc-registry.service';
import { SystemService } from './system.service';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

const NETWORK = s.object({
  network_id: s.decimalString(),
  centrifugo_url: s.string(),
  test: s.boolean('a test chain'),
  private: s.boolean('a private chain'),
  honor_nodes: s.array(
    s.object(
      {
        tcp_address: s.string(),
        api_address: s.string(),
        public_key: s.hex(),
        unban_time: s.string(),
        stopped: s.boolean(),
      },
      { optional: ['unban_time', 'stopped'] },
    ),
    'the honor nodes (platform parameter honor_nodes)',
  ),
});

@Controller('api/v2')
export class SystemController {
  constructor(private readonly system: SystemService) {}

  @ApiRoute({
    summary: 'Node version, build and state',
    answer: s.string('e.g. "0.1.0 branch.commit node server status is running"'),
  })
  @Get('version')
  version() {
    return this.system.version();
  }

  @ApiRoute({ summary: 'Network id, notification service and honor nodes', answer: NETWORK })
  @Get('network')
  network() {
    return this.system.network();
  }

  @ApiRoute({
    summary: 'A node setting: only `centrifugo` (the notification service address)',
    path: { option: 'the setting: centrifugo' },
    answer: s.string('the address'),
    errors: ['E_NOTFOUND'],
  })
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

  @RpcMethod('getVersion', { summary: 'Node version, build and state', result: s.string() })
  getVersion() {
    return this.system.version();
  }

  @RpcMethod('getNetwork', {
    namespaces: ['chain', 'net'],
    summary: 'Network id, notification service and honor nodes',
    result: NETWORK,
  })
  getNetwork() {
    return this.system.network();
  }

  @RpcMethod('status', {
    namespaces: ['net'],
    summary: 'Whether the node runs, updates or is stopped',
    result: s.string(),
  })
  status() {
    return this.system.status();
  }

  @RpcMethod('getConfig', {
    summary: 'A node setting: only `centrifugo` (the default)',
    params: [{ name: 'option', type: 'string', optional: true, description: 'centrifugo' }],
    result: s.object({ centrifugo: s.string() }),
  })
  getConfig([option]: [string | undefined]) {
    if ((option ?? 'centrifugo') !== 'centrifugo') throw new ApiError('E_NOTFOUND');
    return { centrifugo: this.system.centrifugoUrl() };
  }

  @RpcMethod('modules', {
    namespaces: ['rpc'],
    summary: 'Names of the methods served now',
    result: s.array(s.string()),
  })
  modules() {
    return this.registry.modules();
  }

  @RpcMethod('startJsonRpc', {
    namespaces: ['admin'],
    summary: 'Serve JSON-RPC (again) with the namespaces given',
    params: [
      {
        name: 'methods',
        type: 'string',
        optional: true,
        description: 'comma-separated; default ibax,chain,net',
      },
    ],
    result: s.boolean(),
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

  @RpcMethod('stopJsonRpc', {
    namespaces: ['admin'],
    summary: 'Stop serving JSON-RPC (the answer to this call still goes out)',
    result: s.boolean(),
  })
  stopJsonRpc() {
    // The reply to this call still goes out; later requests to `/` find JSON-RPC switched off.
    this.registry.stop();
    return true;
  }
}
