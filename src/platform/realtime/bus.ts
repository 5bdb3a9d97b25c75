// Wake-ups that say "conversation X has new events". The payload is only the id: the events are
// read from the log, so a lost or duplicated wake-up never loses or repeats an event.
// Embedded mode: in process. PostgreSQL: NOTIFY inside the appending transaction (delivered at
// commit) and one LISTEN connection per node, which catches up after a reconnect.
import { EventEmitter } from 'node:events'
import { sql, type RawBuilder } from 'kysely'
import pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/index.ts'
import type { Executor } from './types.ts'

/** names the LISTEN connection in pg_stat_activity */
export const LISTEN_APPLICATION_NAME = 'confer-realtime-listen'
/** One channel per schema, so deployments sharing a database do not wake each other. */
const CHANNEL_PREFIX = 'confer_events_'

export type WakeListener = (conversationId: string | undefined) => void

export type Bus = {
  /** Schedules a wake-up for the conversation; with PostgreSQL it is sent when `executor` commits. */
  notify(executor: Executor, conversationId: string): Promise<void>
  /** PostgreSQL: the same wake-up as an expression, to be selected in the statement that appends */
  notifyExpression?(conversationId: string): RawBuilder<unknown>
  /** `undefined` means "maybe missed some: re-read everything you follow" (after a reconnect). */
  onWake(listener: WakeListener): void
  start(): Promise<void>
  close(): Promise<void>
}

export function createBus(database: Database, log: FastifyBaseLogger): Bus {
  return database.dialect === 'postgres' && database.url ? createPostgresBus(database, log, database.url) : createMemoryBus()
}

function createMemoryBus(): Bus {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  return {
    async notify(_executor, conversationId) {
      // SQLite has one connection: a reader woken now queues behind the appending transaction
      // and so sees it committed (or rolled back).
      setImmediate(() => emitter.emit('wake', conversationId))
    },
    onWake(listener) {
      emitter.on('wake', listener)
    },
    async start() {},
    async close() {
      emitter.removeAllListeners()
    },
  }
}

const notifyExpression = (conversationId: string) => sql`pg_notify(${CHANNEL_PREFIX} || current_schema(), ${conversationId})`

function createPostgresBus(database: Database, log: FastifyBaseLogger, url: string): Bus {
  const listeners: WakeListener[] = []
  let client: pg.Client | undefined
  let closed = false
  let retry: NodeJS.Timeout | undefined
  const wake = (conversationId: string | undefined) => {
    for (const listener of listeners) listener(conversationId)
  }

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: url,
      application_name: LISTEN_APPLICATION_NAME,
      ...(database.schema ? { options: `-c search_path=${database.schema}` } : {}),
    })
    next.on('notification', (message) => wake(message.payload))
    next.on('error', (error) => {
      log.warn({ err: error }, 'realtime LISTEN connection lost; reconnecting')
      scheduleReconnect()
    })
    await next.connect()
    const { rows } = await next.query<{ schema: string }>('select current_schema() as schema')
    await next.query(`LISTEN "${CHANNEL_PREFIX}${rows[0]?.schema ?? 'public'}"`)
    client = next
    // Anything appended while we were not listening is read now.
    wake(undefined)
  }
  const scheduleReconnect = () => {
    void client?.end().catch(() => {})
    client = undefined
    if (closed || retry) return
    retry = setTimeout(() => {
      retry = undefined
      connect().catch((error: unknown) => {
        log.warn({ err: error }, 'realtime LISTEN reconnect failed')
        scheduleReconnect()
      })
    }, 500)
  }

  return {
    async notify(executor, conversationId) {
      await sql`select ${notifyExpression(conversationId)}`.execute(executor)
    },
    notifyExpression,
    onWake(listener) {
      listeners.push(listener)
    },
    async start() {
      // A database that is down at start must not stop the node: keep retrying in the background.
      await connect().catch((error: unknown) => {
        log.warn({ err: error }, 'realtime LISTEN connection failed; retrying')
        scheduleReconnect()
      })
    },
    async close() {
      closed = true
      clearTimeout(retry)
      await client?.end().catch(() => {})
    },
  }
}
