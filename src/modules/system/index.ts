// System: the public health check that load balancers and operators poll.
import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { pingDatabase } from '../../platform/db/index.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { API_VERSION } from '../../platform/http/openapi.ts'

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  version: Type.String(),
  database: Type.Object({
    dialect: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
    reachable: Type.Boolean(),
  }),
  mail: Type.Union([Type.Literal('smtp'), Type.Literal('outbox')]),
  blobStore: Type.Union([Type.Literal('fs'), Type.Literal('database'), Type.Literal('s3')]),
  speech: Type.Object({
    engine: Type.Union([Type.Literal('openai'), Type.Literal('whisper'), Type.Literal('moonshine'), Type.Literal('pocketsphinx'), Type.Literal('client')], {
      description: '`client`: no server engine is available; only client-side segments are accepted.',
    }),
  }),
  uptimeSeconds: Type.Number(),
})

export function systemModule(deps: AppDeps): FastifyPluginAsync {
  const startedAt = Date.now()
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>()
    app.get('/healthz', {
      schema: {
        operationId: 'getHealth',
        tags: [TAGS.system],
        summary: 'Health check: 200 when the database answers, 503 when it does not.',
        response: { 200: Health, 503: Health },
      },
      config: { access: 'public', rateLimit: false },
    }, async (_request, reply) => {
      const reachable = await pingDatabase(deps.database.db)
      return reply.code(reachable ? 200 : 503).send({
        status: reachable ? 'ok' : 'unavailable',
        version: API_VERSION,
        database: { dialect: deps.database.dialect, reachable },
        mail: deps.mailer.delivers ? 'smtp' : 'outbox',
        blobStore: deps.blobs.kind,
        speech: { engine: deps.speech.mode },
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      })
    })
  }
}
