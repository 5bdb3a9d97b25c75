// Request rate limits (DESIGN §3): per account when signed in, per client IP otherwise (public
// routes). Counted in process memory per node; the sign-in code limit, which must hold across
// nodes, is counted in the database instead (auth/otp-send-limit.ts).
//
// A fixed window per key (it starts with the key's first request), as @fastify/rate-limit's
// memory store counts, in a callback `onRequest` hook added to each route as it is registered:
// that plugin's hook was a chain of five promises on every request (docs/decisions.md). Every
// counted answer carries `x-ratelimit-limit`, `-remaining` and `-reset` (seconds); the request past
// the limit is a 429 `rate_limited` problem with `Retry-After`. A route's `config.rateLimit` is
// `false` (not counted) or its own `{ max, timeWindow, keyGenerator? }` (a counter of its own).
// Runs after the guard's actor resolution (a global hook) and before its verdict (guards.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import { LRUCache } from 'lru-cache'
import type { Config } from '../../config.ts'
import { AppError } from './errors.ts'
import { sendRouteNotFound } from './problem.ts'
import { appendRouteHook } from './route-hooks.ts'

export type RouteRateLimit = {
  max: number
  /** milliseconds */
  timeWindow: number
  keyGenerator?: (request: FastifyRequest) => string
}

/** Keys remembered per counter (the plugin's default); the least recently seen is dropped first. */
const KEYS_PER_COUNTER = 5000
const WINDOW_MS = 60_000

type Window = { count: number; startedAt: number }

function createLimiter(window: number, maxOf: (request: FastifyRequest) => number, keyOf: (request: FastifyRequest) => string): onRequestHookHandler {
  const windows = new LRUCache<string, Window>({ max: KEYS_PER_COUNTER })
  return function rateLimit(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
    const key = keyOf(request)
    const max = maxOf(request)
    const now = Date.now()
    let counted = windows.get(key)
    if (counted === undefined || counted.startedAt + window <= now) {
      counted = { count: 1, startedAt: now }
      windows.set(key, counted)
    } else {
      counted.count += 1
    }
    const resetSeconds = Math.ceil((counted.startedAt + window - now) / 1000)
    reply.header('x-ratelimit-limit', max)
    if (counted.count <= max) {
      reply.header('x-ratelimit-remaining', max - counted.count)
      reply.header('x-ratelimit-reset', resetSeconds)
      done()
      return
    }
    reply.header('x-ratelimit-remaining', 0)
    reply.header('x-ratelimit-reset', resetSeconds)
    const retryAfter = Math.max(1, resetSeconds)
    done(new AppError('rate_limited', `Too many requests: the limit is ${max} per ${window === WINDOW_MS ? 'minute' : `${window / 1000} seconds`}; retry in ${duration(retryAfter)}.`, {
      headers: { 'Retry-After': String(retryAfter) },
    }))
  }
}

const duration = (seconds: number) => (seconds >= 60
  ? `${Math.round(seconds / 60)} minute${Math.round(seconds / 60) === 1 ? '' : 's'}`
  : `${seconds} second${seconds === 1 ? '' : 's'}`)

/** The account's id when signed in, else the client's address (`acc_…` is never an address). */
const accountOrAddress = (request: FastifyRequest) => (request.actor ? request.actor.accountId : request.ip)

export function registerRateLimit(app: FastifyInstance, config: Config) {
  const global = createLimiter(
    WINDOW_MS,
    (request) => (request.actor ? config.rateLimitAccountPerMinute : config.rateLimitPublicPerMinute),
    accountOrAddress,
  )
  app.addHook('onRoute', (route) => {
    const own = route.config?.rateLimit
    if (own === false) return
    const limiter = own
      ? createLimiter(own.timeWindow, () => own.max, own.keyGenerator ?? accountOrAddress)
      : global
    appendRouteHook(route, 'onRequest', limiter)
  })
  // Probing unknown routes counts against the caller's limit too.
  app.setNotFoundHandler({ preHandler: global }, sendRouteNotFound)
}
