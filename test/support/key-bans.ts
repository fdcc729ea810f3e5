import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import type { TestNode } from './node';

/** A fresh key, registered by its first login. */
export async function newUser(node: TestNode) {
  const key = randomBytes(32).toString('hex');
  const client = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  const session = await client.login(key);
  return { client, key, keyId: BigInt(session.keyId) };
}

/** A transaction the node refuses at admission: a strike against the sender's key. */
export async function sendMalformed(user: { client: IbaxClient }) {
  const answer = await user.client.postMultipart('/api/v2/sendTx', { tx: 'zz' });
  expect(answer.status, answer.text).toBe(400);
}

/** A transaction any member may send and that succeeds in its block (a failing one would strike too). */
export async function sendGood(user: { client: IbaxClient; key: string }, name: string) {
  const tx = await user.client.buildCall(user.key, 'ProfileEdit', { MemberName: name });
  const answer = await user.client.postMultipart('/api/v2/sendTx', { tx: Buffer.from(tx.bytes) });
  if (answer.status === 200) {
    const [hash] = Object.values(answer.body.hashes as Record<string, string>);
    const status = (await user.client.waitForTransactions([hash]))[hash];
    expect(status.errmsg, `${name} succeeds in its block`).toBeUndefined();
  }
  return answer;
}
