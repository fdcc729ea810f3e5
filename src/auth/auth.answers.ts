import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the auth domain, each declared once as its schema: the API description shows it, and the
 * service takes its types from it (`ValueOf`).
 */

const NETWORK_AND_CRYPTO = { network_id: s.decimalString(), cryptoer: s.string(), hasher: s.string() };

/** `getuid` without a session: the challenge to sign and its five-second token. */
export const GETUID_CHALLENGE = s.object({
  uid: s.decimalString(),
  token: s.string(),
  ...NETWORK_AND_CRYPTO,
});

/** `getuid` with a session: who it is and how long it lasts. */
export const GETUID_SESSION = s.object({
  expire: s.string('remaining time, Go duration text'),
  ecosystem_id: s.decimalString(),
  key_id: s.decimalString(),
  address: s.string(),
  ...NETWORK_AND_CRYPTO,
});

export type GetUidAnswer = ValueOf<typeof GETUID_CHALLENGE> | ValueOf<typeof GETUID_SESSION>;

export const LOGIN_ANSWER = s.object(
  {
    token: s.string('the session token (JWT)'),
    ecosystem_id: s.decimalString(),
    key_id: s.decimalString(),
    account: s.string(),
    notify_key: s.string(),
    isnode: s.boolean(),
    isowner: s.boolean(),
    clb: s.boolean(),
    timestamp: s.decimalString(),
    roles: s.array(s.object({ role_id: s.integer(), role_name: s.string() })),
  },
  { optional: ['roles'] },
);
export type LoginResult = ValueOf<typeof LOGIN_ANSWER>;

export const AUTH_STATUS = s.object(
  { active: s.boolean(), exp: s.integer('expiry, Unix seconds') },
  { optional: ['exp'] },
);
export type AuthStatus = ValueOf<typeof AUTH_STATUS>;
