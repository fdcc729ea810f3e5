import { goJsonString } from '../common/go-json';
import { goJsonFloat } from '../vm/format';
import type { AttrValue, TemplateNode } from './types';

/**
 * The tree as the reference's encoding/json writes it: node fields in the order tag, attr, text, children,
 * tail, each left out when empty; attribute maps (plain objects) with sorted keys at every level, structs
 * (`Map`s) in field order; `<`, `>`, `&` escaped. Page hashes are taken over these exact bytes.
 */
export function treeToJson(nodes: readonly TemplateNode[]): string {
  const out: string[] = [];
  writeNodes(nodes, out);
  return out.join('');
}

function writeNodes(nodes: readonly TemplateNode[], out: string[]): void {
  out.push('[');
  nodes.forEach((node, index) => {
    if (index > 0) out.push(',');
    writeNode(node, out);
  });
  out.push(']');
}

function writeNode(node: TemplateNode, out: string[]): void {
  out.push('{"tag":', goJsonString(node.tag));
  if (Object.keys(node.attr).length > 0) {
    out.push(',"attr":');
    writeValue(node.attr, out);
  }
  if (node.text) out.push(',"text":', goJsonString(node.text));
  if (node.children && node.children.length > 0) {
    out.push(',"children":');
    writeNodes(node.children, out);
  }
  if (node.tail && node.tail.length > 0) {
    out.push(',"tail":');
    writeNodes(node.tail, out);
  }
  out.push('}');
}

/** Go's map key order: bytewise on UTF-8, which for these keys is the code-unit order. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function writeValue(value: AttrValue | undefined, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
  } else if (typeof value === 'string') {
    out.push(goJsonString(value));
  } else if (typeof value === 'number') {
    out.push(goJsonFloat(value));
  } else if (typeof value === 'boolean') {
    out.push(value ? 'true' : 'false');
  } else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, index) => {
      if (index > 0) out.push(',');
      writeValue(item, out);
    });
    out.push(']');
  } else if (value instanceof Map) {
    out.push('{');
    let first = true;
    for (const [key, item] of value) {
      if (item === undefined) continue;
      if (!first) out.push(',');
      first = false;
      out.push(goJsonString(key), ':');
      writeValue(item, out);
    }
    out.push('}');
  } else {
    out.push('{');
    Object.keys(value)
      .sort(byteOrder)
      .forEach((key, index) => {
        if (index > 0) out.push(',');
        out.push(goJsonString(key), ':');
        writeValue(value[key], out);
      });
    out.push('}');
  }
}

/** One value as Go JSON (for composite data and the custom-column cells). */
export function valueToJson(value: AttrValue): string {
  const out: string[] = [];
  writeValue(value, out);
  return out.join('');
}
