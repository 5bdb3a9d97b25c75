// Job kinds are declared once, at module load, with defineJob(); the queue stores only a name and
// a JSON payload, and a worker runs the kinds its process has defined.
import type { FastifyBaseLogger } from 'fastify'
import type { AppDeps } from '../deps.ts'
import type { Executor } from '../realtime/types.ts'

export type JobContext = {
  deps: AppDeps
  jobId: string
  /** 1 on the first run */
  attempt: number
  /** aborted when the worker shuts down; long handlers should stop and throw */
  signal: AbortSignal
  log: FastifyBaseLogger
}

export type JobDefinition<Payload = unknown> = {
  name: string
  handler: (payload: Payload, context: JobContext) => Promise<void>
  /** runs before a job is given up; default 5 */
  maxAttempts: number
  /** delay before retry number `attempt + 1`, in ms */
  backoff: (attempt: number) => number
  /**
   * the delay before the next retry that this failure asks for (e.g. a provider's Retry-After),
   * in ms; undefined falls back to `backoff`
   */
  retryDelay?: (error: unknown, attempt: number) => number | undefined
  /** called in the transaction that dead-letters the job, e.g. to mark what it was for as failed */
  onDead?: (payload: Payload, error: string, context: JobContext & { executor: Executor }) => Promise<void>
}

export type JobSpec<Payload> = {
  name: string
  handler: JobDefinition<Payload>['handler']
  maxAttempts?: number
  /** a base delay in ms (doubled each retry, capped at 5 minutes, ±20 % jitter) or a function of the attempt */
  backoff?: number | ((attempt: number) => number)
  retryDelay?: JobDefinition<Payload>['retryDelay']
  onDead?: JobDefinition<Payload>['onDead']
}

export const DEFAULT_MAX_ATTEMPTS = 5
const DEFAULT_BACKOFF_BASE_MS = 1000
const MAX_BACKOFF_MS = 5 * 60_000

const registry = new Map<string, JobDefinition>()

/** Exponential backoff with jitter: base, 2×base, 4×base … up to 5 minutes. */
export function exponentialBackoff(baseMs: number) {
  return (attempt: number) => {
    const delay = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1))
    return Math.round(delay * (0.8 + Math.random() * 0.4))
  }
}

export function defineJob<Payload>(spec: JobSpec<Payload>): JobDefinition<Payload> {
  if (!/^[a-z][a-z0-9_.-]{0,99}$/.test(spec.name)) throw new Error(`invalid job name ${spec.name}`)
  if (registry.has(spec.name)) throw new Error(`job ${spec.name} is defined twice`)
  const backoff = typeof spec.backoff === 'function' ? spec.backoff : exponentialBackoff(spec.backoff ?? DEFAULT_BACKOFF_BASE_MS)
  const definition: JobDefinition<Payload> = {
    name: spec.name,
    handler: spec.handler,
    maxAttempts: spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    backoff,
    ...(spec.retryDelay ? { retryDelay: spec.retryDelay } : {}),
    ...(spec.onDead ? { onDead: spec.onDead } : {}),
  }
  registry.set(spec.name, definition as JobDefinition)
  return definition
}

export const jobDefinition = (name: string): JobDefinition | undefined => registry.get(name)

export const definedJobNames = (): string[] => [...registry.keys()]
