import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import { createTestDatabase, startNode, type TestDatabase, type TestNode } from '../support/node';
import { startFakeCentrifugo, type FakeCentrifugo } from '../support/fake-centrifugo';
import { sleep } from '../support/wire';

/**
 * The notifications application's contracts on a fresh node: a member sends to a member
 * (NotificationsSend) and to a role (NotificationsBroadcast), the recipient starts (NotificationsProcess)
 * and closes (NotificationsClose) them; the counts move in keyinfo, on the recipient's Centrifugo channel
 * (a local stand-in for its server API records what is published) and on the genesis `notifications` page.
 */
let fake: FakeCentrifugo;
let database: TestDatabase;
let node: TestNode;
let founder: IbaxClient;
type Member = { client: IbaxClient; key: string; account: string };
let alice: Member;
let bob: Member;
let roleId: string;

async function member(): Promise<Member> {
  const key = randomBytes(32).toString('hex');
  const client = new IbaxClient(node.url, founder.crypto);
  const { account } = await client.login(key);
  return { client, key, account };
}

async function run(who: Member | 'founder', contract: string, args: Record<string, string | number>) {
  const [client, key] = who === 'founder' ? [founder, node.founderKey] : [who.client, who.key];
  const { status } = await client.call(key, contract, args);
  return status;
}

async function must(who: Member | 'founder', contract: string, args: Record<string, string | number>) {
  const status = await run(who, contract, args);
  expect(status.errmsg, `${contract}: ${JSON.stringify(status.errmsg)}`).toBeUndefined();
  return status.result as string;
}

/**
 * The counts published to an account's channel since `from`, once `expected` is among them (publishing runs
 * after each block, so an earlier block's counts may arrive after `from`); the last ones otherwise.
 */
async function published(account: string, from: number, expected: unknown) {
  let last: unknown;
  for (let waited = 0; waited < 5000; waited += 50) {
    const all = fake.requests
      .slice(from)
      .filter((request) => request.path === '/api/batch')
      .flatMap((request) => request.body.commands as { publish: { channel: string; data: unknown } }[])
      .filter((command) => command.publish.channel === `client${account}`)
      .map((command) => command.publish.data);
    if (all.some((data) => JSON.stringify(data) === JSON.stringify(expected))) return expected;
    last = all.at(-1);
    await sleep(50);
  }
  return last;
}

async function openCounts(who: Member) {
  const info = await who.client.get(`/api/v2/keyinfo/${who.account}`);
  return info.body.ecosystems[0].notifications;
}

beforeAll(async () => {
  fake = await startFakeCentrifugo();
  database = await createTestDatabase();
  node = await startNode({
    databaseUrl: database.url,
    // The refusals below fail on purpose, more often than a key may before it is banned.
    env: { BLOCK_SLOT_MS: '200', CENTRIFUGO_API_URL: fake.url, CENTRIFUGO_API_KEY: 'k', BAN_BAD_TX: '0' },
  });
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
  alice = await member();
  bob = await member();
  roleId = await must('founder', 'RolesCreate', { RoleName: 'Desk' });
  await must('founder', 'RolesAssign', { RoleId: roleId, MemberAccount: bob.account });
}, 120_000);

afterAll(async () => {
  await node?.stop(true);
  await database?.drop();
  await fake?.close();
});

describe('the notifications contracts', () => {
  let personal: string;
  let forRole: string;

  it('NotificationsSend: a member notifies a member, whose counts move and are published', async () => {
    const from = fake.requests.length;
    personal = await must(alice, 'NotificationsSend', {
      Recipient: bob.account,
      Header: 'Your order',
      Body: 'is ready',
      PageName: 'default_page',
      PageParams: '{"order":"7"}',
    });
    expect(Number(personal)).toBeGreaterThan(0);
    const expected1 = [
      { ecosystem: '1', role_id: '0', count: 1 },
      { ecosystem: '1', role_id: roleId, count: 0 },
    ];
    expect(await published(bob.account, from, expected1)).toEqual(expected1);
    const row = (await founder.get(`/api/v2/row/notifications/${personal}`)).body.value;
    expect(JSON.parse(row.recipient)).toEqual({ account: bob.account });
    expect(JSON.parse(row.sender)).toEqual({ account: alice.account });
    expect(JSON.parse(row.notification)).toEqual({ type: 1, header: 'Your order', body: 'is ready' });
    expect(row.page_name).toBe('default_page');
  });

  it('NotificationsBroadcast: a member notifies a role, each member of it is published', async () => {
    const from = fake.requests.length;
    forRole = await must(alice, 'NotificationsBroadcast', {
      RoleId: Number(roleId),
      Header: 'Stand-up at 10',
    });
    const expected2 = [
      { ecosystem: '1', role_id: '0', count: 1 },
      { ecosystem: '1', role_id: roleId, count: 1 },
    ];
    expect(await published(bob.account, from, expected2)).toEqual(expected2);
    expect(await openCounts(bob)).toEqual([
      { role_id: '0', count: 1 },
      { role_id: roleId, count: 1 },
    ]);
  });

  it('refuses bad input and strangers', async () => {
    expect((await run(alice, 'NotificationsSend', { Recipient: 'nobody', Header: 'x' })).errmsg?.error).toBe(
      'nobody is not a valid account',
    );
    expect(
      (await run(alice, 'NotificationsSend', { Recipient: bob.account, Header: ' ' })).errmsg?.error,
    ).toBe('Header must be 1 to 255 bytes');
    expect(
      (await run(alice, 'NotificationsSend', { Recipient: bob.account, Header: 'x', PageParams: '[1]' }))
        .errmsg?.error,
    ).toBe('PageParams must be a JSON object');
    expect((await run(alice, 'NotificationsBroadcast', { RoleId: 99999, Header: 'x' })).errmsg?.error).toBe(
      'Role 99999 has not been found',
    );
    // Alice is neither the recipient nor in the role.
    expect((await run(alice, 'NotificationsClose', { NotificationId: Number(personal) })).errmsg?.error).toBe(
      'Access denied',
    );
    expect(
      (await run(alice, 'NotificationsProcess', { NotificationId: Number(forRole) })).errmsg?.error,
    ).toBe('Access denied');
  });

  it('the genesis notifications page lists the caller its own open ones', async () => {
    const page = await bob.client.postForm('/api/v2/content/page/notifications', { lang: 'en' });
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body.tree)).toContain('Your order');
    const empty = await alice.client.postForm('/api/v2/content/page/notifications', { lang: 'en' });
    expect(JSON.stringify(empty.body.tree)).toContain('No notifications');
  });

  it('NotificationsProcess and NotificationsClose: the recipient works on and closes them', async () => {
    await must(bob, 'NotificationsProcess', { NotificationId: Number(forRole) });
    const processed = (await founder.get(`/api/v2/row/notifications/${forRole}`)).body.value;
    expect(JSON.parse(processed.processing_info)).toEqual({ account: bob.account });
    expect(processed.date_start_processing).not.toBe('NULL');
    const from = fake.requests.length;
    await must(bob, 'NotificationsClose', { NotificationId: Number(personal) });
    await must(bob, 'NotificationsClose', { NotificationId: Number(forRole) });
    expect(await openCounts(bob)).toEqual([
      { role_id: '0', count: 0 },
      { role_id: roleId, count: 0 },
    ]);
    const expected3 = [
      { ecosystem: '1', role_id: '0', count: 0 },
      { ecosystem: '1', role_id: roleId, count: 0 },
    ];
    expect(await published(bob.account, from, expected3)).toEqual(expected3);
    expect((await run(bob, 'NotificationsProcess', { NotificationId: Number(personal) })).errmsg?.error).toBe(
      `Notification ${personal} has not been found among the open ones`,
    );
  });
});
