import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, type KeyBanSettings } from '../../config';

/**
 * Keys whose transactions keep failing are refused for a while: `BAN_BAD_TX` bad transactions within
 * `BAN_BAD_TIME` ban a key for `BAN_TIME` (5 in 5 minutes, 15 minutes: the reference's defaults);
 * `BAN_BAD_TX=0` turns bans off, for test networks that fail transactions on purpose. Kept in memory per
 * node, as the reference does: a ban protects this node's admission work, not the chain.
 */
@Injectable()
export class KeyBans {
  private readonly strikes = new Map<bigint, number[]>();
  private readonly bannedUntil = new Map<bigint, number>();
  private readonly settings: KeyBanSettings;

  /** The clock; unit tests replace it. */
  now: () => number = Date.now;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'keyBans'>) {
    this.settings = config.keyBans;
  }

  /** The time the key's ban ends, or undefined when it is not banned. */
  bannedTill(keyId: bigint): Date | undefined {
    const until = this.bannedUntil.get(keyId);
    if (until === undefined) return undefined;
    if (until <= this.now()) {
      this.bannedUntil.delete(keyId);
      return undefined;
    }
    return new Date(until);
  }

  /** Counts one bad transaction of the key; the last the limit allows within the window bans it. */
  strike(keyId: bigint): void {
    const { badTxLimit, windowMs, banMs } = this.settings;
    if (keyId === 0n || badTxLimit === 0) return;
    const now = this.now();
    const recent = (this.strikes.get(keyId) ?? []).filter((time) => time > now - windowMs);
    recent.push(now);
    if (recent.length >= badTxLimit) {
      this.bannedUntil.set(keyId, now + banMs);
      this.strikes.delete(keyId);
      return;
    }
    this.strikes.set(keyId, recent);
  }
}

/** Go's `2006-01-02 15:04:05` layout in local time, as the E_BANNED message writes the ban's end. */
export function formatBanTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}
