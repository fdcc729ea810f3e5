import { randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import { createTestDatabase, startNode, type TestDatabase, type TestNode } from '../support/node';
import { expectRestError, sleep } from '../support/wire';
import { startFakeCentrifugo, type FakeCentrifugo } from '../support/fake-centrifugo';

/**
 * Notifications published to Centrifugo. The real Centrifugo server cannot be installed on these machines
 * (there is no package for it), so a small local HTTP server stands in for its server API: it records each
 * request the node makes (path, headers, body) and answers as Centrifugo v5/v6 does; the `notify_key` a
 * login hands out is checked as Centrifugo checks a connection token (HS256 with the secret, `sub`, `exp`).
 */
let fake: FakeCentrifugo;

const SECRET = 'centrifugo-connection-secret';
const API_KEY = 'centrifugo-api-key';
let fakePort = 0;
let database: TestDatabase;
beforeAll(async () => {
  fake = await startFakeCentrifugo();
  fakePort = fake.port;
  database = await createTestDatabase();
  node = await startNode({
    databaseUrl: database.url,
    env: {
      BLOCK_SLOT_MS: '200',
      CENTRIFUGO_URL: `http://127.0.0.1:${fakePort}/connection/websocket`,
      CENTRIFUGO_API_URL: `http://127.0.0.1:${fakePort}`,
      CENTRIFUGO_API_KEY: API_KEY,
      CENTRIFUGO_SECRET: SECRET,
    },
  });
});
afterAll(async () => {
  await node?.stop(true);
  await database?.drop();
  await fake?.close();
});

let node: TestNode;
let founder: IbaxClient;
let user: { client: IbaxClient; key: string; account: string; keyId: string; notifyKey: string };
let roleId: string;

const NOTIFY = `contract NotifyBoth {
    data {
        Account string
        RoleId int
        Header string
    }
    action {
        CallContract("@1NotificationsSend", {"Recipient": $Account, "Header": $Header})
        CallContract("@1NotificationsBroadcast", {"RoleId": $RoleId, "Header": "clerks"})
    }
}`;

async function must(
  client: IbaxClient,
  key: string,
  contract: string,
  args: Record<string, string | number>,
) {
  const { status } = await client.call(key, contract, args);
  expect(status.errmsg, `${contract}: ${JSON.stringify(status.errmsg)}`).toBeUndefined();
  return status.result as string;
}

/** The batches published to a channel since `from`, waiting up to 5 s for one. */
async function publishedTo(channel: string, from: number) {
  for (let waited = 0; waited < 5000; waited += 50) {
    const found = fake.requests
      .slice(from)
      .filter((request) => request.path === '/api/batch')
      .flatMap((request) => request.body.commands as { publish: { channel: string; data: unknown } }[])
      .filter((command) => command.publish.channel === channel);
    if (found.length > 0) return found.map((command) => command.publish.data);
    await sleep(50);
  }
  return [];
}

beforeAll(async () => {
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
  const key = randomBytes(32).toString('hex');
  const client = new IbaxClient(node.url, founder.crypto);
  const session = await client.login(key);
  user = {
    client,
    key,
    account: session.account,
    keyId: String(session.keyId),
    notifyKey: String(session.raw.notify_key),
  };
  roleId = await must(founder, node.founderKey, 'RolesCreate', { RoleName: 'Clerk' });
  await must(founder, node.founderKey, 'RolesAssign', { RoleId: roleId, MemberAccount: user.account });
  await must(founder, node.founderKey, 'NewContract', {
    ApplicationId: 1,
    Value: NOTIFY,
    Conditions: 'true',
  });
}, 120_000);

describe('publishing to Centrifugo', () => {
  it('after a block that writes notifications, each recipient gets its counts on client<account>', async () => {
    const from = fake.requests.length;
    await must(founder, node.founderKey, 'NotifyBoth', {
      Account: user.account,
      RoleId: Number(roleId),
      Header: 'note 1',
    });
    const batches = fake.requests.slice(from).filter((request) => request.path === '/api/batch');
    const published = await publishedTo(`client${user.account}`, from);
    expect(published.at(-1)).toEqual([
      { ecosystem: '1', role_id: '0', count: 1 },
      { ecosystem: '1', role_id: roleId, count: 1 },
    ]);
    const request = fake.requests.slice(from).find((each) => each.path === '/api/batch')!;
    expect(request.apiKey).toBe(API_KEY);
    expect(request.contentType).toBe('application/json');
    expect(Object.keys(request.body)).toEqual(['commands']);
    expect(Object.keys(request.body.commands[0])).toEqual(['publish']);
    expect(Object.keys(request.body.commands[0].publish)).toEqual(['channel', 'data']);
    expect(batches.length).toBeLessThanOrEqual(1);
  });

  it('a contract that asks with UpdateNotifications gets the counts published, without a table change', async () => {
    await must(founder, node.founderKey, 'NewContract', {
      ApplicationId: 1,
      Value:
        'contract Nudge {\n data { Account string }\n action { UpdateNotifications($ecosystem_id, $Account) }\n}',
      Conditions: 'true',
    });
    const from = fake.requests.length;
    await must(founder, node.founderKey, 'Nudge', { Account: user.account });
    expect((await publishedTo(`client${user.account}`, from)).length).toBeGreaterThan(0);
  });

  it('a block that touches no notification publishes nothing', async () => {
    const from = fake.requests.length;
    await must(founder, node.founderKey, 'NewParameter', { Name: 'quiet', Value: '1', Conditions: 'true' });
    await sleep(300);
    expect(fake.requests.slice(from).filter((request) => request.path === '/api/batch')).toEqual([]);
  });

  it('updnotificator publishes the counts of the given accounts now', async () => {
    const from = fake.requests.length;
    const answer = await founder.postForm('/api/v2/updnotificator', {
      id: JSON.stringify([user.account]),
      ecosystem: '1',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: true });
    expect(await publishedTo(`client${user.account}`, from)).toEqual([
      [
        { ecosystem: '1', role_id: '0', count: 1 },
        { ecosystem: '1', role_id: roleId, count: 1 },
      ],
    ]);
    // One address without a list, and a bad one.
    expect((await founder.postForm('/api/v2/updnotificator', { id: user.account })).body).toEqual({
      result: true,
    });
    expectRestError(
      await founder.postForm('/api/v2/updnotificator', { id: '["0000-0000-0000-0000-0001"]' }),
      400,
      'E_INVALIDWALLET',
    );
    expectRestError(await founder.postForm('/api/v2/updnotificator', {}), 400, 'E_SERVER');
  });

  it('config/centrifugo asks Centrifugo first and answers the address as ws://', async () => {
    const from = fake.requests.length;
    const answer = await founder.get('/api/v2/config/centrifugo');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(`ws://127.0.0.1:${fakePort}/connection/websocket`);
    expect(fake.requests.slice(from).map((request) => request.path)).toEqual(['/api/info']);
    expect(await founder.rpc('ibax.getConfig', ['centrifugo'])).toEqual({
      centrifugo: `ws://127.0.0.1:${fakePort}/connection/websocket`,
    });
  });

  it("the login's notify_key is a connection token Centrifugo accepts: HS256, sub = key id, exp", () => {
    const claims = new JwtService({ secret: SECRET }).verify<{ sub: string; exp: number }>(user.notifyKey, {
      algorithms: ['HS256'],
    });
    expect(claims.sub).toBe(user.keyId);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 3600);
  });

  it('while Centrifugo fails: blocks go on, failures are counted, updnotificator says so', async () => {
    fake.failing = true;
    try {
      const before = await failures();
      const config = await founder.get('/api/v2/config/centrifugo');
      expectRestError(config, 400, 'E_SERVER', /^info: HTTP 503/);
      await must(founder, node.founderKey, 'NotifyBoth', {
        Account: user.account,
        RoleId: Number(roleId),
        Header: 'note 2',
      });
      // The block is made at once; publishing retries in the background (0.25 + 0.5 + 1 + 2 s), then counts.
      for (let waited = 0; waited < 8000 && (await failures()) === before; waited += 200) await sleep(200);
      expect(await failures()).toBe(before + 1);
      expectRestError(
        await founder.postForm('/api/v2/updnotificator', { id: user.account }),
        400,
        'E_SERVER',
        /^the notification service did not take the counts/,
      );
    } finally {
      fake.failing = false;
    }
    const from = fake.requests.length;
    await must(founder, node.founderKey, 'NotifyBoth', {
      Account: user.account,
      RoleId: Number(roleId),
      Header: 'note 3',
    });
    expect((await publishedTo(`client${user.account}`, from)).at(-1)).toEqual([
      { ecosystem: '1', role_id: '0', count: 3 },
      { ecosystem: '1', role_id: roleId, count: 3 },
    ]);
  });
});

async function failures(): Promise<number> {
  const text = (await founder.get('/metrics')).text;
  return Number(/^ibax_notification_publish_failures_total (\d+)/m.exec(text)?.[1] ?? NaN);
}
