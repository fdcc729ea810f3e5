import { describe, expect, it } from 'vitest';
import { KeyBans } from './key-bans';

function bans(badTxLimit: number, windowMs: number, banMs: number) {
  const keyBans = new KeyBans({ keyBans: { badTxLimit, windowMs, banMs } });
  let now = 1_000_000;
  keyBans.now = () => now;
  return { keyBans, advance: (ms: number) => (now += ms) };
}

describe('KeyBans: bad transactions within a window ban a key for a while', () => {
  it('bans at the limit within the window, for the ban time', () => {
    const { keyBans, advance } = bans(3, 60_000, 10_000);
    keyBans.strike(7n);
    keyBans.strike(7n);
    expect(keyBans.bannedTill(7n)).toBeUndefined();
    keyBans.strike(7n);
    expect(keyBans.bannedTill(7n)?.getTime()).toBe(1_000_000 + 10_000);
    advance(10_000);
    expect(keyBans.bannedTill(7n)).toBeUndefined();
  });

  it('forgets strikes older than the window', () => {
    const { keyBans, advance } = bans(2, 60_000, 10_000);
    keyBans.strike(7n);
    advance(60_001);
    keyBans.strike(7n);
    expect(keyBans.bannedTill(7n)).toBeUndefined();
  });

  it('never bans with a limit of 0, nor the key 0', () => {
    const off = bans(0, 60_000, 10_000).keyBans;
    for (let i = 0; i < 100; i++) off.strike(7n);
    expect(off.bannedTill(7n)).toBeUndefined();
    const on = bans(1, 60_000, 10_000).keyBans;
    on.strike(0n);
    expect(on.bannedTill(0n)).toBeUndefined();
  });
});
