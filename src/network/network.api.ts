import { Injectable } from '@nestjs/common';
import { schema as s } from '../api-docs/schema';
import { BlockProducer } from '../producer/block-producer.service';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { IsolatePeersParams } from './network.dto';
import { PEER } from './network.answers';
import { NetworkService } from './network.service';

@Injectable()
export class NetworkRpc {
  constructor(private readonly network: NetworkService) {}

  @RpcMethod('peers', {
    namespaces: ['net'],
    summary: 'The other honor nodes as this node sees them',
    description:
      'One entry per peer (configured in NETWORK_PEERS, or listed in the platform parameter `honor_nodes`): ' +
      '`position` among the active honor nodes (null when it is not one), its API address and node key, ' +
      'the last block id, highest final block id and last block time (Unix seconds) it reported, whether it answered the last look, and ' +
      'until when (Unix seconds; "0": not banned) this node refuses its blocks after a bad one. Empty for a ' +
      'node alone. No session needed.',
    result: s.array(PEER),
  })
  peers() {
    return this.network.views();
  }
}

/** Test-only switches (NETWORK_TEST_SWITCHES=true): registered only then, never on a real node. */
@Injectable()
export class NetworkTestRpc {
  constructor(
    private readonly network: NetworkService,
    private readonly producer: BlockProducer,
  ) {}

  @RpcMethod('isolatePeers', {
    namespaces: ['admin'],
    summary: 'Tests only: cut this node off from some peers, both ways',
    description:
      'No request goes to the peers at the given API addresses and none from them is taken, until the next ' +
      'call (an empty list heals). Answers the peers now cut off. Served only with NETWORK_TEST_SWITCHES=true.',
    result: s.array(s.string()),
  })
  isolatePeers({ peers }: IsolatePeersParams) {
    return this.network.isolate(peers);
  }

  @RpcMethod('produceBadBlock', {
    namespaces: ['admin'],
    summary: 'Tests only: the next block this node makes gets a wrong rollbacks hash',
    description:
      'As a faulty node would make it: signed and hashed right, but its state digest is not what running it ' +
      'gives, so the other nodes refuse it and ban this one for a while. Served only with NETWORK_TEST_SWITCHES=true.',
    result: s.boolean(),
  })
  produceBadBlock() {
    this.producer.spoilNextBlock();
    return true;
  }
}
