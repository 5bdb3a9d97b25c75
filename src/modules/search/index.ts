// Search: sessions by title and transcript. Other modules (answers) use anySegmentHits(database,
// workspaceId, words): the workspace's segments holding any of the words, ranked by the full-text index; segmentFrequencies: in how many segments each word is (bounded, cached).
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { searchSessions } from './service.ts'

export { anySegmentHits, FREQUENT, segmentFrequencies, type SegmentHit } from '../transcripts/index.ts'

const SearchResult = Type.Object({
  query: Type.String(),
  sessions: Type.Array(Type.Object({
    search: Type.Object({
      score: Type.Number({ description: 'Higher is better; comparable within one answer only.' }),
      matchedIn: Type.Union([Type.Literal('title'), Type.Literal('transcript')]),
      snippet: Type.String({ description: 'HTML-escaped text of the best match with each term wrapped in <mark>…</mark>.' }),
      segmentId: Type.Optional(Type.String({ description: 'The transcript segment the snippet comes from.' })),
    }),
  }, { additionalProperties: true, description: 'A SessionSnapshot plus `search`.' })),
})

function routes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  app.get('/v1/search/sessions', {
    schema: {
      operationId: 'searchSessions', tags: [TAGS.sessions],
      summary: 'Sessions of the workspace whose title or transcript contains every word of `q` (case-insensitive substrings; Chinese works without spaces), best first, with a highlighted snippet. Archived sessions only with `archived=true`.',
      querystring: Type.Object({
        q: Type.String({ minLength: 1, maxLength: 200 }),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
        archived: Type.Optional(Type.Boolean({ default: false })),
      }),
      response: { 200: SearchResult, ...problems(400, 401, 403, 429) },
    },
    config: { access: 'view' },
  }, (request) => searchSessions(deps, memberOf(request).membership, request.query))
}

export function searchModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => routes(app, deps)
}
