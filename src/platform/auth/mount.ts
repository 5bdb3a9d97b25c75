// Serves better-auth at /api/auth/* (and Confer's GET /api/auth/providers) through Fastify: the request becomes a Fetch Request, the
// Response is copied back (every Set-Cookie kept). Hidden from the OpenAPI document. An error
// answer becomes problem+json like every other error of the API: better-auth's `code`
// (INVALID_OTP …) lowercased, its message as `detail` (docs/errors.md).
import formbody from '@fastify/formbody'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../../config.ts'
import { untrustedOriginDetail } from '../http/origins.ts'
import { PROBLEM_CONTENT_TYPE, problemTitle } from '../http/problem.ts'
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, type Auth } from './auth.ts'
import { signInProviders } from './providers.ts'

export async function mountAuth(app: FastifyInstance, auth: Auth, config: Config) {
  await app.register(async (scope) => authRoutes(scope, auth, config))
}

// Form-encoded bodies (an identity provider's `form_post` callback) are parsed here only: the
// scope is encapsulated, so every other route takes JSON and refuses a form with 415.
async function authRoutes(app: FastifyInstance, auth: Auth, config: Config) {
  await app.register(formbody)
  // The configured external identity providers (providers.ts); public, the same for everyone.
  const providers = { providers: signInProviders(config) }
  app.get(`${AUTH_BASE_PATH}/providers`, { schema: { hide: true }, config: { access: 'public' } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(providers))
  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    schema: { hide: true },
    config: { access: 'public' },
    async handler(request, reply) {
      const response = await auth.handler(toFetchRequest(request, config))
      reply.code(response.status)
      for (const [name, value] of response.headers) {
        if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value)
      }
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) reply.header('set-cookie', cookies)
      if (response.status >= 400) {
        const problem = await toProblem(request, response, config)
        return reply.type(PROBLEM_CONTENT_TYPE).serializer(JSON.stringify).send(problem)
      }
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : undefined)
    },
  })
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'validation_failed', 401: 'unauthenticated', 403: 'forbidden', 404: 'route_not_found', 405: 'method_not_allowed',
  413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited',
}

async function toProblem(request: FastifyRequest, response: Response, config: Config) {
  const text = await response.text()
  let parsed: { code?: unknown; message?: unknown } = {}
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object') parsed = value as typeof parsed
  } catch {
    // a plain-text answer ("Not Found"): its status says enough
  }
  const status = response.status
  const authCode = typeof parsed.code === 'string' && /^[A-Z0-9_]{1,64}$/.test(parsed.code) ? parsed.code.toLowerCase() : undefined
  const code = authCode ?? CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'validation_failed')
  const path = request.url.split('?')[0]!
  const origin = request.headers.origin
  const detail = code === 'invalid_origin' ? untrustedOriginDetail(typeof origin === 'string' ? origin : undefined, config)
    : typeof parsed.message === 'string' && parsed.message
    ? parsed.message
    : status === 404 ? `No route ${request.method} ${path}.` : problemTitle(status)
  return {
    type: `urn:confer:problem:${code}`, title: problemTitle(status), status, detail, code, requestId: request.id, instance: path,
  }
}

function toFetchRequest(request: FastifyRequest, config: Config): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  headers.set(CLIENT_IP_HEADER, request.ip)
  headers.delete('content-length')
  const url = new URL(request.url, config.publicUrl.origin)
  return new Request(url, { method: request.method, headers, body: encodeBody(request) })
}

function encodeBody(request: FastifyRequest): string | undefined {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === undefined || request.body === null) return undefined
  if (typeof request.body === 'string') return request.body
  const type = request.headers['content-type'] ?? ''
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return new URLSearchParams(request.body as Record<string, string>).toString()
  }
  return JSON.stringify(request.body)
}
