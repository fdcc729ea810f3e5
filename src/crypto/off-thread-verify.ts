import { WorkerBatches } from '../threads/worker-batches';

/** One check: a 64-byte r‖s signature, a 32-byte digest and a 65-byte 04‖X‖Y public key. */
export interface SignatureCheck {
  signature: Uint8Array;
  digest: Uint8Array;
  publicKey: Uint8Array;
}

/**
 * A check's bytes in arrays of their own: a message copies a typed array's whole buffer, and a signature
 * or digest is often a view into a larger one (a transaction's bytes, Node's buffer pool).
 */
export function ownBytes(check: SignatureCheck): SignatureCheck {
  return {
    signature: Uint8Array.from(check.signature),
    digest: Uint8Array.from(check.digest),
    publicKey: Uint8Array.from(check.publicKey),
  };
}

/**
 * secp256k1 signature checks on a thread of their own. At saturation libsecp256k1's verify took 12.6 % of
 * the main thread (bench/README.md, issue 28), the thread that also runs the blocks; sent here, a client's
 * checks no longer hold up a block. The worker loads the same libsecp256k1 binding (`bindingPath`) and
 * applies the same rule as `inThread` (high S normalised first; an error is an invalid signature).
 */
export function offThreadVerifier(
  bindingPath: string,
  inThread: (signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array) => boolean,
): WorkerBatches<SignatureCheck, boolean> {
  return new WorkerBatches({
    source: `
const native = require(workerData);
function handle({ signature, digest, publicKey }) {
  try {
    return native.ecdsaVerify(native.signatureNormalize(signature), digest, publicKey);
  } catch {
    return false;
  }
}`,
    workerData: bindingPath,
    inThread: ({ signature, digest, publicKey }) => {
      try {
        return inThread(signature, digest, publicKey);
      } catch {
        return false;
      }
    },
  });
}
