// Answers from stored material (DESIGN §8): transcript summaries now; search answers and project
// memory later, on the same extractive / grounded-ai pattern.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { summarizeForItem } from './summary.ts'

const Point = Type.Object({ text: Type.String(), sourceSegmentIds: Type.Array(Type.String()) })
const SummaryResult = Type.Object({
  status: Type.Union([Type.Literal('answered'), Type.Literal('no-evidence')]),
  summary: Type.Object({
    text: Type.String({ description: 'Empty with no-evidence.' }),
    points: Type.Array(Point),
    sourceSegmentIds: Type.Array(Type.String({ description: 'Every segment the summary cites.' })),
  }),
  generatedBy: Type.Union([Type.Literal('grounded-ai'), Type.Literal('extractive')]),
})

function routes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  app.post('/v1/sessions/:sessionId/transcript-summary', {
    schema: {
      operationId: 'summarizeTranscriptForItem', tags: [TAGS.sessions],
      summary: 'What the transcript says about one item, anchored on the segment it came from, every point citing its segments. `grounded-ai` when a chat model is configured and its citations hold, else `extractive`; `no-evidence` rather than a guess. Changes nothing: view members may call it.',
      params: Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 80 }) }),
      body: Type.Object({
        segmentId: Type.String({ minLength: 1, maxLength: 160 }),
        itemText: Type.String({ minLength: 1, maxLength: 4000 }),
        locale: Type.Union([Type.Literal('en'), Type.Literal('zh-Hans')]),
      }, { additionalProperties: false }),
      response: { 200: SummaryResult, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => summarizeForItem(deps, memberOf(request).membership, request.params.sessionId, request.body))
}

export function answersModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => routes(app, deps)
}
