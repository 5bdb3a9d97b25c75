// Serves better-auth at /api/auth/* through Fastify: the request becomes a Fetch Request, the
// Response is copied back (every Set-Cookie kept). Hidden from the OpenAPI document.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../../config.ts'
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, type Auth } from './auth.ts'

export function mountAuth(app: FastifyInstance, auth: Auth, config: Config) {
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
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : undefined)
    },
  })
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
