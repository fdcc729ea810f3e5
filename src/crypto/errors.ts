/**
 * A failed key, signature or hash-input check. The message is the reference node's text
 * (e.g. `Incorrect sign`, `invalid parameters len(public) = 63`), because clients and the REST/RPC
 * layers show it as is.
 */
export class CryptoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CryptoError';
  }
}
