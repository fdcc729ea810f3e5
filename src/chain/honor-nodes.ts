/**
 * The honor nodes of consensus mode 1 (formats.md §5.1–§5.2) as pure functions: which entries of the
 * platform parameter `honor_nodes` are valid, which are active at a time, and whose slot a time is in.
 * The producer (which slots are its own) and the block checker (whether a received block's producer was
 * the leader of its slot) share them, so both sides count slots the same way.
 */
import type { HonorNode } from './platform-parameters.service';
import { slotAt as coreSlotAt } from '../consensus/consensus-core';

/** A 64-byte public key as 128 hex digits, with or without the uncompressed-point prefix 04. */
const PUBLIC_KEY = /^(04)?[0-9a-f]{128}$/i;

/** Why a list cannot be the honor nodes (§5.1), one text per problem; empty when it can. */
export function honorNodeProblems(nodes: readonly HonorNode[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  nodes.forEach((node, index) => {
    const at = `honor node ${index}`;
    if (!PUBLIC_KEY.test(node.public_key)) problems.push(`${at}: public_key must be 64 bytes as hex`);
    if (node.tcp_address.trim() === '') problems.push(`${at}: tcp_address is empty`);
    if (!isHttpUrl(node.api_address)) problems.push(`${at}: api_address must be a URL with scheme and host`);
    if (!/^\d+$/.test(node.unban_time)) problems.push(`${at}: unban_time must be a whole number of seconds`);
    for (const [field, value] of [
      ['public_key', bareKey(node.public_key)],
      ['api_address', node.api_address],
      ['tcp_address', node.tcp_address],
    ] as const) {
      const first = seen.get(`${field} ${value}`);
      if (first !== undefined) problems.push(`${at}: the same ${field} as honor node ${first}`);
      else seen.set(`${field} ${value}`, index);
    }
  });
  return problems;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol !== '' && url.host !== '';
  } catch {
    return false;
  }
}

/** A public key as 128 lowercase hex digits (without 04). */
export function bareKey(publicKeyHex: string): string {
  const key = publicKeyHex.toLowerCase();
  return key.length === 130 && key.startsWith('04') ? key.slice(2) : key;
}

/** Whether a node is banned at `atSeconds` (a non-zero `unban_time` still in the future). */
export function isBanned(node: HonorNode, atSeconds: bigint): boolean {
  const until = /^\d+$/.test(node.unban_time) ? BigInt(node.unban_time) : 0n;
  return until > atSeconds;
}

/**
 * The nodes that take turns at `atSeconds`: neither stopped nor banned, in the list's order. A node's
 * position is its index here. With no list at all, the chain's first node alone (position 0) produces.
 */
export function activeHonorNodes(nodes: readonly HonorNode[], atSeconds: bigint): HonorNode[] {
  return nodes.filter((node) => !node.stopped && !isBanned(node, atSeconds));
}

/** The position of `publicKeyHex` among `nodes`, or -1. */
export function positionOf(nodes: readonly HonorNode[], publicKeyHex: string): number {
  const key = bareKey(publicKeyHex);
  return nodes.findIndex((node) => bareKey(node.public_key) === key);
}

/**
 * The slot clock: time since the first block cut into slots of `slotMs`, slot q belonging to position
 * q mod n. Milliseconds, so that a single node may run slots shorter than a second (tests, benchmarks).
 */
export interface SlotClock {
  /** First block time, ms. */
  startMs: number;
  slotMs: number;
  /** Active honor nodes (at least 1). */
  nodes: number;
}

/** The platform parameters a slot's length comes from. */
export const SLOT_PARAMETERS = ['max_block_generation_time', 'gap_between_blocks'] as const;

/**
 * A slot's length (ms) as the platform parameters set it (`max_block_generation_time` ms plus
 * `gap_between_blocks` s, 4 s with the defaults), or BLOCK_SLOT_MS when the node is configured with one.
 */
export function slotLengthMs(values: ReadonlyMap<string, string>, configuredMs?: number): number {
  if (configuredMs !== undefined) return configuredMs;
  const generation = Number(values.get('max_block_generation_time') ?? 2000);
  const gap = Number(values.get('gap_between_blocks') ?? 2);
  return Math.max(1, generation + gap * 1000);
}

/**
 * A slot length several nodes can agree on. A block carries whole seconds, so with more than one node a
 * slot must be whole seconds too: the slot of a block's time is then the slot it was made in.
 */
export function agreedSlotMs(slotMs: number, nodes: number): number {
  return nodes > 1 ? Math.max(1000, Math.ceil(slotMs / 1000) * 1000) : slotMs;
}

/** The slot under way at `nowMs`: the consensus core's rule, so that the node and the core never disagree. */
export function slotAt(clock: SlotClock, nowMs: number): number {
  return coreSlotAt(clock, nowMs);
}
