import { Injectable } from '@nestjs/common';

/** 5 bad transactions within 5 minutes ban a key for 15 minutes (the reference's BanKey defaults). */
export const BAD_TX_LIMIT = 5;
export const BAD_TX_WINDOW_MS = 5 * 60_000;
export const BAN_DURATION_MS = 15 * 60_000;

/**
 * Keys whose transactions keep failing are refused for a while. Kept in memory per node, as the
 * reference does: a ban protects this node's admission work, not the chain.
 */
@Injectable()
export class KeyBans {
  private readonly strikes = new Map<bigint, number[]>();
  private readonly bannedUntil = new Map<bigint, number>();

  /** The clock; unit tests replace it. */
  now: () => number = Date.now;

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

  /** Counts one bad transaction of the key; the fifth within the window bans it. */
  strike(keyId: bigint): void {
    if (keyId === 0n) return;
    const now = this.now();
    const recent = (this.strikes.get(keyId) ?? []).filter((time) => time > now - BAD_TX_WINDOW_MS);
    recent.push(now);
    if (recent.length >= BAD_TX_LIMIT) {
      this.bannedUntil.set(keyId, now + BAN_DURATION_MS);
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
