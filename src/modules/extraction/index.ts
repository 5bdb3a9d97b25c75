// Extraction: from transcript to work (issue 7). The engine (engine/) is pure; refine.ts runs it
// over a session's transcript into proposals (while recording and at the end), and the routes
// report the refinement and suggest projects for captured work.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { notFound } from '../../platform/http/errors.ts'
import { findSessionRow } from '../sessions/index.ts'
import './jobs.ts'
import { flagStaleWorkSets, presentRefinement, rebuildWorkSet } from './refine.ts'
import { suggestProjects } from './suggestions.ts'
import { countFinalSegments } from '../transcripts/index.ts'

export { REFINE_JOB, refineSession } from './refine.ts'
/** text helpers of the engine that answers reuse: sentence splitting and term vectors (en, zh-Hans) */
export { contentTokens, cosine, detectLanguage, splitSentences, termVector, type TermVector } from './engine/text.ts'
/** the pure engine, for answers to find the turn that settles a subject (a decision) near a passage */
export { extractItems } from './engine/extractive.ts'

const Suggestion = Type.Object({
  route: Type.Union([Type.Literal('project'), Type.Literal('inbox')]),
  projectId: Type.Optional(Type.String()),
  projectName: Type.Optional(Type.String()),
  score: Type.Optional(Type.Number({ description: 'TF-IDF cosine of the cited text and the project (0–1).' })),
  preselected: Type.Boolean({ description: 'The one item the client preselects: the closest project, or the inbox when none is close.' }),
  preselectedProjectId: Type.Optional(Type.String({ description: 'The preselected project, when one is close enough (the same on every item).' })),
}, { $id: 'MeetingWorkProjectSuggestion' })

function routes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  app.addSchema(Suggestion)
  app.post('/v1/sessions/:sessionId/workobjects/project-suggestions', {
    schema: {
      operationId: 'suggestProjectsForWork', tags: [TAGS.work],
      summary: 'Where captured work citing these segments belongs: the workspace\'s active projects ranked by likeness of the cited text to their name, objective, description and existing work, then the inbox. The closest project is `preselected` when close enough, else the inbox.',
      params: Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 80 }) }),
      body: Type.Object({ sourceSegmentIds: Type.Array(Type.String({ minLength: 1, maxLength: 160 }), { minItems: 1, maxItems: 200 }) }, { additionalProperties: false }),
      response: {
        200: Type.Array(Type.Ref('MeetingWorkProjectSuggestion'), {
          description: 'MeetingWorkProjectSuggestion[]: ranked projects (closest first), then the inbox.',
        }),
        ...problems(400, 401, 403, 404, 429),
      },
    },
    config: { access: 'edit' },
  }, (request) => suggestProjects(deps, memberOf(request).membership, request.params.sessionId, request.body.sourceSegmentIds))

  app.post('/v1/sessions/:sessionId/rebuild-workset', {
    schema: {
      operationId: 'rebuildWorkSet', tags: [TAGS.sessions],
      summary: 'Rebuild the session\'s work from its preserved transcript under the current quality gate: hidden items now above it are proposed, untouched proposals now below it withdrawn; accepted or edited work is never changed. Clears `needsRebuild`.',
      params: Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 80 }) }),
      response: {
        200: Type.Object({
          sessionId: Type.String(),
          proposed: Type.Integer({ description: 'Items hidden before and proposed now.' }),
          withdrawn: Type.Integer({ description: 'Untouched proposals the gate now hides.' }),
        }),
        ...problems(401, 403, 404, 429),
      },
    },
    config: { access: 'edit' },
  }, async (request) => {
    const { membership } = memberOf(request)
    const session = await findSessionRow(deps.database.db, membership.workspaceId, request.params.sessionId) ?? notFound('session', request.params.sessionId)
    return { sessionId: session.id, ...await rebuildWorkSet(deps, session.id) }
  })

  app.get('/v1/sessions/:sessionId/work-refinement', {
    schema: {
      operationId: 'getWorkRefinement', tags: [TAGS.sessions],
      summary: 'Where turning the transcript into work stands: `idle` (nothing run yet), `running`, `ready` or `failed`; the engine, the quality gate, segments processed of the final transcript, items found and items shown (at or above the gate).',
      params: Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 80 }) }),
      response: {
        200: Type.Object({
          sessionId: Type.String(),
          state: Type.Union([Type.Literal('idle'), Type.Literal('running'), Type.Literal('ready'), Type.Literal('failed')]),
          engine: Type.String(),
          qualityGate: Type.Number(),
          segmentsProcessed: Type.Integer(),
          segmentsTotal: Type.Integer({ description: 'Final segments of the transcript now.' }),
          progress: Type.Number({ description: 'segmentsProcessed / segmentsTotal (1 when there is nothing to do).' }),
          itemsFound: Type.Integer(),
          itemsVisible: Type.Integer(),
          lastRunAt: Type.Optional(Type.String({ format: 'date-time' })),
          lastError: Type.Optional(Type.String()),
          updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
        }),
        ...problems(401, 403, 404, 429),
      },
    },
    config: { access: 'view' },
  }, async (request) => {
    const { membership } = memberOf(request)
    const { db } = deps.database
    const session = await findSessionRow(db, membership.workspaceId, request.params.sessionId) ?? notFound('session', request.params.sessionId)
    const [row, total] = await Promise.all([
      db.selectFrom('work_refinements').selectAll().where('session_id', '=', session.id).executeTakeFirst(),
      countFinalSegments(db, session.id),
    ])
    const segmentsTotal = total
    const status = row ? presentRefinement(row) : {
      sessionId: session.id, state: 'idle' as const, engine: 'extractive', qualityGate: deps.config.extractionQualityGate,
      segmentsProcessed: 0, itemsFound: 0, itemsVisible: 0,
    }
    return { ...status, segmentsTotal, progress: segmentsTotal === 0 ? 1 : Math.min(1, status.segmentsProcessed / segmentsTotal) }
  })
}

export function extractionModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    // Outputs made under another quality gate than today's: their work sets need a rebuild. Best
    // effort and not awaited: a database that is down at start must not keep the server from
    // starting (and answering 503 on /healthz).
    flagStaleWorkSets(deps).catch((error: unknown) => app.log.warn({ err: error }, 'could not flag work sets made under another quality gate'))
    routes(app, deps)
  }
}
