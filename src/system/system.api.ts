import { Controller, Get, Injectable } from '@nestjs/common';
import { RPC_NAMESPACES, type RpcNamespace } from '../config';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { RpcRegistry } from '../rpc/rpc-registry.service';
import { StartJsonRpcParams } from './system.dto';
import { SystemService } from './system.service';
import { NETWORK } from './system.answers';
import { ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

/** Each operation's summary, said once for its REST route and its JSON-RPC method. */
const SUMMARY = {
  getNetwork: 'Network id, notification service and honor nodes',
  getVersion: 'Node version, build and state',
} as const;

@Controller('api/v2')
export class SystemController {
  constructor(private readonly system: SystemService) {}

  @ApiRoute({
    summary: SUMMARY.getVersion,
    description:
      'A JSON string "<version> branch.<branch> commit.<commit> time.<build time> <state>", the state one of ' +
      '"node server status is running", "node server is updating", "node server is stopped". Served in every ' +
      'node state (never 503) and without a session. JSON-RPC: `ibax.getVersion`.',
    answer: s.string(
      'e.g. "0.1.0 branch.main commit.464065a1 time.unknown node server status is running" (branch, ' +
        'commit and time "unknown" when the build does not say)',
    ),
  })
  @Get('version')
  version() {
    return this.system.version();
  }

  @ApiRoute({
    summary: SUMMARY.getNetwork,
    description:
      '`network_id` comes from the node configuration, `centrifugo_url` is the notification service address ' +
      '("" when none), `test` and `private` are the platform parameters `test` and `private_blockchain` ' +
      '(true when `true` or `1`), `honor_nodes` the entries of the `honor_nodes` parameter (`[]` when it is ' +
      'absent or unreadable). No session needed. JSON-RPC: `ibax.getNetwork` / `net.getNetwork`.',
    answer: NETWORK,
  })
  @Get('network')
  network() {
    return this.system.network();
  }
}

@Injectable()
export class SystemRpc {
  constructor(
    private readonly system: SystemService,
    private readonly registry: RpcRegistry,
  ) {}

  @RpcMethod('getVersion', { summary: SUMMARY.getVersion, result: s.string() })
  getVersion() {
    return this.system.version();
  }

  @RpcMethod('getNetwork', {
    namespaces: ['chain', 'net'],
    summary: SUMMARY.getNetwork,
    result: NETWORK,
  })
  getNetwork() {
    return this.system.network();
  }

  @RpcMethod('status', {
    namespaces: ['net'],
    summary: 'Whether the node runs, updates or is stopped',
    description:
      'The state text `getVersion` ends with. JSON-RPC refuses every call while the node updates its chain or ' +
      'is stopped, so over JSON-RPC this answers "node server status is running".',
    result: s.string(),
  })
  status() {
    return this.system.status();
  }

  @RpcMethod('modules', {
    namespaces: ['rpc'],
    summary: 'Names of the methods served now',
    description:
      '`namespace.method` names sorted as text: the chain methods once per enabled chain namespace (`ibax.`, ' +
      '`chain.`), the enabled net, admin and debug ones, and `rpc.*`, which is always served.',
    result: s.array(s.string()),
  })
  modules() {
    return this.registry.modules();
  }

  @RpcMethod('startJsonRpc', {
    namespaces: ['admin'],
    summary: 'Serve JSON-RPC (again) with the namespaces given',
    description:
      '`methods`: the namespaces to serve from now on, comma-separated (ibax, chain, net, admin, debug), ' +
      'replacing the current set; `rpc` is always kept. Absent or empty means ibax,chain,net, which drops ' +
      '`admin`. An unknown namespace is invalid params.',
    result: s.boolean(),
  })
  startJsonRpc({ methods }: StartJsonRpcParams) {
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
