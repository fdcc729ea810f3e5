import { NotificationEntity } from './notification.entity';

export { NotificationEntity };

export const NOTIFY_ENTITIES = [NotificationEntity];
