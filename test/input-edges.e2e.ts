import { beforeAll, describe, expect, it } from 'vitest';
import { capturedLog } from './support/log';
import { useTestNode, type TestNode } from './support/node';
import { expectRestError } from './support/wire';

/**
 * Inputs at their edges. Block ids at and past the edges of int64, in every shape the block reads take
 * them: refused as invalid params (-32602) with the decoder's text, or answered normally where they are
 * valid, and never reaching the database out of range (which answered "-32603 method handler crashed" and
 * logged an error). The other integer inputs of the block, contract, metrics and admin reads alike, and the
 * transaction reads' odd shapes (a list or null) with the texts their decoders gave.
 */
const { lines: logLines, destination: logDestination } = capturedLog();
const running = useTestNode({ env: { LOG_LEVEL: 'warn' }, logDestination });
let node: TestNode;

beforeAll(() => {
  node = running.node;
});

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const OVER_INT64 = [2n ** 63n, 2n ** 64n, INT64_MIN - 1n];
const NAMESPACES = ['ibax', 'chain'];

async function call(method: string, params: unknown[]) {
  const answer = await node.client.rpcRaw({ jsonrpc: '2.0', id: 1, method, params });
  expect(answer.status, method).toBe(200);
  return answer.body;
}

const refused = (message: string) => ({ jsonrpc: '2.0', id: 1, error: { code: -32602, message } });
const NOT_FOUND = { jsonrpc: '2.0', id: 1, error: { code: -32012, message: 'NotFound' } };

describe.each(NAMESPACES)('detailedBlock and getTransactionCount in the %s namespace', (namespace) => {
  const methods = [`${namespace}.detailedBlock`, `${namespace}.getTransactionCount`];

  it('refuse a block id past int64, as text or as {"id": n}, with invalid params', async () => {
    for (const method of methods) {
      for (const id of OVER_INT64) {
        expect(await call(method, [{ id }]), `${method} {"id": ${id}}`).toEqual(
          refused(
            `invalid argument 1: json: cannot unmarshal number ${id} into Go struct field BlockIdOrHash.id of type int64`,
          ),
        );
        // A bare number is not one of BlockIdOrHash's shapes, whatever its size.
        expect(await call(method, [id]), `${method} ${id}`).toEqual(
          refused('invalid argument 1: json: cannot unmarshal number into Go value of type string'),
        );
      }
      for (const text of ['9223372036854775808', '18446744073709551616']) {
        expect(await call(method, [text]), `${method} "${text}"`).toEqual(
          refused(`invalid argument 1: strconv.ParseInt: parsing "${text}": value out of range`),
        );
      }
      expect(await call(method, ['-9223372036854775809']), `${method} negative text`).toEqual(
        refused('invalid argument 1: invalid block id or block hash'),
      );
    }
  });

  it('answer an absent or null block as "params can not be empty" (Go reads it into a pointer), an empty text as no shape of one', async () => {
    for (const method of methods) {
      expect(await call(method, []), `${method} []`).toEqual(refused('params can not be empty'));
      expect(await call(method, [null]), `${method} [null]`).toEqual(refused('params can not be empty'));
      expect(await call(method, ['']), `${method} [""]`).toEqual(
        refused('invalid argument 1: invalid block id or block hash'),
      );
    }
    const discover = await call('rpc.discover', []);
    const described = discover.result.methods.find(
      (method: { name: string }) => method.name === `${namespace}.detailedBlock`,
    );
    expect(described.params[0]).toMatchObject({ name: 'block', required: true });
  });

  it('answer block ids at the edges of int64: not found above the chain, invalid at or below 0', async () => {
    for (const method of methods) {
      expect(await call(method, [INT64_MAX.toString()]), `${method} "${INT64_MAX}"`).toEqual(NOT_FOUND);
      expect(await call(method, [{ id: INT64_MAX }]), `${method} {"id": ${INT64_MAX}}`).toEqual(NOT_FOUND);
      expect(await call(method, [{ id: INT64_MIN }]), `${method} {"id": ${INT64_MIN}}`).toEqual(
        refused('params block Id Or block Hash invalid'),
      );
    }
    const byText = await call(`${namespace}.detailedBlock`, ['1']);
    expect(byText.result.header.block_id).toBe(1);
    expect((await call(`${namespace}.detailedBlock`, [{ id: 1n }])).result).toEqual(byText.result);
    expect(await call(`${namespace}.getTransactionCount`, [{ id: 1n }])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: byText.result.tx_count,
    });
  });
});

describe.each(NAMESPACES)('getBlocksTxInfo and detailedBlocks in the %s namespace', (namespace) => {
  const methods = [`${namespace}.getBlocksTxInfo`, `${namespace}.detailedBlocks`];

  it('refuse a first block or a count past int64 with invalid params', async () => {
    for (const method of methods) {
      for (const value of OVER_INT64) {
        const unmarshal = `json: cannot unmarshal number ${value} into Go value of type int64`;
        expect(await call(method, [value, 5]), `${method} [${value}, 5]`).toEqual(
          refused(`invalid argument 1: ${unmarshal}`),
        );
        expect(await call(method, [1, value]), `${method} [1, ${value}]`).toEqual(
          refused(`invalid argument 2: ${unmarshal}`),
        );
      }
      expect(await call(method, [INT64_MIN, 5]), `${method} [${INT64_MIN}, 5]`).toEqual(
        refused(`params ${INT64_MIN} invalid`),
      );
    }
  });

  it('answer a range that reaches the top of int64 as not found', async () => {
    for (const method of methods) {
      for (const [first, count] of [
        [INT64_MAX, 5n],
        [INT64_MAX, INT64_MAX],
        [INT64_MAX - 10n, 100n],
      ]) {
        expect(await call(method, [first, count]), `${method} [${first}, ${count}]`).toEqual(NOT_FOUND);
      }
      expect(Object.keys((await call(method, [1, INT64_MAX])).result), `${method} [1, ${INT64_MAX}]`).toEqual(
        ['1'],
      );
    }
  });
});

describe('GET blocks and detailed_blocks', () => {
  it('answer a range that reaches the top of int64 as not found, and refuse one past it', async () => {
    for (const route of ['/api/v2/blocks', '/api/v2/detailed_blocks']) {
      for (const count of ['1', '1000', INT64_MAX.toString()]) {
        expectRestError(
          await node.client.get(`${route}?block_id=${INT64_MAX}&count=${count}`),
          404,
          'E_NOTFOUND',
        );
      }
      for (const blockId of OVER_INT64) {
        expectRestError(
          await node.client.get(`${route}?block_id=${blockId}`),
          400,
          'E_SERVER',
          'schema: error converting value for "block_id"',
        );
      }
      expectRestError(
        await node.client.get(`${route}?block_id=${INT64_MIN}`),
        400,
        'E_SERVER',
        'parameter is invalid',
      );
      expect(Object.keys((await node.client.get(`${route}?block_id=1&count=5`)).body)).toEqual(['1']);
    }
  });
});

describe('the other integer inputs', () => {
  it('refuse a JSON-RPC integer past its type with invalid params', async () => {
    await node.client.login(node.founderKey);
    const int64 = (value: bigint) => `json: cannot unmarshal number ${value} into Go value of type int64`;
    for (const value of OVER_INT64) {
      expect(await call('ibax.getBlockInfo', [value])).toEqual(
        refused(`invalid argument 1: ${int64(value)}`),
      );
      expect(await call('chain.getBlocksCountByNode', [value, 1])).toEqual(
        refused(`invalid argument 1: ${int64(value)}`),
      );
      expect(await call('admin.rollbackBlocks', [value])).toEqual(
        refused(`invalid argument 1: ${int64(value)}`),
      );
      expect(await call('ibax.getContracts', [0, value])).toEqual(
        refused(`invalid argument 2: ${int64(value)}`),
      );
    }
    expect(await call('ibax.getBlocksCountByNode', [0, 2 ** 31])).toEqual(
      refused(`invalid argument 2: json: cannot unmarshal number ${2 ** 31} into Go value of type int32`),
    );
    // Out of range, the reference says its params are empty; the description says the range.
    for (const params of [
      [-1, 1],
      [0, 3],
      [0, 0],
    ]) {
      expect(await call('ibax.getBlocksCountByNode', params)).toEqual(refused('params can not be empty'));
    }
    const discover = await call('rpc.discover', []);
    const countByNode = discover.result.methods.find(
      (method: { name: string }) => method.name === 'ibax.getBlocksCountByNode',
    );
    expect(countByNode.params[0].schema).toMatchObject({ minimum: 0 });
    expect(countByNode.params[1].schema).toMatchObject({ enum: [1, 2] });
    expect(await call('ibax.getBlockInfo', [INT64_MAX])).toEqual(NOT_FOUND);
    expect(await call('admin.rollbackBlocks', [INT64_MAX])).toEqual(refused(`params ${INT64_MAX} invalid`));
    expect((await call('ibax.getContracts', [INT64_MAX, INT64_MAX])).result.list).toBeNull();
  });

  it('read REST path numbers leniently and refuse form numbers past int64', async () => {
    expectRestError(await node.client.get(`/api/v2/block/${2n ** 64n}`), 404, 'E_NOTFOUND');
    expect((await node.client.get(`/api/v2/metrics/blockper/${2n ** 64n}/1`)).body).toEqual({
      totalcount: 1,
      partialcount: 0,
    });
    expectRestError(await node.client.get(`/api/v2/metrics/blockper/0/${2n ** 64n}`), 404, 'E_PARAMNOTFOUND');
    expect(
      (await node.client.get(`/api/v2/contracts?offset=${INT64_MAX}&limit=${INT64_MAX}`)).body.list,
    ).toBeNull();
    expectRestError(
      await node.client.get(`/api/v2/contracts?offset=${2n ** 63n}&limit=x`),
      400,
      'E_SERVER',
      'schema: error converting value for "limit" (and 1 other error)',
    );
  });
});

describe('the transaction reads', () => {
  it('refuse a hash list of another shape, and answer null for one as "params can not be empty"', async () => {
    // An empty text is of the wrong shape before it is empty.
    for (const hashes of ['ab', '', [1], { a: 'b' }]) {
      expect(await call('ibax.txInfoMultiple', [hashes])).toEqual(
        refused('invalid argument 1: json: cannot unmarshal into Go value of type []string'),
      );
    }
    expect(await call('ibax.txInfoMultiple', [null])).toEqual(refused('params can not be empty'));
    expect(await call('ibax.txInfoMultiple', [])).toEqual(refused('missing value for required argument 1'));
    expect(await call('ibax.sendTx', [null])).toEqual(refused('params can not be empty'));
    expect(await call('ibax.sendTx', ['ab'])).toEqual(
      refused('invalid argument 1: json: cannot unmarshal string into Go value of type object'),
    );
    expect(await call('ibax.sendTx', [{}])).toEqual({ jsonrpc: '2.0', id: 1, result: { hashes: {} } });
    expect(await call('ibax.txInfo', ['ab'.repeat(32), 'yes'])).toEqual(
      refused('invalid argument 2: json: cannot unmarshal string into Go value of type bool'),
    );
  });

  it('answer an empty or null hash as "params can not be empty", and describe such arguments as required', async () => {
    for (const empty of ['', null]) {
      expect(await call('ibax.txStatus', [empty])).toEqual(refused('params can not be empty'));
      expect(await call('ibax.txInfo', [empty])).toEqual(refused('params can not be empty'));
      expect(await call('chain.txInfo', [empty, true])).toEqual(refused('params can not be empty'));
    }
    expect(await call('ibax.txStatus', [])).toEqual(refused('missing value for required argument 1'));
    // The description says what the method refuses: getList's one object needs its table name.
    const discover = await call('rpc.discover', []);
    const method = (name: string) =>
      discover.result.methods.find((described: { name: string }) => described.name === name);
    expect(method('ibax.txInfo').params[0]).toMatchObject({ name: 'hash', required: true });
    expect(method('ibax.getList').params[0]).toMatchObject({ required: true });
    expect(method('ibax.getList').params[0].schema.required).toEqual(['name']);
  });

  it("read txinfo's form values as before", async () => {
    const hash = 'ab'.repeat(32);
    expect((await node.client.get(`/api/v2/txinfo/${hash}?contractinfo=true`)).body).toEqual({
      blockid: '',
      confirm: 0,
    });
    expectRestError(
      await node.client.get(`/api/v2/txinfo/${hash}?contractinfo=maybe`),
      400,
      'E_SERVER',
      'schema: error converting value for "contractinfo"',
    );
    expect((await node.client.get(`/api/v2/txinfoMultiple?data=${hash}`)).body).toEqual({
      results: { [hash]: { blockid: '', confirm: 0 } },
    });
    expectRestError(await node.client.get('/api/v2/txinfoMultiple'), 400, 'E_HASHWRONG');
  });
});

describe('the log', () => {
  it('holds no error: none of the calls above crashed a handler', () => {
    const errors = logLines.filter((line) => line.level >= 50);
    expect(errors.map((line) => JSON.stringify(line)).join('\n')).toBe('');
  });
});
