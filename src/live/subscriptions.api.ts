import { Injectable } from '@nestjs/common';
import { schema as s } from '../api-docs/schema';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { SubscribeParams, UnsubscribeParams } from './live.dto';
import { LiveSubscriptions } from './subscriptions.service';

/** `subscribe` / `unsubscribe` (also under `chain.`): over a WebSocket connection only. */
@Injectable()
export class SubscriptionsRpc {
  constructor(private readonly subscriptions: LiveSubscriptions) {}

  @RpcMethod('subscribe', {
    summary: 'Be told of new blocks, of transactions reaching a block, or of notification counts (WebSocket)',
    description:
      'Over a WebSocket connection (ws://<node>/ or /rpc) only. `["newBlocks"]`: each new block as ' +
      '`{block_id, hash, time, tx_count}`; `["txStatus", [hashes…]]`: one message per transaction when it ' +
      'reaches a block or fails, as txStatus answers it plus `hash`; `["notifications"]`: the caller\'s open ' +
      'notification counts whenever a block changes them (needs a session: the Authorization header of the ' +
      'connection, or a login over it). Answers the subscription id; pushes are ' +
      '`{"jsonrpc":"2.0","method":"ibax.subscription","params":{"subscription":<id>,"result":…}}`. At most ' +
      'WS_SUBSCRIPTIONS_LIMIT per connection.',
    result: s.string('the subscription id'),
  })
  subscribe({ kind, hashes }: SubscribeParams, context: RpcCallContext) {
    return this.subscriptions.subscribe(
      context.connection,
      context.namespace ?? 'ibax',
      context.caller,
      kind,
      hashes,
    );
  }

  @RpcMethod('unsubscribe', {
    summary: 'End a subscription of this connection',
    description: 'Answers true when the id named a subscription of this connection, false otherwise.',
    result: s.boolean(),
  })
  unsubscribe({ id }: UnsubscribeParams, context: RpcCallContext) {
    return this.subscriptions.unsubscribe(context.connection, id);
  }
}
