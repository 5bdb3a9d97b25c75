// Session routes: schema, guard, one service call each.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { actorOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import * as schemas from './schemas.ts'
import { createSession, endSession, getSession, listSessions, retryProcessing, updateSession } from './service.ts'

const tags = [TAGS.sessions]
const Snapshot = Type.Ref('SessionSnapshot')

export function sessionRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post('/v1/sessions', {
    schema: {
      operationId: 'createSession', tags,
      summary: 'Start a capture session, or get back the account\'s open one (`reusedExisting: true`). Honours Idempotency-Key.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
      body: schemas.CreateSessionBody,
      response: { 200: Type.Ref('SessionCreateResult'), ...problems(400, 401, 402, 403, 409, 422, 429) },
    },
    config: { access: 'edit', idempotent: true },
  }, (request) => createSession(deps, actorOf(request), request.body))

  app.get('/v1/sessions', {
    schema: {
      operationId: 'listSessions', tags,
      summary: 'Sessions of the workspace, newest first; `X-Next-Cursor` carries the cursor of the next page.',
      querystring: schemas.ListSessionsQuery,
      response: {
        200: { ...schemas.SessionList, headers: { 'x-next-cursor': { type: 'string', description: 'Present when more sessions remain.' } } },
        ...problems(400, 401, 403, 429),
      },
    },
    config: { access: 'view' },
  }, async (request, reply) => {
    const page = await listSessions(deps, actorOf(request), request.query)
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor)
    return page.sessions
  })

  app.get('/v1/sessions/:sessionId', {
    schema: {
      operationId: 'getSession', tags,
      summary: 'One session\'s snapshot.',
      params: schemas.SessionParams,
      response: { 200: Snapshot, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => getSession(deps, actorOf(request), request.params.sessionId))

  app.patch('/v1/sessions/:sessionId', {
    schema: {
      operationId: 'updateSession', tags,
      summary: 'Rename a session, move it to a project or out of one, archive or restore it.',
      params: schemas.SessionParams,
      body: schemas.UpdateSessionBody,
      response: { 200: Snapshot, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => updateSession(deps, actorOf(request), request.params.sessionId, request.body))

  app.post('/v1/sessions/:sessionId/end', {
    schema: {
      operationId: 'endSession', tags,
      summary: 'Stop recording: the session moves to `processing` and its processing starts. 409 unless it is recording.',
      params: schemas.SessionParams,
      response: { 200: Snapshot, ...problems(401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => endSession(deps, actorOf(request), request.params.sessionId))

  app.post('/v1/sessions/:sessionId/retry', {
    schema: {
      operationId: 'retrySessionProcessing', tags,
      summary: 'Process a `failed` session again (transcription of what remains, then `ready`): it moves back to `processing`. 409 unless it failed.',
      params: schemas.SessionParams,
      response: { 200: Snapshot, ...problems(401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => retryProcessing(deps, actorOf(request), request.params.sessionId))
}
