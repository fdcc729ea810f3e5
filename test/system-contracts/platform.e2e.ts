import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContractsService } from '../../src/contracts/contracts.service';
import { IbaxClient } from '../../src/sdk';
import { changed, expectOk, updatedEntry, updatedOnly, useNode, type Account } from './helpers';

/**
 * The platform's own contracts: UpdatePlatformParam over HTTP (the change, its effect on admission and on
 * fuel prices, and its refusals), and through the harness the honor-node contracts (HonorNodeCondition,
 * NewBadBlock, CheckNodesBan) and the control-mode contracts (AccessControlMode, AccessVoteTempRun).
 */

const h = useNode();
let founder: IbaxClient;
let stranger: Account;

function clientOf(): IbaxClient {
  return new IbaxClient(h.node.url, { cryptoer: h.node.config.cryptoer, hasher: h.node.config.hasher });
}

async function platformParameter(name: string): Promise<{ value: string; conditions: string }> {
  const answer = await founder.get(`/api/v2/systemparams?names=${name}`);
  expect(answer.status).toBe(200);
  const [row] = answer.body.list as { name: string; value: string; conditions: string }[];
  return { value: row.value, conditions: row.conditions };
}

beforeAll(async () => {
  founder = clientOf();
  await founder.login(h.node.founderKey);
  stranger = await h.registered();
});

describe('UpdatePlatformParam', () => {
  it('changes a platform parameter for the founder of ecosystem 1, and admission follows it', async () => {
    const before = await platformParameter('max_tx_size');
    expect(before.value).toBe('33554432');
    const lowered = await founder.call(h.node.founderKey, 'UpdatePlatformParam', {
      Name: 'max_tx_size',
      Value: '2000',
    });
    expect(lowered.status.errmsg).toBeUndefined();
    expect(Number(lowered.status.blockid)).toBeGreaterThan(1);
    expect(await platformParameter('max_tx_size')).toEqual({ value: '2000', conditions: before.conditions });

    const large = await founder.buildCall(h.node.founderKey, 'NewParameter', {
      Name: 'large_one',
      Value: 'x'.repeat(3000),
      Conditions: 'true',
    });
    const refused = await founder
      .sendTransactions([large.bytes])
      .catch((error: { answer?: unknown }) => error);
    expect((refused as { answer: { body: { error: string } } }).answer.body.error).toBe('E_LIMITTXSIZE');

    const restored = await founder.call(h.node.founderKey, 'UpdatePlatformParam', {
      Name: 'max_tx_size',
      Value: before.value,
    });
    expect(restored.status.errmsg).toBeUndefined();
    expect((await platformParameter('max_tx_size')).value).toBe(before.value);
  });

  it('changes the conditions when given, and fuel prices once the block is written', async () => {
    const contracts = h.node.app.get(ContractsService);
    const prices = contracts.vm.options.prices as Map<string, number>;
    const name = 'price_exec_sys_fuel';
    const old = await platformParameter(name);
    const newPrice = String(Number(old.value) + 7);
    const changedPrice = await founder.call(h.node.founderKey, 'UpdatePlatformParam', {
      Name: name,
      Value: newPrice,
      Conditions: 'ContractAccess("@1UpdatePlatformParam")',
    });
    expect(changedPrice.status.errmsg).toBeUndefined();
    expect(await platformParameter(name)).toEqual({
      value: newPrice,
      conditions: 'ContractAccess("@1UpdatePlatformParam")',
    });
    expect(prices.get(name)).toBe(Number(newPrice));
  });

  it('is refused for a key that is not the founder of ecosystem 1', async () => {
    const session = clientOf();
    const key = randomBytes(32).toString('hex');
    await session.login(key);
    const refused = await session.call(key, 'UpdatePlatformParam', { Name: 'max_columns', Value: '7' });
    expect(refused.status.errmsg).toEqual({ type: 'warning', error: 'Access denied' });
    expect((await platformParameter('max_columns')).value).toBe('50');
    await h.refused(
      stranger,
      'UpdatePlatformParam',
      { Name: 'max_columns', Value: '7' },
      'warning',
      'Access denied',
    );
    await h.refused(
      h.nodeKey,
      'UpdatePlatformParam',
      { Name: 'max_columns', Value: '7' },
      'warning',
      'Access denied',
    );
  });

  it('is refused from another ecosystem, for a parameter whose conditions say no, and for a bad value', async () => {
    const founderIn2 = { ...h.founder, ecosystem: 2n };
    await h.refused(
      founderIn2,
      '@1UpdatePlatformParam',
      { Name: 'max_columns', Value: '7' },
      'warning',
      'Platform parameters are changed from ecosystem 1',
    );
    await h.refused(
      h.founder,
      'UpdatePlatformParam',
      { Name: 'test', Value: 'true' },
      'warning',
      'Access denied',
    );
    await h.refused(
      h.founder,
      'UpdatePlatformParam',
      { Name: 'no_such_parameter', Value: '1' },
      'warning',
      'System parameter not found',
    );
    await h.refused(
      h.founder,
      'UpdatePlatformParam',
      { Name: 'max_columns', Value: 'many' },
      'error',
      'The value of max_columns must be a non-negative integer',
    );
    await h.refused(
      h.founder,
      'UpdatePlatformParam',
      { Name: 'fuel_rate', Value: '{"1": "2"}' },
      'error',
      'The value of fuel_rate must be JSON like the current one',
    );
    await h.refused(
      h.founder,
      'UpdatePlatformParam',
      { Name: 'max_columns', Value: '60', Conditions: 'Rubbish(' },
      'panic',
      /^condition .* is not allowed$/,
    );
    // honor_nodes stays a list every node can take turns by (formats.md §5.1).
    const listed = JSON.parse((await platformParameter('honor_nodes')).value) as Record<string, unknown>[];
    const twice = JSON.stringify([listed[0], { ...listed[0], api_address: 'http://other:7079' }]);
    await h.refused(
      h.founder,
      'UpdatePlatformParam',
      { Name: 'honor_nodes', Value: twice },
      'panic',
      'honor_nodes: honor node 1: the same public_key as honor node 0',
    );
    const keyless = JSON.stringify([{ ...listed[0], public_key: '04ab' }]);
    await h.refused(
      h.founder,
      'UpdatePlatformParam',
      { Name: 'honor_nodes', Value: keyless },
      'panic',
      'honor_nodes: honor node 0: public_key must be 64 bytes as hex',
    );
  });

  it('writes only the parameter row, and the journal takes it back', async () => {
    const before = (await h.row('1_platform_parameters', `"name" = 'max_indexes'`))!;
    const run = await h.track(h.founder, 'UpdatePlatformParam', { Name: 'max_indexes', Value: '6' });
    expectOk(run);
    expect(run.changes).toEqual({ '1_platform_parameters': updatedOnly(changed(before, { value: '6' })) });
    expect(run.journal).toEqual([updatedEntry('1_platform_parameters', before.id!, { value: '5' })]);
    await h.undone(run);
  });
});

describe('honor-node contracts', () => {
  let nodeKeyId: bigint;

  beforeAll(() => {
    nodeKeyId = h.nodeKey.keyId;
  });

  it('HonorNodeCondition lets only an honor node’s key through', async () => {
    const run = await h.track(h.nodeKey, 'HonorNodeCondition');
    expectOk(run);
    expect(run.changes).toEqual({});
    const denied = 'HonorNodeCondition: Sorry, you do not have access to this action';
    await h.refused(h.founder, 'HonorNodeCondition', {}, 'warning', denied);
    await h.refused(stranger, 'HonorNodeCondition', {}, 'warning', denied);
  });

  it('NewBadBlock takes a report of an honor node in its own name only', async () => {
    const report = {
      ProducerNodeID: nodeKeyId,
      ConsumerNodeID: nodeKeyId,
      BlockID: 5,
      Timestamp: 1_700_000_000,
    };
    await h.refused(
      h.founder,
      'NewBadBlock',
      { ...report, Reason: 'bad' },
      'warning',
      /Sorry, you do not have access/,
    );
    await h.refused(
      h.nodeKey,
      'NewBadBlock',
      { ...report, ConsumerNodeID: stranger.keyId, Reason: 'bad' },
      'warning',
      "A node reports bad blocks in its own name only: ConsumerNodeID must be the caller's key",
    );
    // This chain has one honor node: it cannot report itself, and nobody else is an honor node.
    await h.refused(
      h.nodeKey,
      'NewBadBlock',
      { ...report, Reason: 'bad' },
      'warning',
      'A node cannot report its own blocks',
    );
    await h.refused(
      h.nodeKey,
      'NewBadBlock',
      { ...report, ProducerNodeID: stranger.keyId, Reason: 'bad' },
      'warning',
      `${stranger.keyId} is not the key of an honor node`,
    );
  });

  it('CheckNodesBan runs for the node only, and counts its run when called on its own', async () => {
    const before = (await h.row('1_delayed_contracts', `"contract" = '@1CheckNodesBan'`))!;
    expect(before).toMatchObject({
      key_id: String(nodeKeyId),
      every_block: '10',
      high_rate: '4',
      deleted: '0',
    });
    const run = await h.track(h.nodeKey, 'CheckNodesBan');
    expectOk(run);
    const counter = String(Number(before.counter) + 1);
    expect(run.changes).toEqual({ '1_delayed_contracts': updatedOnly(changed(before, { counter })) });
    expect(run.journal).toEqual([
      updatedEntry('1_delayed_contracts', before.id!, { counter: before.counter }),
    ]);
    await h.undone(run);
    await h.refused(h.founder, 'CheckNodesBan', {}, 'warning', /Sorry, you do not have access/);
  });

  it('CallDelayedContract is for the node, and for a row that exists', async () => {
    const row = (await h.row('1_delayed_contracts', `"contract" = '@1CheckNodesBan'`))!;
    await h.refused(
      h.founder,
      'CallDelayedContract',
      { Id: Number(row.id) },
      'warning',
      /Sorry, you do not have access/,
    );
    await h.refused(
      h.nodeKey,
      'CallDelayedContract',
      { Id: 999 },
      'warning',
      'Delayed contract 999 does not exist',
    );
  });
});

describe('control mode contracts', () => {
  it('AccessControlMode answers the control mode to developers', async () => {
    const run = await h.track(h.founder, 'AccessControlMode');
    expectOk(run);
    expect(run.outcome.result).toBe('1');
    expect(run.changes).toEqual({});
    await h.refused(stranger, 'AccessControlMode', {}, 'warning', 'Access denied');
    await h.refused(
      h.founder,
      'AccessControlMode',
      { VotingId: 3 },
      'warning',
      'Decisions by voting need the voting contracts, which this chain does not have',
    );
  });

  it('AccessVoteTempRun needs a voting template, which this chain does not ship', async () => {
    await h.refused(stranger, 'AccessVoteTempRun', {}, 'warning', 'Access denied');
    await h.refused(
      h.founder,
      'AccessVoteTempRun',
      { ContractAccept: 'NewPage' },
      'warning',
      'template id not found',
    );
  });
});
