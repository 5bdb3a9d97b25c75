// Notifications: each member's notifications (assignment, review requests and decisions, comments,
// accepted invitations), the unread count, marking read, and the member's own realtime stream
// (`GET /v1/collaboration/notifications/events`). Other modules notify people through `notify`,
// inside the transaction of the change that causes it. Owns the `notifications` table.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { notificationRoutes } from './routes.ts'
import { notificationSchemas } from './schemas.ts'

export { notify, type NewNotification, type NotificationKind } from './service.ts'

export function notificationsModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const schema of notificationSchemas) app.addSchema(schema)
    notificationRoutes(app, deps)
  }
}
