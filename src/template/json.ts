import { goJsonString } from '../common/go-json';
import { goJsonFloat } from '../vm/format';
import type { AttrValue, TemplateNode } from './types';

/**
 * The tree as the reference's encoding/json writes it: node fields in the order tag, attr, text, children,
 * tail, each left out when empty; attribute maps (plain objects) with sorted keys at every level, structs
 * (`Map`s) in field order; `<`, `>`, `&` escaped. Page hashes are taken over these exact bytes.
 */
export function treeToJson(nodes: readonly TemplateNode[]): string {
  return nodesJson(nodes);
}

// Strings are built by concatenation (V8 joins the pieces once, when the text is read): half the time of
// pushing the pieces to an array and joining it.
function nodesJson(nodes: readonly TemplateNode[]): string {
  let out = '[';
  for (let index = 0; index < nodes.length; index++) {
    if (index > 0) out += ',';
    out += nodeJson(nodes[index]);
  }
  return out + ']';
}

/** The JSON of shared, frozen nodes (static fragments), written once. */
const frozenJson = new WeakMap<TemplateNode, string>();

/** Freezes a node and everything in it, and keeps its JSON: it is shared by every tree it is put in. */
export function freezeNode(node: TemplateNode): TemplateNode {
  deepFreeze(node);
  // Kept as one flat string: a concatenation would be walked piece by piece in every page that holds it.
  frozenJson.set(node, Buffer.from(nodeJson(node), 'utf8').toString('utf8'));
  return node;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of value instanceof Map ? value.values() : Object.values(value)) deepFreeze(item);
}

function nodeJson(node: TemplateNode): string {
  const frozen = frozenJson.get(node);
  if (frozen !== undefined) return frozen;
  let out = '{"tag":' + goJsonString(node.tag);
  const attr = valueJson(node.attr);
  if (attr !== '{}') out += ',"attr":' + attr;
  if (node.text) out += ',"text":' + goJsonString(node.text);
  if (node.children && node.children.length > 0) out += ',"children":' + nodesJson(node.children);
  if (node.tail && node.tail.length > 0) out += ',"tail":' + nodesJson(node.tail);
  return out + '}';
}

/** Go's map key order: bytewise on UTF-8, which for these keys is the code-unit order. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function valueJson(value: AttrValue | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number') return goJsonFloat(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) out += ',';
      out += valueJson(value[index]);
    }
    return out + ']';
  }
  let out = '{';
  let first = true;
  if (value instanceof Map) {
    for (const [key, item] of value) {
      if (item === undefined) continue;
      if (!first) out += ',';
      first = false;
      out += goJsonString(key) + ':' + valueJson(item);
    }
  } else {
    const keys = Object.keys(value);
    if (keys.length > 1) keys.sort(byteOrder);
    for (const key of keys) {
      if (!first) out += ',';
      first = false;
      out += goJsonString(key) + ':' + valueJson(value[key]);
    }
  }
  return out + '}';
}

/** One value as Go JSON (for composite data and the custom-column cells). */
export function valueToJson(value: AttrValue): string {
  return valueJson(value);
}
