// What Confer adds to Fastify's request and route config.
import type { Actor, Access } from '../auth/actor.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** who may call the route; default 'signedIn' (http/guards.ts) */
    access?: Access
    /** the route honours Idempotency-Key (http/idempotency.ts) */
    idempotent?: boolean
    /** a local runner's bearer token may stand in for its owner's session (agent tools; ports.runnerActor) */
    runnerAccess?: boolean
  }
  interface FastifyRequest {
    actor: Actor | null
  }
}

export {}
