/** The claims of our JWTs: all strings, as the reference's clients expect them. */
export interface TokenClaims {
  uid?: string;
  ecosystem_id?: string;
  key_id?: string;
  account_id?: string;
  role_id?: string;
  exp?: number;
}

export type TokenState = 'none' | 'valid' | 'expired' | 'invalid';

/** Who is calling, derived from the Authorization header once per request and shared by REST and RPC. */
export interface Caller {
  token: TokenState;
  /** A session token with a key id: the caller is logged in. A getuid token is valid but not logged in. */
  loggedIn: boolean;
  ecosystemId: bigint;
  keyId: bigint;
  accountId: string;
  roleId: bigint;
  claims?: TokenClaims;
  /** For an expired token: how long ago it expired, in nanoseconds (used in the error text). */
  expiredAgo?: bigint;
}

export const ANONYMOUS: Caller = Object.freeze({
  token: 'none',
  loggedIn: false,
  ecosystemId: 1n,
  keyId: 0n,
  accountId: '',
  roleId: 0n,
}) as Caller;
