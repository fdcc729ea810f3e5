/**
 * Leader rotation of consensus mode 1 (formats.md §5.2): time since the first block is cut into slots of
 * equal length, and slot q belongs to the honor node at position q mod n. Kept in milliseconds so that
 * a test or benchmark can run slots shorter than the reference's whole seconds.
 */
export interface SlotClock {
  /** First block time, ms. */
  startMs: number;
  slotMs: number;
  /** Active honor nodes (at least 1). */
  nodes: number;
}

export function slotAt(clock: SlotClock, nowMs: number): number {
  return Math.floor((nowMs - clock.startMs) / clock.slotMs);
}

export function leaderOf(clock: SlotClock, slot: number): number {
  return ((slot % clock.nodes) + clock.nodes) % clock.nodes;
}

/** The next moment (ms) a slot of `position` starts, after `nowMs`. */
export function nextSlotStart(clock: SlotClock, nowMs: number, position: number): number {
  let slot = slotAt(clock, nowMs) + 1;
  while (leaderOf(clock, slot) !== position) slot++;
  return clock.startMs + slot * clock.slotMs;
}
