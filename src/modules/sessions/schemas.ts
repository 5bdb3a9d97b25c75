import { Type, type Static } from 'typebox'
import { NextCursor, PageQuery } from '../../platform/http/pagination.ts'
import { CAPTURE_MODES, SESSION_STATES } from '../../domain/vocabulary.ts'
import { literals } from '../../platform/http/enums.ts'

const Timestamp = Type.String({ format: 'date-time' })
const Id = (prefix: string) => Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{1,64}$`, maxLength: 80 })

export const CaptureMode = literals(CAPTURE_MODES)
export const SessionState = literals(SESSION_STATES, {
  description: 'recording → processing → ready | failed',
})

export const SessionSnapshot = Type.Object({
  id: Type.String(),
  state: SessionState,
  captureMode: CaptureMode,
  title: Type.String(),
  projectId: Type.Optional(Type.String()),
  conversationId: Type.String(),
  startedAt: Timestamp,
  endedAt: Type.Optional(Timestamp),
  archivedAt: Type.Optional(Timestamp),
  chunkCount: Type.Integer({ description: 'Audio chunks stored so far.' }),
  audioBytes: Type.Integer({ description: 'Bytes of audio stored so far.' }),
  failureReason: Type.Optional(Type.String()),
  transcriptionEngine: Type.Union([Type.Literal('openai'), Type.Literal('whisper'), Type.Literal('moonshine'), Type.Literal('pocketsphinx'), Type.Literal('client')], {
    description: 'What turns this session\'s audio into text: a server engine, or `client` (the client pushes `transcript.segment` messages; uploaded audio is stored but not transcribed).',
  }),
  transcriptEndMs: Type.Optional(Type.Integer({ minimum: 0, description: 'How far its final transcript reaches (ms from the start), in lists and reads of sessions: the meeting lasted at least this long, whatever `endedAt` says (an uploaded recording starts and ends within a second). Absent without a transcript.' })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'SessionSnapshot' })

export const SessionParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 80 }) })

export const CreateSessionBody = Type.Object({
  captureMode: CaptureMode,
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  projectId: Type.Optional(Id('prj')),
}, { additionalProperties: false })

/** A SessionSnapshot plus where to listen and whether an open session was reused. */
export const CreateSessionResult = Type.Object({
  ...SessionSnapshot.properties,
  websocketURL: Type.String({ description: 'The conversation\'s realtime channel (ws:// or wss://).' }),
  workWebsocketURL: Type.String({ description: 'The same channel with only work events (`?channel=work`).' }),
  reusedExisting: Type.Boolean({ description: 'True when the account already had this recording session and no new record was made.' }),
}, { $id: 'SessionCreateResult' })

export const ListSessionsQuery = Type.Object({
  projectId: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
  archived: Type.Optional(Type.Boolean({ default: false, description: 'false (default): sessions not archived; true: archived ones only.' })),
  ...PageQuery,
})

export const SessionList = Type.Array(Type.Ref('SessionSnapshot'), {
  description: 'Newest first. When more remain, the `X-Next-Cursor` response header holds the `cursor` of the next page.',
})

export const UpdateSessionBody = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  projectId: Type.Optional(Type.Union([Id('prj'), Type.Null()], { description: 'null removes the session from its project.' })),
  archived: Type.Optional(Type.Boolean()),
  expectedUpdatedAt: Type.Optional(Type.String({
    format: 'date-time', description: 'Refuse with 409 (carrying the current `updatedAt`) when the session changed since.',
  })),
}, { additionalProperties: false, minProperties: 1 })

export const AudioChunkResult = Type.Object({
  accepted: Type.Literal(true),
  chunkId: Type.String(),
  duplicate: Type.Boolean({ description: 'True when a chunk with this id was already stored; nothing new was stored.' }),
  sequence: Type.Integer({ description: 'The chunk\'s place in the session\'s audio.' }),
})

export const AudioChunkRecord = Type.Object({
  chunkId: Type.String(),
  sequence: Type.Integer(),
  contentType: Type.String(),
  byteSize: Type.Integer(),
  sha256: Type.String(),
  receivedAt: Timestamp,
}, { $id: 'AudioChunk' })

export const ChunkParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 80 }), chunkId: Type.String({ minLength: 1, maxLength: 128 }) })

export const ListChunksQuery = Type.Object({ ...PageQuery })

export const ChunkList = Type.Object({ chunks: Type.Array(Type.Ref('AudioChunk')), nextCursor: NextCursor })

export type CreateSessionInput = Static<typeof CreateSessionBody>
export type ListSessionsInput = Static<typeof ListSessionsQuery>
export type UpdateSessionInput = Static<typeof UpdateSessionBody>
export const sessionSchemas = [SessionSnapshot, CreateSessionResult, AudioChunkRecord]
