/**
 * Node-to-node requests are signed with the sender's node key: the request line, the time and a hash
 * of the body, so that a request cannot be altered, sent for another path, or replayed much later.
 */
import { bytesOfHex, hexOf } from '../chain/codec';
import { bareKey } from '../chain/honor-nodes';
import { publicKeyHex04, utf8, type Hasher, type Signer } from '../crypto';

export const NODE_KEY_HEADER = 'x-ibax-node-key';
export const NODE_TIME_HEADER = 'x-ibax-node-time';
export const NODE_SIGN_HEADER = 'x-ibax-node-sign';

/** How far a request's time may be from the receiver's clock. */
export const REQUEST_TIME_WINDOW_MS = 60_000;

export interface NodeSigningKey {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

function signedText(method: string, pathAndQuery: string, timeMs: string, body: Uint8Array, hasher: Hasher) {
  return utf8(`${method.toUpperCase()} ${pathAndQuery}\n${timeMs}\n${hexOf(hasher.hash(body))}`);
}

/** The headers that sign a request. */
export function signRequest(
  signer: Signer,
  hasher: Hasher,
  key: NodeSigningKey,
  method: string,
  pathAndQuery: string,
  body: Uint8Array,
  nowMs = Date.now(),
): Record<string, string> {
  const time = String(nowMs);
  const signature = signer.sign(key.privateKey, signedText(method, pathAndQuery, time, body, hasher));
  return {
    [NODE_KEY_HEADER]: publicKeyHex04(key.publicKey),
    [NODE_TIME_HEADER]: time,
    [NODE_SIGN_HEADER]: hexOf(signature),
  };
}

/** Returns the sender's public key (128 hex digits) when the headers sign the request; why not otherwise. */
export function verifyRequest(
  signer: Signer,
  hasher: Hasher,
  headers: Record<string, string | string[] | undefined>,
  method: string,
  pathAndQuery: string,
  body: Uint8Array,
  nowMs = Date.now(),
): { key: string } | { refused: string } {
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const key = header(NODE_KEY_HEADER);
  const time = header(NODE_TIME_HEADER);
  const sign = header(NODE_SIGN_HEADER);
  if (!key || !time || !sign) return { refused: 'the request is not signed by a node' };
  if (!/^\d{1,15}$/.test(time) || Math.abs(Number(time) - nowMs) > REQUEST_TIME_WINDOW_MS) {
    return { refused: 'the request time is too far from this node’s clock' };
  }
  if (!/^(04)?[0-9a-f]{128}$/i.test(key) || !/^[0-9a-f]{128,146}$/i.test(sign)) {
    return { refused: 'the node key or signature is not hex of the right length' };
  }
  try {
    signer.verify(
      bytesOfHex(bareKey(key)),
      signedText(method, pathAndQuery, time, body, hasher),
      bytesOfHex(sign),
    );
  } catch {
    return { refused: 'the node signature does not verify' };
  }
  return { key: bareKey(key) };
}
