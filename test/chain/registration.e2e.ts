import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import { useTestNode } from '../support/node';
import { expectRestError } from '../support/wire';

const running = useTestNode({ env: { BLOCK_SLOT_MS: '300' } });

it('registers many new keys logging in at once, each by its own NewUser transaction', async () => {
  // Logins ask the producer for a block while it is making one: it must never run two blocks at once.
  const { node } = running;
  const before = (await node.client.get('/api/v2/metrics/keys')).body.count;
  const sessions = await Promise.all(
    Array.from({ length: 40 }, () => new IbaxClient(node.url).login(randomBytes(32).toString('hex'))),
  );
  expect(new Set(sessions.map((session) => session.account)).size).toBe(40);
  const keys = await node.client.get('/api/v2/metrics/keys');
  expect(keys.body.count).toBe(before + 40);
});

it('refuses a key that is not open for registration in a closed ecosystem', async () => {
  const { node } = running;
  const client = new IbaxClient(node.url);
  const founder = new IbaxClient(node.url);
  await founder.login(node.founderKey);
  const created = await founder.call(node.founderKey, 'NewEcosystem', { Name: 'closed' });
  expect(created.status.errmsg).toBeUndefined();
  const uid = await client.get('/api/v2/getuid');
  const key = randomBytes(32).toString('hex');
  const { signature, publicKey } = client.signLogin(key, uid.body.network_id, uid.body.uid);
  const answer = await client.postForm(
    '/api/v2/login',
    { pubkey: publicKey, signature, ecosystem: created.status.result },
    { token: uid.body.token },
  );
  expectRestError(answer, 403, 'E_STATELOGIN');
});
