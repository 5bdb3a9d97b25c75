// Idempotency-Key (DESIGN §3) for routes with `config.idempotent`: the key is scoped to
// (account, method, route): the route's pattern and its decoded parameters, so `/v1/%70rojects`
// and `/v1/projects` are the same route. The body's fingerprint is the hash of its canonical JSON
// (RFC 8785: key order does not matter). The first completed response is stored with a fingerprint of the body
// and replayed for 24 h with `Idempotent-Replayed: true`. Another body → 422; the same key while
// the first is still running → 409. The primary key makes concurrent duplicates run exactly once.
import canonicalize from 'canonicalize'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Database } from '../db/index.ts'
import { isUniqueViolation } from '../db/dialect.ts'
import { nowIso, sha256Hex } from '../ids.ts'
import { AppError } from './errors.ts'
import { appendRouteHook } from './route-hooks.ts'

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/

type Reservation = { account_id: string; method: string; route: string; key: string }
const reservations = new WeakMap<FastifyRequest, Reservation>()

/** The route pattern with its decoded path parameters, e.g. `/v1/projects/:projectId {"projectId":"prj_1"}`. */
function routeScope(request: FastifyRequest) {
  const params = request.params as Record<string, string> | undefined
  const hasParams = params !== undefined && params !== null && Object.keys(params).length > 0
  const scope = `${request.routeOptions.url ?? request.url.split('?')[0]}${hasParams ? ` ${canonicalize(params)}` : ''}`
  // Kept short enough for a primary-key index whatever the parameters' length.
  return scope.length > 512 ? `sha256:${sha256Hex(scope)}` : scope
}

export function registerIdempotency(app: FastifyInstance, database: Database) {
  const { db } = database

  // Only the routes with `config.idempotent` get these hooks (as they are registered): the others
  // pay nothing per request.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return
    appendRouteHook(route, 'preHandler', reserveKey)
    appendRouteHook(route, 'onSend', storeAnswer)
  })

  async function reserveKey(request: FastifyRequest, reply: FastifyReply) {
    if (!request.actor) return
    const key = request.headers['idempotency-key']
    if (key === undefined) return
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new AppError('validation_failed', 'Idempotency-Key must be 1–255 visible ASCII characters.', {
        errors: [{ field: 'Idempotency-Key', code: 'format', message: 'must be 1–255 visible ASCII characters' }],
      })
    }
    const scope: Reservation = { account_id: request.actor.accountId, method: request.method, route: routeScope(request), key }
    const fingerprint = sha256Hex(canonicalize(request.body ?? null) ?? 'null')
    const stored = await reserve(scope, fingerprint)
    if (!stored) {
      reservations.set(request, scope)
      return
    }
    if (stored.fingerprint !== fingerprint) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.')
    }
    if (stored.state === 'in-flight') {
      throw new AppError('idempotency_in_flight', 'A request with this Idempotency-Key is still being processed; retry shortly.', {
        headers: { 'Retry-After': '1' },
      })
    }
    return reply.code(stored.status_code ?? 200).header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8').serializer((payload: unknown) => payload as string)
      .send(stored.response_body ?? '')
  }

  async function storeAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const scope = reservations.get(request)
    if (!scope) return payload
    reservations.delete(request)
    const where = db.updateTable('idempotency_keys')
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      // A failed attempt must not pin the key: the client may retry it.
      await db.deleteFrom('idempotency_keys').where('account_id', '=', scope.account_id).where('method', '=', scope.method)
        .where('route', '=', scope.route).where('key', '=', scope.key).execute()
      return payload
    }
    await where.set({ state: 'completed', status_code: reply.statusCode, response_body: payload })
      .where('account_id', '=', scope.account_id).where('method', '=', scope.method)
      .where('route', '=', scope.route).where('key', '=', scope.key).execute()
    return payload
  }

  /** Inserts an in-flight row and returns undefined, or returns the row that already holds the key. */
  async function reserve(scope: Reservation, fingerprint: string) {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const now = new Date()
      try {
        await db.insertInto('idempotency_keys').values({
          ...scope, fingerprint, state: 'in-flight', status_code: null, response_body: null,
          created_at: now.toISOString(), expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
        }).execute()
        return undefined
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
      }
      const existing = await db.selectFrom('idempotency_keys').selectAll()
        .where('account_id', '=', scope.account_id).where('method', '=', scope.method)
        .where('route', '=', scope.route).where('key', '=', scope.key).executeTakeFirst()
      if (!existing) continue
      if (existing.expires_at > nowIso()) return existing
      await db.deleteFrom('idempotency_keys').where('account_id', '=', scope.account_id).where('method', '=', scope.method)
        .where('route', '=', scope.route).where('key', '=', scope.key).where('expires_at', '=', existing.expires_at).execute()
    }
    throw new AppError('idempotency_in_flight', 'Could not reserve the Idempotency-Key; retry shortly.', { headers: { 'Retry-After': '1' } })
  }
}
