import { Controller, Get, HttpCode, Injectable, Post } from '@nestjs/common';
import { ApiPostRoute, ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';
import { ApiError } from '../common/api-error';
import { Form } from '../http/form';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { ConfigOptionParams, ConfigOptionPath, UpdNotificatorForm } from './notify.dto';
import { NotificationPublisher } from './notification-publisher.service';
import { keyIdToAddress } from '../crypto';
import { walletKeyId } from '../http/path-params';
import { NotifyService } from './notify.service';

/** The only node setting a client may ask for: where the notification service is. */
const CENTRIFUGO = 'centrifugo';

@Controller('api/v2')
export class NotifyController {
  constructor(
    private readonly notify: NotifyService,
    private readonly publisher: NotificationPublisher,
  ) {}

  @ApiRoute({
    summary: 'A node setting: only `centrifugo` (the notification service address)',
    description:
      'Answers the notification service address (CENTRIFUGO_URL) as a JSON string, `http:` written `ws:` and ' +
      '`https:` `wss:`. With the server API configured (CENTRIFUGO_API_URL) Centrifugo is asked first, and ' +
      'when it does not answer that is 400 E_SERVER with the reason; a node with no address configured answers ' +
      '400 E_SERVER too. Any other option is 404 E_NOTFOUND. JSON-RPC: `ibax.getConfig`.',
    answer: s.string('the address'),
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  @Get('config/:option')
  async config(@Form() { option }: ConfigOptionPath) {
    if (option !== CENTRIFUGO) throw new ApiError('E_NOTFOUND');
    return this.notify.centrifugoUrl();
  }

  @ApiPostRoute({
    summary: 'Publish the open notification counts of some accounts again',
    description:
      "Sends each account's open notification counts in the ecosystem (its own and each of its roles', " +
      '`[{"ecosystem":"1","role_id":"0","count":3},…]`) to its Centrifugo channel `client<account>` now, as ' +
      'the node does after each block that changes them. `id` is a JSON list of account addresses or one ' +
      'address; a bad one is 400 E_INVALIDWALLET. A node without CENTRIFUGO_API_URL answers 400 E_SERVER, ' +
      'and so does one whose Centrifugo does not answer. Answers `{"result": true}`.',
    answer: s.object({ result: s.boolean('true: the counts were published') }),
    errors: ['E_INVALIDWALLET', 'E_SERVER'],
  })
  @Post('updnotificator')
  @HttpCode(200)
  async updNotificator(@Form() { id, ecosystem }: UpdNotificatorForm) {
    const accounts = accountList(id).map((text) => keyIdToAddress(walletKeyId(text)));
    await this.publisher.publishNow(ecosystem ?? 1n, accounts);
    return { result: true };
  }
}

/** `id` as the form sends it: a JSON list of addresses, or one address. */
function accountList(id: string): string[] {
  const text = id.trim();
  if (!text.startsWith('[')) return [text];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError('E_INVALIDWALLET', text);
  }
  if (!Array.isArray(parsed)) throw new ApiError('E_INVALIDWALLET', text);
  return parsed.map((item) => String(item));
}

@Injectable()
export class NotifyRpc {
  constructor(private readonly notify: NotifyService) {}

  @RpcMethod('getConfig', {
    summary: 'A node setting: only `centrifugo` (the default)',
    description:
      'The configured notification service address, unchanged. Any other option ("" included) is NotFound; a ' +
      'node with no address configured answers a server error.',
    result: s.object({ centrifugo: s.string() }),
    errors: ['E_NOTFOUND', 'E_SERVER'],
  })
  async getConfig({ option }: ConfigOptionParams) {
    if ((option ?? CENTRIFUGO) !== CENTRIFUGO) throw new ApiError('E_NOTFOUND');
    return { centrifugo: await this.notify.centrifugoUrl() };
  }
}
