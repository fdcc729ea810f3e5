import { describe, expect, it } from 'vitest';
import { useTestNode } from '../support/node';
import { newUser, sendGood, sendMalformed } from '../support/key-bans';
import { expectRestError, sleep } from '../support/wire';

/**
 * The key-ban settings on a running node: a lower threshold (`BAN_BAD_TX`) bans sooner and the ban ends after
 * `BAN_TIME`. The defaults (5 in 5 minutes, 15 minutes) are covered in transactions.e2e.ts, bans turned off
 * in key-bans-off.e2e.ts (one node per file: the embedded database is one per process).
 */
const running = useTestNode({
  env: { BLOCK_SLOT_MS: '200', BAN_BAD_TX: '2', BAN_BAD_TIME: '1m', BAN_TIME: '2s' },
});

describe('key bans as configured', () => {
  it('BAN_BAD_TX=2, BAN_TIME=2s: the second bad transaction bans the key, for two seconds', async () => {
    const user = await newUser(running.node);
    await sendMalformed(user);
    expect((await sendGood(user, 'before_ban')).status).toBe(200);
    await sendMalformed(user);
    const banned = await sendGood(user, 'during_ban');
    expectRestError(banned, 403, 'E_BANNED', new RegExp(`^The key ${user.keyId} is banned till `));
    await sleep(2100);
    expect((await sendGood(user, 'after_ban')).status).toBe(200);
  });
});
