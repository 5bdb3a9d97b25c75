// Enforces each route's `config.access`: 401 without a session, 403 without the workspace
// permission, and refuses cross-site state-changing requests that carry a cookie. The actor is
// resolved in a global `onRequest` hook (without a promise when it is cached); the verdict is a
// route's own `onRequest` hook, added after the route's rate limit so that failing callers are
// counted too (and before any body is read). Routes registered before registerGuards (the OpenAPI
// document and its /docs page: public GETs) carry no verdict: register routes after it.
// Resolved actors are cached briefly (auth/actor.ts, auth/access-cache.ts); a change through a route
// that can alter sessions, accounts or memberships empties every access cache before its answer leaves.
// All of these are callback hooks decided per route when it is registered: no promise and no
// `request.routeOptions` (a new object per read) on the way of a request.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { Config } from '../../config.ts'
import type { AccessCaches } from '../auth/access-cache.ts'
import { createActorResolver, type Actor } from '../auth/actor.ts'
import { AUTH_BASE_PATH, type Auth } from '../auth/auth.ts'
import { allows } from '../auth/policy.ts'
import type { Access } from '../auth/actor.ts'
import type { Db } from '../db/index.ts'
import { AppError } from './errors.ts'
import type { Ports } from '../ports.ts'
import { untrustedOriginDetail } from './origins.ts'
import { appendRouteHook } from './route-hooks.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Routes whose changes can revoke a session or change who may do what: sign-out and session
 * revocation (better-auth), the account and its active workspace, memberships and joining. */
const ACCESS_CHANGING_ROUTES = [AUTH_BASE_PATH + '/', '/v1/account/', '/v1/workspace/', '/v1/invitations/']
const BEARER = /^Bearer\s+\S/i

type GuardDeps = { auth: Auth; db: Db; config: Config; secret: string; ports: Ports; accessCaches: AccessCaches }

export function registerGuards(app: FastifyInstance, deps: GuardDeps) {
  const actors = createActorResolver({ auth: deps.auth, db: deps.db, secret: deps.secret, secureCookies: deps.config.secureCookies, caches: deps.accessCaches })
  const trusted = new Set([deps.config.publicUrl.origin, ...deps.config.trustedOrigins])
  app.decorateRequest('actor', null)

  // Agent tools may be called by a local runner on its owner's behalf (what they prepare still waits for approval).
  const withRunner = (request: FastifyRequest, done: HookHandlerDoneFunction) => {
    const authorization = request.headers.authorization
    if (request.actor || !deps.ports.runnerActor || typeof authorization !== 'string' || !BEARER.test(authorization) ||
      !request.routeOptions.config.runnerAccess) {
      done()
      return
    }
    deps.ports.runnerActor(authorization.replace(/^Bearer\s+/i, '').trim()).then((actor) => {
      request.actor = actor
      done()
    }, done)
  }

  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) {
      done()
      return
    }
    if (request.headers.cookie) {
      const cached = actors.cached(request.headers)
      if (cached === undefined) {
        actors.resolve(request.headers, reply).then((actor) => {
          request.actor = actor
          withRunner(request, done)
        }, done)
        return
      }
      request.actor = cached
    }
    withRunner(request, done)
  })

  app.addHook('onRoute', (route) => {
    const verdict = verdictFor(route.config?.access ?? 'signedIn', !route.url.startsWith(AUTH_BASE_PATH), trusted, deps.config)
    appendRouteHook(route, 'onRequest', verdict)
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (methods.some((method) => !SAFE_METHODS.has(method)) && ACCESS_CHANGING_ROUTES.some((prefix) => route.url.startsWith(prefix))) {
      // onSend runs once the handler's transaction has committed and before the caller sees the answer.
      const forget = (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
        if (!SAFE_METHODS.has(request.method)) deps.accessCaches.forgetAll()
        done(null, payload)
      }
      appendRouteHook(route, 'onSend', forget)
    }
  })
}

/** The route's `onRequest` check of its access rule. */
function verdictFor(access: Access, checkSite: boolean, trusted: Set<string>, config: Config) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (checkSite) refuseCrossSite(request, trusted, config)
    if (access === 'public') return done()
    // A WebSocket upgrade is refused by closing with 1008 in the handler; a plain HTTP call to the
    // same route gets the usual 401.
    if (access === 'socket' && request.headers.upgrade?.toLowerCase() === 'websocket') return done()
    const actor = request.actor
    if (!actor) throw new AppError('unauthenticated', 'Sign in first: this route needs a valid session.')
    if (access === 'socket') {
      throw new AppError('upgrade_required', 'This route is a WebSocket: open it with `Upgrade: websocket` (docs/realtime.md).', {
        headers: { upgrade: 'websocket' },
      })
    }
    if (access === 'signedIn') return done()
    if (!actor.membership) {
      throw new AppError('no_workspace', 'No active workspace: call POST /v1/account/bootstrap first.')
    }
    if (!allows(actor.membership, access)) {
      throw new AppError('forbidden', access === 'manage'
        ? 'Only workspace owners and admins may do this.'
        : 'Your content permission is view: you may read and comment, not change content.')
    }
    done()
  }
}

function refuseCrossSite(request: FastifyRequest, trusted: Set<string>, config: Config) {
  if (SAFE_METHODS.has(request.method) || !request.headers.cookie) return
  const origin = request.headers.origin
  const site = request.headers['sec-fetch-site']
  const crossOrigin = origin !== undefined && origin !== 'null' ? !trusted.has(origin) : origin === 'null'
  if (crossOrigin || site === 'cross-site') {
    throw new AppError('cross_site_request', crossOrigin ? untrustedOriginDetail(origin, config) : 'Cross-site requests that change state are refused.')
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
