/**
 * Every malformed input the codec meets ends in this error, so callers (sendTx, the block parser)
 * can map "bad bytes from outside" to a client error without also catching programming errors.
 */
export class CodecError extends Error {
  override readonly name = 'CodecError';
}
