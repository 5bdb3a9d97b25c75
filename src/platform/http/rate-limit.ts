// Request rate limits (DESIGN §3): per account when signed in, per client IP otherwise (public
// routes). Counted in process memory per node; the sign-in code limit, which must hold across
// nodes, is counted in the database instead (auth/otp-send-limit.ts).
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config.ts'
import { AppError } from './errors.ts'
import { sendRouteNotFound } from './problem.ts'

export async function registerRateLimit(app: FastifyInstance, config: Config) {
  await app.register(rateLimit, {
    global: true,
    timeWindow: 60_000,
    max: (request) => (request.actor ? config.rateLimitAccountPerMinute : config.rateLimitPublicPerMinute),
    keyGenerator: (request) => (request.actor ? `account:${request.actor.accountId}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests: the limit is ${context.max} per minute; retry in ${context.after}.`, {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
      }),
  })
  // Probing unknown routes counts against the caller's limit too.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, sendRouteNotFound)
}
