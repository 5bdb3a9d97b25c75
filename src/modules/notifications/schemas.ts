// TypeBox schemas of the notifications module.
import { Type, type Static } from 'typebox'
import { NextCursor, PageQuery } from '../../platform/http/pagination.ts'

const Timestamp = Type.String({ format: 'date-time' })
const Id = Type.String({ minLength: 1, maxLength: 80 })

export const CollaborationNotification = Type.Object({
  id: Type.String(),
  kind: Type.String({ description: 'invitation.accepted, project.added; later: assignment, review and comment kinds.' }),
  workspaceId: Type.String(),
  actor: Type.Optional(Type.Object({ accountId: Type.String(), name: Type.Optional(Type.String()) })),
  subjectType: Type.Optional(Type.String()),
  subjectId: Type.Optional(Type.String()),
  data: Type.Record(Type.String(), Type.Unknown()),
  read: Type.Boolean(),
  readAt: Type.Optional(Timestamp),
  createdAt: Timestamp,
}, { $id: 'CollaborationNotification' })

export const NotificationsQuery = Type.Object({
  unread: Type.Optional(Type.Boolean({ description: 'true: only unread notifications.' })),
  ...PageQuery,
})

export const NotificationList = Type.Object({
  notifications: Type.Array(Type.Ref('CollaborationNotification'), { description: 'Newest first.' }),
  unreadCount: Type.Integer({ minimum: 0 }),
  nextCursor: NextCursor,
})

export const MarkReadBody = Type.Union([
  Type.Object({ all: Type.Literal(true) }, { additionalProperties: false }),
  Type.Object({ notificationIds: Type.Array(Id, { minItems: 1, maxItems: 200, uniqueItems: true }) }, { additionalProperties: false }),
], { description: '`{all: true}` marks every notification read; `{notificationIds}` marks those (ids not yours are ignored).' })

export const MarkReadResult = Type.Object({
  updated: Type.Integer({ minimum: 0, description: 'How many notifications changed from unread to read.' }),
  unreadCount: Type.Integer({ minimum: 0 }),
})

export type NotificationsInput = Static<typeof NotificationsQuery>
export type MarkReadInput = Static<typeof MarkReadBody>

export const notificationSchemas = [CollaborationNotification]
