// The work of many sessions in one read (the web client's work board): before it, the board asked
// for each session's work sets and then each set's detail, two requests and more per meeting
// (≈100 for the 50 most recent). Objects as a work set detail lists them (rejected proposals left
// out), of the caller's workspace only; ids of other workspaces' sessions simply find nothing.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { badRequest } from '../../platform/http/errors.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { presentWorkObject } from './presenter.ts'
import { listSessionsObjects } from './repo.ts'

/** The most sessions one read names (the board shows the 50 most recent). */
export const MAX_BOARD_SESSIONS = 100

export function boardRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  app.get('/v1/workobjects', {
    schema: {
      operationId: 'listSessionsWorkObjects', tags: [TAGS.work],
      summary: `The work objects of the sessions named (comma-separated ids, at most ${MAX_BOARD_SESSIONS}), oldest first, as their work sets list them: rejected proposals are left out.`,
      querystring: Type.Object({ sessionIds: Type.String({ minLength: 1, maxLength: MAX_BOARD_SESSIONS * 81 }) }),
      response: { 200: Type.Object({ workObjects: Type.Array(Type.Ref('WorkObject')) }), ...problems(400, 401, 403, 429) },
    },
    config: { access: 'view' },
  }, async (request) => {
    const ids = [...new Set(request.query.sessionIds.split(',').map((id) => id.trim()).filter(Boolean))]
    if (ids.length > MAX_BOARD_SESSIONS) throw badRequest('sessionIds', 'too_many', `At most ${MAX_BOARD_SESSIONS} sessions at once.`)
    const rows = await listSessionsObjects(deps.database.db, memberOf(request).membership.workspaceId, ids)
    return { workObjects: rows.map(presentWorkObject) }
  })
}
