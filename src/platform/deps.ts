// The module contract: what every module receives from the platform (never another module's
// internals) and the shape of a module. Platform code imports nothing from src/modules or app.ts.
import type { FastifyPluginAsync } from 'fastify'
import type { Config } from '../config.ts'
import type { AccessCaches } from './auth/access-cache.ts'
import type { Auth } from './auth/auth.ts'
import type { BlobStore } from './blobs/store.ts'
import type { Database } from './db/index.ts'
import type { JobRunner } from './jobs/runner.ts'
import type { ChatClient } from './llm/chat.ts'
import type { Mailer } from './mail/mailer.ts'
import type { Ports } from './ports.ts'
import type { Hub } from './realtime/hub.ts'
import type { EventLog } from './realtime/types.ts'
import type { SpeechSetup } from './speech/engines/index.ts'

export type AppDeps = {
  config: Config
  database: Database
  auth: Auth
  mailer: Mailer
  blobs: BlobStore
  secret: string
  /** append realtime events inside the transaction that causes them */
  events: EventLog
  /** this node's WebSocket subscriptions */
  realtimeHub: Hub
  /** this process's job worker; `serve` and `worker` start it (platform/jobs) */
  jobs: JobRunner
  /** the speech-to-text engine chosen by config (platform/speech) */
  speech: SpeechSetup
  /** an OpenAI-compatible chat model for grounded-ai answers, when LLM_BASE_URL is set */
  llm: ChatClient | undefined
  /** caches emptied whenever access may have changed (auth/access-cache.ts): the actor, the current account */
  accessCaches: AccessCaches
  /** capabilities modules offer each other without importing each other (platform/ports.ts) */
  ports: Ports
}

/** A module: a Fastify plugin built from the platform's services. app.ts registers each one. */
export type Module = (deps: AppDeps) => FastifyPluginAsync
