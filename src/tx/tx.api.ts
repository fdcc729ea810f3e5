import { Controller, Get, HttpCode, Injectable, Param, Post, Req } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues, parseForm } from '../common/http/form';
import { Auth, BlockchainRoute } from '../common/http/request-gates';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { TxService, type IncomingTx, type SentTx, type TxInfo } from './tx.service';
import { ApiPostRoute, ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

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

const TX_DATA = s.object({
  block_id: s.integer(),
  block_hash: s.hex(),
  address: s.string(),
  ecosystem: s.integer(),
  hash: s.hex(),
  expedite: s.string(),
  contract_name: s.string(),
  params: s.any(),
  created_at: s.integer(),
  size: s.string(),
  status: s.integer(),
});
const REST_TX_INFO = s.object(
  { blockid: s.string('block id, empty when not in a block'), confirm: s.integer(), data: TX_DATA },
  { optional: ['data'] },
);
const RPC_TX_INFO = s.object({
  blockid: s.integer('0 when not in a block'),
  confirm: s.integer(),
  data: s.nullable(TX_DATA),
});
const TX_STATUS = s.map(
  s.object(
    {
      blockid: s.string('block id; empty while waiting'),
      errmsg: s.object(
        { type: s.string(), error: s.string(), id: s.string() },
        { optional: ['type', 'error', 'id'] },
      ),
      result: s.string("the contract's result"),
      penalty: s.integer(),
    },
    { optional: ['errmsg'] },
  ),
  'by hash',
);

@Controller('api/v2')
export class TxController {
  constructor(private readonly txs: TxService) {}

  /** Every file part is a binary transaction; every form field and query value one in hex. */
  @ApiPostRoute({
    summary: 'Send signed transactions: they are checked and queued for a block',
    description:
      'Each file part is one binary transaction, each form field or query value one in hex, under any name. ' +
      'All are checked (hash, signature, network, time, size, contract and parameters) before any is queued; ' +
      'one refusal refuses the request.',
    form: {
      tx1: { description: 'a transaction (hex, or binary as a file part); any field name', schema: s.hex() },
    },
    answer: s.object({ hashes: s.map(s.hex(), 'by hash (the reference) and by field name: the hash') }),
    errors: ['E_LIMITTXSIZE', 'E_BANNED', 'E_SERVER', 'E_STOPPING'],
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
    summary: 'What became of transactions: block, error or still waiting',
    form: { data: { description: 'JSON {"hashes": ["<hex>", …]}', required: true } },
    answer: s.object({ results: TX_STATUS }),
    errors: ['E_HASHWRONG', 'E_HASHNOTFOUND'],
  })
  @Post('txstatus')
  @HttpCode(200)
  @Auth()
  async txStatus(@Req() req: ApiRequest) {
    const data = FormValues.of(req).first('data');
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
    path: { hash: 'transaction hash (hex)' },
    form: { contractinfo: { description: 'also describe the transaction', schema: s.boolean() } },
    answer: REST_TX_INFO,
    errors: ['E_HASHWRONG', 'E_SERVER'],
  })
  @Get('txinfo/:hash')
  @BlockchainRoute()
  async txInfo(@Param('hash') hash: string, @Req() req: ApiRequest) {
    const form = parseForm(FormValues.of(req), { contractinfo: 'bool' });
    return restTxInfo(await this.txs.info(hash, form.contractinfo ?? false));
  }

  @ApiRoute({
    summary: 'txinfo of several transactions',
    form: {
      data: { description: 'comma-separated hashes', required: true },
      contractinfo: { description: 'also describe the transactions', schema: s.boolean() },
    },
    answer: s.object({ results: s.map(REST_TX_INFO, 'by hash') }),
    errors: ['E_HASHWRONG', 'E_SERVER'],
  })
  @Get(['txinfoMultiple', 'txinfomultiple'])
  @BlockchainRoute()
  async txInfoMultiple(@Req() req: ApiRequest) {
    const form = parseForm(FormValues.of(req), { data: 'string', contractinfo: 'bool' });
    const results: Record<string, ReturnType<typeof restTxInfo>> = {};
    for (const hash of commaHashes(form.data ?? '')) {
      results[hash] = restTxInfo(await this.txs.info(hash, form.contractinfo ?? false));
    }
    return { results };
  }

  @ApiRoute({
    summary: 'Per transaction, the rows it wrote as they are now',
    path: { hashes: 'comma-separated hashes' },
    answer: s.array(s.nullable(s.array(s.map(s.string(), 'a row, every value as text')))),
  })
  @Get('tx_record/:hashes')
  @BlockchainRoute()
  txRecord(@Param('hashes') hashes: string) {
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

function stringList(raw: unknown): string[] | null {
  if (raw === null) return null;
  if (!Array.isArray(raw) || raw.some((item) => typeof item !== 'string')) {
    throw new Error('json: cannot unmarshal into Go value of type []string');
  }
  return raw as string[];
}

@Injectable()
export class TxRpc {
  constructor(private readonly txs: TxService) {}

  @RpcMethod('sendTx', {
    auth: true,
    summary: 'Send signed transactions: they are checked and queued for a block',
    params: [
      {
        name: 'txs',
        type: 'object',
        description: 'name → transaction (base64 or hex)',
        schema: s.map(s.string()),
      },
    ],
    result: s.object({ hashes: s.map(s.hex(), 'by hash') }),
  })
  async sendTx([txs]: [Record<string, unknown> | null], { caller }: RpcCallContext) {
    if (txs === null || txs === undefined) throw RpcError.invalidParams('params can not be empty');
    const incoming = Object.entries(txs).map(([name, value]) => rpcTransaction(name, value));
    if (incoming.length === 0) return { hashes: {} };
    const sent = await this.txs.send(caller, incoming);
    const hashes: Record<string, string> = {};
    for (const tx of sent) hashes[tx.hash] = tx.hash;
    return { hashes };
  }

  @RpcMethod('txStatus', {
    auth: true,
    summary: 'What became of transactions: block, error or still waiting',
    params: [{ name: 'hashes', type: 'string', description: 'comma-separated hashes' }],
    result: TX_STATUS,
  })
  txStatus([hashes]: [string]) {
    if (!hashes) throw RpcError.invalidParams('params can not be empty');
    return this.txs.status(commaHashes(hashes));
  }

  @RpcMethod('txInfo', {
    summary: 'The block of a transaction and its confirmations; with contractInfo what it was',
    result: RPC_TX_INFO,
    params: [
      { name: 'hash', type: 'string' },
      { name: 'contractInfo', type: 'bool', optional: true },
    ],
  })
  async txInfo([hash, contractInfo]: [string, boolean | undefined]) {
    if (!hash) throw RpcError.invalidParams('params can not be empty');
    return rpcTxInfo(await this.txs.info(hash, contractInfo ?? false));
  }

  @RpcMethod('txInfoMultiple', {
    summary: 'txInfo of several transactions',
    result: s.object({ results: s.map(RPC_TX_INFO, 'by hash') }),
    params: [
      { name: 'hashes', type: stringList, description: 'transaction hashes', schema: s.array(s.hex()) },
      { name: 'contractInfo', type: 'bool', optional: true },
    ],
  })
  async txInfoMultiple([hashes, contractInfo]: [string[] | null, boolean | undefined]) {
    if (!hashes) throw RpcError.invalidParams('params can not be empty');
    const results: Record<string, ReturnType<typeof rpcTxInfo>> = {};
    for (const hash of hashes) results[hash] = rpcTxInfo(await this.txs.info(hash, contractInfo ?? false));
    return { results };
  }
}
