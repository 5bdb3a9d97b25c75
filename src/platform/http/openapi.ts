// The OpenAPI 3.1.1 document is generated from the route schemas: GET /v1/openapi.json, and a
// reference page at /docs. Public routes get `security: []`; everything else needs CookieAuth.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config.ts'
import { COOKIE_PREFIX } from '../auth/auth.ts'
import { ProblemSchema } from './problem.ts'

export const API_VERSION = '1.0.0'

export async function registerOpenApi(app: FastifyInstance, config: Config) {
  app.addSchema(ProblemSchema)
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...route.config, access: 'public' }
    if (route.config?.access === 'public' && route.schema && !route.schema.hide) {
      route.schema = { ...route.schema, security: [] }
    }
  })
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.1',
      info: {
        title: 'Confer',
        version: API_VERSION,
        description: 'Capture meetings and turn them into tracked work. Errors are RFC 9457 problem+json (see the Problem schema); ' +
          'every /v1 path is also served under /api/v1 on the web origin.',
      },
      servers: [{ url: config.publicBase }],
      components: {
        securitySchemes: {
          CookieAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: `${config.secureCookies ? '__Secure-' : ''}${COOKIE_PREFIX}.session_token`,
            description: 'Session cookie set by the sign-in endpoints under /api/auth.',
          },
        },
      },
      security: [{ CookieAuth: [] }],
    },
    // @fastify/websocket hides its routes from the document; a realtime route with an operationId
    // is part of the API (GET /v1/conversations/{conversationId}/events), so it is listed.
    transform: ({ schema, url, route }) => (
      (route as { websocket?: boolean }).websocket && schema?.operationId ? { schema: { ...schema, hide: false }, url } : { schema, url }
    ),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
  })
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } })
  app.get('/v1/openapi.json', {
    schema: { hide: true },
    config: { access: 'public', rateLimit: false },
  }, async () => app.swagger())
}
