// Notification routes: the caller's own notifications in the active workspace.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppDeps } from '../../../app.ts'
import { memberOf } from '../../../platform/http/guards.ts'
import { problems } from '../../../platform/http/problem.ts'
import { TAGS } from '../../../platform/http/tags.ts'
import * as schemas from '../schemas.ts'
import { listNotifications, markNotificationsRead } from './service.ts'

const tags = [TAGS.workspace]

export function notificationRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/v1/collaboration/notifications', {
    schema: {
      operationId: 'listNotifications', tags,
      summary: 'The caller\'s notifications in the active workspace, newest first, with the unread count.',
      querystring: schemas.NotificationsQuery,
      response: { 200: schemas.NotificationList, ...problems(400, 401, 403, 429) },
    },
    config: { access: 'view' },
  }, (request) => listNotifications(deps, memberOf(request), request.query))

  // Read state is the caller's own, not workspace content: view members mark theirs read too.
  app.patch('/v1/collaboration/notifications', {
    schema: {
      operationId: 'markNotificationsRead', tags,
      summary: 'Mark all (`{all: true}`) or some (`{notificationIds}`) of the caller\'s notifications read.',
      body: schemas.MarkReadBody,
      response: { 200: schemas.MarkReadResult, ...problems(400, 401, 403, 429) },
    },
    config: { access: 'view' },
  }, (request) => markNotificationsRead(deps, memberOf(request), request.body))
}
