import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the notify domain, declared once: the API description shows the counts as part of
 * `keyinfo`, and the service, the notification publisher, the live push and the SDK take their types from
 * here.
 */

/** Open notifications of one recipient: `role_id` "0" for those sent to the account itself. */
export const NOTIFICATION_COUNT = s.object({ role_id: s.string(), count: s.smallInteger() });
export type NotificationCount = ValueOf<typeof NOTIFICATION_COUNT>;

/**
 * One line of what a client's notification channel and a live `notifications` push carry: the open
 * notifications of one of its roles (role "0": its own) in an ecosystem.
 */
export type NotificationStat = { ecosystem: string } & NotificationCount;
