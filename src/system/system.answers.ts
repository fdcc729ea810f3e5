import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the system domain that the service gives as they are, declared once as their schema: the
 * API description shows it, and the service takes its type from it (`ValueOf`).
 */

/** `network`, `getNetwork`: the network's id, the notification server, and the honor nodes. */
export const NETWORK = s.object({
  network_id: s.decimalString(),
  centrifugo_url: s.string(),
  test: s.boolean('a test chain'),
  private: s.boolean('a private chain'),
  honor_nodes: s.array(
    s.object({
      tcp_address: s.string('"" when absent'),
      api_address: s.string('"" when absent'),
      public_key: s.string('the entry\'s `public_key` as text, unchecked (normally hex); "" when absent'),
      unban_time: s.string('the entry\'s `unban_time` as text (Unix seconds); "0" when absent'),
      stopped: s.boolean('true only where the entry has `"stopped": true`'),
    }),
    'the honor nodes (platform parameter honor_nodes)',
  ),
});
export type NetworkInfo = ValueOf<typeof NETWORK>;
