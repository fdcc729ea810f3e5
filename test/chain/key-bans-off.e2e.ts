import { describe, expect, it } from 'vitest';
import { useTestNode } from '../support/node';
import { newUser, sendGood, sendMalformed } from '../support/key-bans';

/** `BAN_BAD_TX=0`: bans off, for test networks whose suites fail transactions on purpose. */
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200', BAN_BAD_TX: '0' } });

describe('key bans turned off', () => {
  it('BAN_BAD_TX=0: a key is never banned, however many of its transactions fail', async () => {
    const user = await newUser(running.node);
    for (let i = 0; i < 8; i++) await sendMalformed(user);
    expect((await sendGood(user, 'never_banned')).status).toBe(200);
  });
});
