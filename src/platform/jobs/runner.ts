// The worker loop: claims due jobs up to its concurrency, runs them with a heartbeat that keeps
// their lease, and records the outcome. `serve` runs one in process; `worker` runs one alone.
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { FastifyBaseLogger } from 'fastify'
import type { AppDeps } from '../deps.ts'
import type { Database } from '../db/index.ts'
import { claimJobs, completeJob, describeError, enqueueHints, extendLease, failJob, pruneSucceeded, type JobRow } from './queue.ts'
import { jobDefinition, type JobContext } from './registry.ts'

export type JobRunnerOptions = {
  database: Database
  log: FastifyBaseLogger
  /** jobs run at once by this process */
  concurrency: number
  /** how often an idle worker looks for due jobs (other nodes' jobs, retries, delayed jobs) */
  pollIntervalMs: number
  /** a claimed job whose worker stops heartbeating is claimed again after this long */
  visibilityTimeoutMs: number
  nodeId?: string
}

export type JobRunner = {
  readonly nodeId: string
  readonly isRunning: boolean
  start(): void
  /** stops claiming, aborts the signal of running jobs and waits for them to settle */
  stop(): Promise<void>
  /** runs every due job (and those they make due) until none is left; returns how many ran */
  drain(): Promise<number>
}

const PRUNE_EVERY_MS = 10 * 60_000
const KEEP_SUCCEEDED_MS = 7 * 86_400_000
/** a local enqueue inside a transaction is visible only after commit: look again shortly after */
const HINT_RETRY_MS = 100

export function createJobRunner(getDeps: () => AppDeps, options: JobRunnerOptions): JobRunner {
  const { database, log, concurrency, pollIntervalMs, visibilityTimeoutMs } = options
  const nodeId = options.nodeId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  const active = new Set<Promise<void>>()
  let controller = new AbortController()
  let started = false
  let loop: Promise<void> | undefined
  let wakeUp: (() => void) | undefined
  let wakePending = false
  let lastPrune = 0

  const wake = () => {
    if (wakeUp) wakeUp()
    else wakePending = true
  }
  const onHint = () => {
    wake()
    setTimeout(wake, HINT_RETRY_MS).unref()
  }
  const sleep = () => new Promise<void>((resolve) => {
    if (wakePending || !started) {
      wakePending = false
      return resolve()
    }
    const timer = setTimeout(done, pollIntervalMs)
    function done() {
      clearTimeout(timer)
      wakeUp = undefined
      wakePending = false
      resolve()
    }
    wakeUp = done
  })

  async function execute(job: JobRow): Promise<void> {
    const definition = jobDefinition(job.name)!
    const jobLog = log.child({ jobId: job.id, job: job.name, attempt: job.attempts })
    const context: JobContext = { deps: getDeps(), jobId: job.id, attempt: job.attempts, signal: controller.signal, log: jobLog }
    const payload: unknown = JSON.parse(job.payload)
    if (job.attempts > job.max_attempts) {
      // Its workers kept dying mid-run (the lease expired each time): stop trying.
      return giveUp(job, payload, context, `lease expired on each of ${job.max_attempts} attempts; last node ${job.locked_by}`)
    }
    const heartbeat = setInterval(() => {
      extendLease(database, job, visibilityTimeoutMs).then((held) => {
        if (!held) jobLog.warn('lost the lease of a running job; another worker may run it again')
      }, (error: unknown) => jobLog.warn({ err: error }, 'could not extend a job lease'))
    }, Math.max(50, Math.floor(visibilityTimeoutMs / 3)))
    try {
      await definition.handler(payload, context)
      clearInterval(heartbeat)
      if (!await completeJob(database, job)) jobLog.warn('job finished after its lease was lost; its outcome was not recorded')
    } catch (error) {
      clearInterval(heartbeat)
      const text = describeError(error)
      if (job.attempts >= job.max_attempts) return giveUp(job, payload, context, text)
      const delay = definition.retryDelay?.(error, job.attempts) ?? definition.backoff(job.attempts)
      jobLog.warn({ err: error, retryInMs: delay }, 'job failed; it will be retried')
      await failJob(database.db, job, text, delay)
    }
  }

  async function giveUp(job: JobRow, payload: unknown, context: JobContext, error: string) {
    const definition = jobDefinition(job.name)!
    log.error({ jobId: job.id, job: job.name, attempts: job.attempts, error }, 'job dead-lettered')
    await database.db.transaction().execute(async (trx) => {
      if (!await failJob(trx, job, error, undefined)) return
      await definition.onDead?.(payload, error, { ...context, executor: trx })
    })
  }

  const track = (job: JobRow) => {
    const run = execute(job)
      .catch((error: unknown) => log.error({ err: error, jobId: job.id }, 'could not record the outcome of a job'))
      .finally(() => {
        active.delete(run)
        wake()
      })
    active.add(run)
  }

  async function claim(limit: number) {
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now()
      await pruneSucceeded(database, new Date(Date.now() - KEEP_SUCCEEDED_MS))
    }
    return claimJobs(database, nodeId, limit, visibilityTimeoutMs)
  }

  async function run() {
    while (started) {
      const free = concurrency - active.size
      let claimed = 0
      if (free > 0) {
        try {
          const jobs = await claim(free)
          claimed = jobs.length
          for (const job of jobs) track(job)
        } catch (error) {
          log.error({ err: error }, 'could not claim jobs')
        }
      }
      if (claimed > 0 && claimed === free) continue
      await sleep()
    }
  }

  return {
    nodeId,
    get isRunning() {
      return started
    },
    start() {
      if (started || concurrency <= 0) return
      started = true
      controller = new AbortController()
      enqueueHints.on('enqueued', onHint)
      loop = run()
    },
    async stop() {
      if (!started) return
      started = false
      enqueueHints.off('enqueued', onHint)
      wake()
      controller.abort()
      await loop
      await Promise.allSettled([...active])
    },
    async drain() {
      let ran = 0
      for (;;) {
        const jobs = await claim(Math.max(1, concurrency))
        if (jobs.length === 0) return ran
        ran += jobs.length
        await Promise.all(jobs.map((job) => execute(job)))
      }
    },
  }
}
