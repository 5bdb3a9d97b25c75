import { Type, type Static } from 'typebox'
import { NextCursor } from '../../platform/http/pagination.ts'

export const SharePermission = Type.Union([Type.Literal('read'), Type.Literal('comment')], {
  description: 'read: view the meeting; comment: also comment on its work objects.',
})

export const ShareLink = Type.Object({
  shareToken: Type.String(),
  shareURL: Type.String({ description: 'The web page of the link (PUBLIC_URL/share/{shareToken}).' }),
  permission: SharePermission,
  expiresAt: Type.String({ format: 'date-time' }),
}, { $id: 'ShareLink' })

export const SessionParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 80 }) })
export const ShareReadQuery = Type.Object({
  create: Type.Optional(Type.Boolean({ default: true, description: 'false: only read the live link; 204 with no body when there is none (nothing is created).' })),
})
export const TokenParams = Type.Object({ shareToken: Type.String({ minLength: 1, maxLength: 128 }) })

export const UpdateShareBody = Type.Object({
  permission: Type.Optional(SharePermission),
  expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'A future time within 365 days.' })),
  expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
}, { additionalProperties: false, minProperties: 1 })
export type UpdateShareBody = Static<typeof UpdateShareBody>

const ShareSegment = Type.Object({
  id: Type.String(),
  sessionId: Type.String(),
  startMs: Type.Integer(),
  endMs: Type.Integer(),
  speakerId: Type.Optional(Type.String()),
  text: Type.String(),
  status: Type.String(),
  source: Type.String(),
  language: Type.Optional(Type.String()),
}, { additionalProperties: true })

export const ShareTranscriptPage = Type.Object({
  segments: Type.Array(ShareSegment),
  nextCursor: NextCursor,
})

export const ShareComment = Type.Object({
  id: Type.String(),
  workObjectId: Type.String(),
  body: Type.String(),
  authorName: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
}, { $id: 'ShareComment' })

export const ShareView = Type.Object({
  session: Type.Object({}, { additionalProperties: true, description: 'SessionSnapshot of the shared session.' }),
  permission: SharePermission,
  comments: Type.Array(Type.Ref('ShareComment')),
  expiresAt: Type.String({ format: 'date-time' }),
  workObjects: Type.Array(Type.Object({}, { additionalProperties: true, description: 'WorkObject' }), { description: 'The session\'s work objects as they stand.' }),
  speakers: Type.Array(Type.Object({ speakerId: Type.String(), label: Type.String(), pitchHz: Type.Optional(Type.Integer()) })),
  transcript: ShareTranscriptPage,
})

export const ShareCommentBody = Type.Object({
  workObjectId: Type.String({ minLength: 1, maxLength: 80 }),
  body: Type.String({ minLength: 1, maxLength: 4000 }),
  authorName: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'How the commenter is shown; `Guest` when absent.' })),
}, { additionalProperties: false })

export const TranscriptQuery = Type.Object({ cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })) })

export const shareSchemas = [ShareLink, ShareComment]
