import { schema as s, type ValueOf } from '../api-docs/schema';
import { NOTIFICATION_COUNT } from '../notify/notify.answers';

/**
 * The answers of the ecosystem domain, each declared once as its schema: the API description shows it, and
 * the service takes its types from it (`ValueOf`).
 */

/** One ecosystem a key is registered in (`keyinfo`, `getKeyInfo`). */
export const KEY_ECOSYSTEM = s.object(
  {
    ecosystem: s.decimalString(),
    name: s.string(),
    digits: s.integer(),
    roles: s.array(s.object({ id: s.string(), name: s.string() })),
    notifications: s.array(NOTIFICATION_COUNT),
  },
  { optional: ['roles', 'notifications'] },
);
export type KeyInfoEcosystem = ValueOf<typeof KEY_ECOSYSTEM>;
export type KeyInfoRole = NonNullable<KeyInfoEcosystem['roles']>[number];

/** `ecosystemInfo`. */
export const ECOSYSTEM_INFO = s.object({
  id: s.integer(),
  name: s.string(),
  digits: s.integer(),
  token_symbol: s.string(),
  token_name: s.string(),
  total_amount: s.string(),
  is_withdraw: s.boolean(),
  withdraw: s.string(),
  is_emission: s.boolean(),
  emission: s.string(),
  introduction: s.string(),
  logo: s.integer(),
  creator: s.string(),
});
export type EcosystemInfo = ValueOf<typeof ECOSYSTEM_INFO>;
