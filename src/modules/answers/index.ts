// Answers from stored material (DESIGN §8): transcript summaries (summary.ts) and questions answered
// over everything the asker may see (ask.ts: POST /v1/search/answer), both `extractive` by default
// and `grounded-ai` with a chat model, every claim citing its sources, `no-evidence` rather than a
// guess. It reads other modules through their index.ts (memory, search, transcripts, work) and
// exports nothing.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { summarizeForItem } from './summary.ts'
import { answerQuestion } from './ask.ts'
import { withSourceContext } from './source-context.ts'
import { warmSentenceModel } from './sentence-model.ts'
import { AnswerSource, SearchAnswer } from './schemas.ts'

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

function answerRoute(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  app.addSchema(AnswerSource)
  app.post('/v1/search/answer', {
    schema: {
      operationId: 'answerSearchQuestion', tags: [TAGS.sessions],
      summary: 'Answer a question over everything the asker may see in the workspace, or with `projectId` in that project (transcripts, work objects, project memory, bound external items, codebases), every sentence citing its sources, or `no-evidence`. `mode: grounded-ai` uses the configured chat model (a sentence citing no passage is dropped) and falls back to `extractive` without one. English and Chinese. Changes nothing: view members may ask.',
      body: Type.Object({
        query: Type.String({ minLength: 1, maxLength: 500 }),
        mode: Type.Optional(Type.Union([Type.Literal('extractive'), Type.Literal('grounded-ai')], { default: 'extractive' })),
        locale: Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('zh-Hans')])),
        projectId: Type.Optional(Type.String({ pattern: '^prj_[0-9A-Za-z]{1,64}$', maxLength: 80, description: 'Only this project\'s sources: its meetings\' transcripts, the work headed to it or captured in its meetings, its memory, external items and codebases. 404 when the workspace has no such project.' })),
      }, { additionalProperties: false }),
      response: { 200: SearchAnswer, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, async (request) => {
    const { membership } = memberOf(request)
    return withSourceContext(deps, membership.workspaceId, await answerQuestion(deps, membership, request.body, request.log))
  })
}

export function answersModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    // The learned sentence model, when on, loads while the server starts rather than on the first question.
    if (deps.config.answers.sentenceModel !== 'off') warmSentenceModel()
    routes(app, deps)
    answerRoute(app, deps)
  }
}
