import { Controller, Get, HttpCode, Injectable, Post, Req } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import type { ApiRequest } from '../http/api-request';
import { Form, FormValues } from '../http/form';
import { Auth, BlockchainRoute } from '../http/request-gates';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import {
  SendTxParams,
  TxInfoForm,
  TxInfoMultipleForm,
  TxInfoMultipleParams,
  TxInfoParams,
  TxRecordPath,
  TxStatusForm,
  TxStatusParams,
} from './tx.dto';
import { TX_DATA, TX_STATUS } from './tx.answers';
import { TxService, type IncomingTx, type SentTx, type TxInfo } from './tx.service';
import { ApiPostRoute, ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

/** Each operation's summary, said once for its REST route and its JSON-RPC method. */
const SUMMARY = {
  sendTx: 'Send signed transactions: they are checked and queued for a block',
  txStatus: 'What became of transactions: block, error or still waiting',
} as const;

/**
 * `{"hashes":{…}}` keyed by each hash (the reference, which the SDK reads) and also by each name the
 * transaction came under (the interface's "map tx1..txN", which older SDK helpers read).
 */
function hashesAnswer(sent: readonly SentTx[]) {
  const hashes: Record<string, string> = {};
  for (const tx of sent) hashes[tx.hash] = tx.hash;
  for (const tx of sent) if (tx.name && !(tx.name in hashes)) hashes[tx.name] = tx.hash;
  return { hashes };
}

function hexTransaction(name: string, text: string): IncomingTx {
  const trimmed = text.trim();
  if (!/^[0-9a-fA-F]*$/.test(trimmed) || trimmed.length % 2 !== 0) {
    return { name, bytes: new Uint8Array(), malformed: `transaction ${JSON.stringify(name)} is not hex` };
  }
  return { name, bytes: Buffer.from(trimmed, 'hex') };
}

/** REST txinfo: `blockid` as a string ("" when not in a block). */
function restTxInfo(info: TxInfo) {
  return {
    blockid: info.blockId > 0n ? info.blockId.toString() : '',
    confirm: info.confirm,
    data: info.data,
  };
}

/** JSON-RPC txInfo: `blockid` as a number, `data` null when not asked for or unknown. */
function rpcTxInfo(info: TxInfo) {
  return { blockid: info.blockId, confirm: info.confirm, data: info.data ?? null };
}

function commaHashes(text: string): string[] {
  return text.split(',').map((hash) => hash.trim());
}

const REST_TX_INFO = s.object(
  { blockid: s.string('block id, empty when not in a block'), confirm: s.integer(), data: TX_DATA },
  { optional: ['data'] },
);
const RPC_TX_INFO = s.object({
  blockid: s.integer('0 when not in a block'),
  confirm: s.integer(),
  data: s.nullable(TX_DATA),
});
const TX_STATUSES = s.map(TX_STATUS, 'by hash');

@Controller('api/v2')
export class TxController {
  constructor(private readonly txs: TxService) {}

  /** Every file part is a binary transaction; every form field and query value one in hex. */
  @ApiPostRoute({
    summary: SUMMARY.sendTx,
    description:
      'Each file part is one binary transaction, each form field or query value one in hex, under any name. ' +
      'All are checked (hash, signature, network, time, size, contract and parameters) before any is queued; ' +
      'one refusal refuses the request.',
    form: {
      tx1: { description: 'a transaction (hex, or binary as a file part); any field name', schema: s.hex() },
    },
    answer: s.object({ hashes: s.map(s.hex(), 'by hash (the reference) and by field name: the hash') }),
    errors: ['E_LIMITTXSIZE', 'E_BANNED', 'E_BUSY', 'E_SERVER', 'E_STOPPING'],
  })
  @Post('sendTx')
  @HttpCode(200)
  @Auth()
  async sendTx(@Req() req: ApiRequest) {
    const incoming: IncomingTx[] = [];
    for (const file of req.files ?? []) incoming.push({ name: file.field, bytes: file.data });
    for (const [name, value] of FormValues.of(req).entries()) incoming.push(hexTransaction(name, value));
    return hashesAnswer(await this.txs.send(req.caller, incoming));
  }

  @ApiPostRoute({
    summary: SUMMARY.txStatus,
    description:
      '`data` (its first value) is the JSON text `{"hashes": ["<hex>", …]}`; each hash answers under the ' +
      'text sent: `blockid` its block (empty while waiting, or after a refusal or rollback), `result` the ' +
      "contract's result, `errmsg` {type, error, id} when it was refused or failed (`penalty` 1 in a " +
      'block). `data` that is not that JSON, or a hash that is not hex, is 400 E_HASHWRONG, an unknown ' +
      'hash 400 E_HASHNOTFOUND; either fails the whole request. JSON-RPC: `ibax.txStatus` (hashes as one ' +
      'comma-separated string).',
    answer: s.object({ results: TX_STATUSES }),
    errors: ['E_HASHWRONG', 'E_HASHNOTFOUND'],
  })
  @Post('txstatus')
  @HttpCode(200)
  @Auth()
  async txStatus(@Form() { data }: TxStatusForm) {
    let hashes: unknown;
    try {
      hashes = (JSON.parse(data ?? '') as { hashes?: unknown }).hashes;
    } catch {
      throw new ApiError('E_HASHWRONG');
    }
    if (hashes === undefined || hashes === null) hashes = [];
    if (!Array.isArray(hashes) || hashes.some((hash) => typeof hash !== 'string')) {
      throw new ApiError('E_HASHWRONG');
    }
    return { results: await this.txs.status(hashes as string[]) };
  }

  @ApiRoute({
    summary: 'The block of a transaction and its confirmations; with contractinfo what it was',
    description:
      'Looks the hex hash up among mined transactions: `blockid` is its block as decimal text and ' +
      "`confirm` the block's good confirmations; a hash not mined is no error (`blockid` empty, `confirm` " +
      '0). With `contractinfo` true, `data` describes it from the stored block: sender address, contract ' +
      'and params, `created_at` (ms), size, `status` 0 done / 1 penalty. A hash that is not hex is 400 ' +
      'E_HASHWRONG, a missing block row 400 E_SERVER "not found"; not served on a CLB node. JSON-RPC: ' +
      '`ibax.txInfo` (`blockid` a number).',
    answer: REST_TX_INFO,
    errors: ['E_HASHWRONG', 'E_SERVER'],
  })
  @Get('txinfo/:hash')
  @BlockchainRoute()
  async txInfo(@Form() { hash, contractinfo }: TxInfoForm) {
    return restTxInfo(await this.txs.info(hash, contractinfo ?? false));
  }

  @ApiRoute({
    summary: 'txinfo of several transactions',
    description:
      '`data` is a comma-separated list of hex hashes (not JSON); each hash, trimmed, maps to its txinfo ' +
      'answer. One hash that is not hex, or an empty or absent `data`, is 400 E_HASHWRONG for the whole ' +
      'request. Served at txinfoMultiple and txinfomultiple; not on a CLB node. JSON-RPC: ' +
      '`ibax.txInfoMultiple` (hashes as an array).',
    answer: s.object({ results: s.map(REST_TX_INFO, 'by hash') }),
    errors: ['E_HASHWRONG', 'E_SERVER'],
  })
  @Get(['txinfoMultiple', 'txinfomultiple'])
  @BlockchainRoute()
  async txInfoMultiple(@Form() { data, contractinfo }: TxInfoMultipleForm) {
    const results: Record<string, ReturnType<typeof restTxInfo>> = {};
    for (const hash of commaHashes(data ?? '')) {
      results[hash] = restTxInfo(await this.txs.info(hash, contractinfo ?? false));
    }
    return { results };
  }

  @ApiRoute({
    summary: 'Per transaction, the rows it wrote as they are now',
    description:
      'For each hash of the comma-separated list, the rows its transaction wrote (found by the rollback ' +
      'journal, `1_keys` and schema changes left out), read as they are now; a row deleted since is ' +
      'skipped. Every value is text: NULL is "", bytes are their raw bytes as Latin-1 text (as the ' +
      'reference), dates ISO 8601, JSON its text. A hash that is not hex or wrote nothing gives null. Not ' +
      'served on a CLB node (404).',
    answer: s.array(s.nullable(s.array(s.map(s.string(), 'a row, every value as text')))),
  })
  @Get('tx_record/:hashes')
  @BlockchainRoute()
  txRecord(@Form() { hashes }: TxRecordPath) {
    return this.txs.records(commaHashes(hashes));
  }
}

/** A JSON-RPC transaction: standard base64 (the reference), or hex (decisions.md). */
function rpcTransaction(name: string, value: unknown): IncomingTx {
  if (typeof value !== 'string')
    throw ApiError.server(`transaction ${JSON.stringify(name)} must be a string`);
  const text = value.trim();
  if (/^(0x)?[0-9a-fA-F]+$/.test(text) && text.replace(/^0x/, '').length % 2 === 0) {
    return { name, bytes: Buffer.from(text.replace(/^0x/, ''), 'hex') };
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    return {
      name,
      bytes: new Uint8Array(),
      malformed: `transaction ${JSON.stringify(name)} is neither base64 nor hex`,
    };
  }
  return { name, bytes: Buffer.from(text, 'base64') };
}

@Injectable()
export class TxRpc {
  constructor(private readonly txs: TxService) {}

  @RpcMethod('sendTx', {
    auth: true,
    summary: SUMMARY.sendTx,
    description:
      '`txs` maps any names to transactions, each standard base64 (the reference) or hex, the bytes REST ' +
      'sendTx takes; an even number of hex digits (0x allowed) is read as hex. All are checked before any ' +
      'is queued, and one refusal fails the call with its reason. The answer is keyed by hash only; `{}` ' +
      'answers `{"hashes": {}}`.',
    result: s.object({ hashes: s.map(s.hex(), 'by hash') }),
    errors: ['E_BANNED', 'E_LIMITTXSIZE', 'E_BUSY', 'E_SERVER', 'E_STOPPING'],
  })
  async sendTx({ txs }: SendTxParams, { caller }: RpcCallContext) {
    const incoming = Object.entries(txs).map(([name, value]) => rpcTransaction(name, value));
    if (incoming.length === 0) return { hashes: {} };
    const sent = await this.txs.send(caller, incoming);
    const hashes: Record<string, string> = {};
    for (const tx of sent) hashes[tx.hash] = tx.hash;
    return { hashes };
  }

  @RpcMethod('txStatus', {
    auth: true,
    summary: SUMMARY.txStatus,
    description:
      '`hashes` is one comma-separated string of hex hashes (not an array); each answers under the text ' +
      'given, as REST txstatus. One malformed or unknown hash fails the whole call.',
    result: TX_STATUSES,
    errors: ['E_HASHWRONG', 'E_HASHNOTFOUND'],
  })
  txStatus({ hashes }: TxStatusParams) {
    return this.txs.status(commaHashes(hashes));
  }

  @RpcMethod('txInfo', {
    summary: 'The block of a transaction and its confirmations; with contractInfo what it was',
    description:
      '`hash` is hex. A hash not mined is no error: `blockid` 0, `confirm` 0, `data` null; `data` is ' +
      'filled only with `contractInfo` true.',
    result: RPC_TX_INFO,
    errors: ['E_HASHWRONG', 'E_SERVER'],
  })
  async txInfo({ hash, contractInfo }: TxInfoParams) {
    return rpcTxInfo(await this.txs.info(hash, contractInfo ?? false));
  }

  @RpcMethod('txInfoMultiple', {
    summary: 'txInfo of several transactions',
    description:
      '`hashes` is an array of hex hashes (unlike txStatus); the first malformed one fails the call.',
    result: s.object({ results: s.map(RPC_TX_INFO, 'by hash') }),
    errors: ['E_HASHWRONG', 'E_SERVER'],
  })
  async txInfoMultiple({ hashes, contractInfo }: TxInfoMultipleParams) {
    const results: Record<string, ReturnType<typeof rpcTxInfo>> = {};
    for (const hash of hashes) results[hash] = rpcTxInfo(await this.txs.info(hash, contractInfo ?? false));
    return { results };
  }
}
