// PATCH /v1/sessions/{sessionId}/workset: the work set's follow-up actions (workset-actions.ts).
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { TakeoverResponse, WorkSetPatchBody } from './followup-schemas.ts'
import * as schemas from './schemas.ts'
import { patchWorkSet } from './workset-actions.ts'

export function worksetRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  app.patch('/v1/sessions/:sessionId/workset', {
    schema: {
      operationId: 'patchSessionWorkSet', tags: [TAGS.work],
      summary: 'Settle a clarify item, confirm or reject a relation, or derive the takeover summary again (after a failure, or at the current revision). Answers the takeover summary with takeoverState; a repeated idempotencyKey replays the first answer.',
      params: schemas.SessionParams, body: WorkSetPatchBody,
      response: { 200: TakeoverResponse, ...problems(400, 401, 403, 404, 409, 422, 429) },
    },
    config: { access: 'edit' },
  }, async (request, reply) => {
    const answer = await patchWorkSet(deps, memberOf(request), request.params.sessionId, request.body)
    if (answer.replayed) reply.header('idempotent-replayed', 'true')
    return answer
  })
}
