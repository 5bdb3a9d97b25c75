// Enforces each route's `config.access`: 401 without a session, 403 without the workspace
// permission, and refuses cross-site state-changing requests that carry a cookie. The actor is
// resolved on request; the verdict is applied in preParsing, after the route's rate limit has
// counted the call, so that failing callers are limited too (and before any body is read).
// Resolved actors are cached briefly (auth/actor.ts, auth/access-cache.ts); a change through a route
// that can alter sessions, accounts or memberships empties every access cache before its answer leaves.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../../config.ts'
import type { AccessCaches } from '../auth/access-cache.ts'
import { createActorResolver, type Actor } from '../auth/actor.ts'
import { AUTH_BASE_PATH, type Auth } from '../auth/auth.ts'
import { allows } from '../auth/policy.ts'
import type { Db } from '../db/index.ts'
import { AppError } from './errors.ts'
import type { Ports } from '../ports.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Routes whose changes can revoke a session or change who may do what: sign-out and session
 * revocation (better-auth), the account and its active workspace, memberships and joining. */
const ACCESS_CHANGING_ROUTES = [AUTH_BASE_PATH + '/', '/v1/account/', '/v1/workspace/', '/v1/invitations/']

export function registerGuards(app: FastifyInstance, deps: { auth: Auth; db: Db; config: Config; secret: string; ports: Ports; accessCaches: AccessCaches }) {
  const actors = createActorResolver({ auth: deps.auth, db: deps.db, secret: deps.secret, secureCookies: deps.config.secureCookies, caches: deps.accessCaches })
  const trusted = new Set([deps.config.publicUrl.origin, ...deps.config.trustedOrigins])
  app.decorateRequest('actor', null)
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return
    if (request.headers.cookie) request.actor = await actors.resolve(request.headers, reply)
    // Agent tools may be called by a local runner on its owner's behalf (what they prepare still waits for approval).
    const authorization = request.headers.authorization
    if (!request.actor && request.routeOptions.config.runnerAccess && deps.ports.runnerActor && typeof authorization === 'string' && /^Bearer\s+\S/i.test(authorization)) {
      request.actor = await deps.ports.runnerActor(authorization.replace(/^Bearer\s+/i, '').trim())
    }
  })
  // onSend runs once the handler's transaction has committed and before the caller sees the answer.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!SAFE_METHODS.has(request.method) && changesAccess(request.routeOptions.url)) deps.accessCaches.forgetAll()
    done(null, payload)
  })
  app.addHook('preParsing', async (request) => {
    if (request.is404) return
    const access = request.routeOptions.config.access ?? 'signedIn'
    if (!request.url.startsWith(AUTH_BASE_PATH)) refuseCrossSite(request, trusted)
    if (access === 'public') return
    // A WebSocket upgrade is refused by closing with 1008 in the handler; a plain HTTP call to the
    // same route gets the usual 401.
    if (access === 'socket' && request.headers.upgrade?.toLowerCase() === 'websocket') return
    const actor = request.actor
    if (!actor) throw new AppError('unauthenticated', 'Sign in first: this route needs a valid session.')
    if (access === 'socket') {
      throw new AppError('upgrade_required', 'This route is a WebSocket: open it with `Upgrade: websocket` (docs/realtime.md).', {
        headers: { upgrade: 'websocket' },
      })
    }
    if (access === 'signedIn') return
    if (!actor.membership) {
      throw new AppError('no_workspace', 'No active workspace: call POST /v1/account/bootstrap first.')
    }
    if (!allows(actor.membership, access)) {
      throw new AppError('forbidden', access === 'manage'
        ? 'Only workspace owners and admins may do this.'
        : 'Your content permission is view: you may read and comment, not change content.')
    }
  })
}

function changesAccess(route: string | undefined) {
  return route !== undefined && ACCESS_CHANGING_ROUTES.some((prefix) => route.startsWith(prefix))
}

function refuseCrossSite(request: FastifyRequest, trusted: Set<string>) {
  if (SAFE_METHODS.has(request.method) || !request.headers.cookie) return
  const origin = request.headers.origin
  const site = request.headers['sec-fetch-site']
  const crossOrigin = origin !== undefined && origin !== 'null' ? !trusted.has(origin) : origin === 'null'
  if (crossOrigin || site === 'cross-site') {
    throw new AppError('cross_site_request', 'Cross-site requests that change state are refused.')
  }
}

/** The actor of a route that is not public; the guard has already refused anonymous calls. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('unauthenticated', 'Sign in first: this route needs a valid session.')
  return request.actor
}

/** The actor and membership of a workspace-guarded route. */
export function memberOf(request: FastifyRequest) {
  const actor = actorOf(request)
  if (!actor.membership) throw new AppError('no_workspace', 'No active workspace: call POST /v1/account/bootstrap first.')
  return { actor, membership: actor.membership }
}
