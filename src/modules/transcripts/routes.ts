// GET /v1/sessions/{sessionId}/transcript: a session's segments in time order, with its speakers.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { notFound } from '../../platform/http/errors.ts'
import { decodeCursor, NextCursor, PageQuery, paginate } from '../../platform/http/pagination.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { findSessionRow } from '../sessions/index.ts'
import { presentSegment, presentSpeaker } from './presenter.ts'
import * as repo from './repo.ts'

export const TranscriptSegment = Type.Object({
  id: Type.String(),
  sessionId: Type.String(),
  startMs: Type.Integer({ description: 'From the start of the session\'s audio.' }),
  endMs: Type.Integer(),
  speakerId: Type.Optional(Type.String({ description: 'Stable within the session (spk_1, spk_2, … by first appearance; client ids as sent).' })),
  speakerLabel: Type.Optional(Type.String({ description: 'The speaker\'s current label: a name once identified or named by a person, else "Speaker N" (as in `speakers`).' })),
  text: Type.String(),
  status: Type.Union([Type.Literal('partial'), Type.Literal('final')], { description: 'A partial becomes final under the same id.' }),
  source: Type.Union([Type.Literal('server'), Type.Literal('client')]),
  engine: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  confidence: Type.Optional(Type.Number()),
  words: Type.Optional(Type.Array(Type.Object({
    word: Type.String(), startMs: Type.Integer(), endMs: Type.Integer(), confidence: Type.Optional(Type.Number()),
  }))),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
}, { $id: 'TranscriptSegment' })

const Transcript = Type.Object({
  sessionId: Type.String(),
  segments: Type.Array(Type.Ref('TranscriptSegment')),
  speakers: Type.Array(Type.Object({
    speakerId: Type.String(), label: Type.String(), pitchHz: Type.Optional(Type.Integer()),
    voice: Type.Optional(Type.Object({
      state: Type.Union([Type.Literal('named'), Type.Literal('suggested'), Type.Literal('unnamed'), Type.Literal('opted-out')]),
      identityId: Type.Optional(Type.String()),
      suggestion: Type.Optional(Type.Object({ identityId: Type.String(), displayName: Type.String(), score: Type.Number() }, {
        description: 'A near match a person confirms: PATCH /v1/workspace/voice-identities/{identityId} with `confirmSpeaker` (or `declineSpeaker`).',
      })),
    }, { description: 'What voice recognition says of this speaker (docs/voice.md), when it has a voiceprint.' })),
  })),
  nextCursor: NextCursor,
})

export function transcriptRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  app.addSchema(TranscriptSegment)
  app.get('/v1/sessions/:sessionId/transcript', {
    schema: {
      operationId: 'getSessionTranscript', tags: [TAGS.sessions],
      summary: 'The session\'s transcript in time order (final segments, plus the partial one still being spoken unless `status=final`), and its speakers. Paginated by `cursor`.',
      params: Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 80 }) }),
      querystring: Type.Object({ ...PageQuery, status: Type.Optional(Type.Union([Type.Literal('final'), Type.Literal('all')], { default: 'all' })) }),
      response: { 200: Transcript, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, async (request) => {
    const { membership } = memberOf(request)
    const { sessionId } = request.params
    if (!await findSessionRow(deps.database.db, membership.workspaceId, sessionId)) return notFound('session', sessionId)
    const limit = request.query.limit ?? 50
    const rows = await repo.listSegments(deps.database.db, sessionId, {
      after: decodeCursor(request.query.cursor, ['integer', 'string']), limit, ...(request.query.status === 'final' ? { status: 'final' as const } : {}),
    })
    const page = paginate(rows, limit, (row) => [row.start_ms, row.id])
    const speakers = await repo.listSpeakers(deps.database.db, sessionId)
    const labels = new Map(speakers.map((speaker) => [speaker.speaker_id, speaker.label]))
    const voices = await deps.ports.voiceprints?.speakerVoices(deps.database.db, membership.workspaceId, sessionId)
    return {
      sessionId,
      segments: page.items.map((row) => {
        const label = row.speaker_id ? labels.get(row.speaker_id) : undefined
        return { ...presentSegment(row), ...(label ? { speakerLabel: label } : {}) }
      }),
      speakers: speakers.map((speaker) => {
        const voice = voices?.get(speaker.speaker_id)
        return { ...presentSpeaker(speaker), ...(voice ? { voice } : {}) }
      }),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    }
  })
}
