// buildApp(config) wires the platform and the modules into one Fastify instance. It never listens:
// main.ts does, and tests use inject() or listen on port 0.
import { AjvCompiler } from '@fastify/ajv-compiler'
import websocket from '@fastify/websocket'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Config } from './config.ts'
import { createAccessCaches } from './platform/auth/access-cache.ts'
import { createAuth, migrateAuthTables } from './platform/auth/auth.ts'
import { mountAuth } from './platform/auth/mount.ts'
import { resolveAuthSecret } from './platform/auth/secret.ts'
import { createBlobStore } from './platform/blobs/store.ts'
import { migrateToLatest } from './platform/db/migrate.ts'
import { openDatabase, type Database } from './platform/db/index.ts'
import { registerGuards } from './platform/http/guards.ts'
import { registerIdempotency } from './platform/http/idempotency.ts'
import { registerOpenApi } from './platform/http/openapi.ts'
import { sendClientError } from './platform/http/client-error.ts'
import { registerProblemHandlers, sendFrameworkError } from './platform/http/problem.ts'
import { registerWellFormedInput } from './platform/http/well-formed.ts'
import { registerJsonBodyParser } from './platform/http/json-body.ts'
import { loggerOptions, requestLoggerFactory } from './platform/http/logger.ts'
import { registerRateLimit } from './platform/http/rate-limit.ts'
import { createMailer } from './platform/mail/mailer.ts'
import { newId } from './platform/ids.ts'
import { createJobRunner } from './platform/jobs/index.ts'
import { createSpeech } from './platform/speech/engines/index.ts'
import { createChatClient } from './platform/llm/chat.ts'
import { createBus } from './platform/realtime/bus.ts'
import { createEventLog } from './platform/realtime/event-log.ts'
import { createHub } from './platform/realtime/hub.ts'
import { MAX_MESSAGE_BYTES } from './platform/realtime/socket.ts'
import { accountModule } from './modules/account/index.ts'
import { assetsModule } from './modules/assets/index.ts'
import { projectsModule } from './modules/projects/index.ts'
import { sessionsModule } from './modules/sessions/index.ts'
import { sharesModule } from './modules/shares/index.ts'
import { voiceModule } from './modules/voice/index.ts'
import { transcriptsModule } from './modules/transcripts/index.ts'
import { searchModule } from './modules/search/index.ts'
import { answersModule } from './modules/answers/index.ts'
import { extractionModule } from './modules/extraction/index.ts'
import { systemModule } from './modules/system/index.ts'
import { workspaceModule } from './modules/workspace/index.ts'
import { workModule } from './modules/work/index.ts'
import { notificationsModule } from './modules/notifications/index.ts'
import { conversationsModule } from './modules/conversations/index.ts'
import { processingModule } from './modules/processing/index.ts'
import { billingModule } from './modules/billing/index.ts'
import { runnerModule } from './modules/runner/index.ts'
import { webclientModule } from './modules/webclient/index.ts'
import { memoryModule } from './modules/memory/index.ts'
import { integrationsModule } from './modules/integrations/index.ts'
import './platform/http/types.ts'
import type { AppDeps } from './platform/deps.ts'
import { formatPlugins } from './platform/http/formats.ts'

export type { AppDeps }

export const JSON_BODY_LIMIT = 1024 * 1024

export type App = FastifyInstance & { deps: AppDeps }

export type BuildOptions = {
  /** an already-open database (tests); otherwise the config's DATABASE_URL is opened */
  database?: Database
  /** run migrations before serving (default true) */
  migrate?: boolean
}

export async function buildApp(config: Config, options: BuildOptions = {}) {
  const database = options.database ?? openDatabase(config.database)
  const app = Fastify({
    logger: loggerOptions(config),
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: JSON_BODY_LIMIT,
    // A request must arrive whole within REQUEST_TIMEOUT_MS (a body trickled byte by byte is cut
    // off), and a connection idle that long is closed; Node checks both every few seconds.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(5_000, Math.max(100, Math.floor(config.requestTimeoutMs / 4))),
    },
    genReqId: (request) => {
      const incoming = request.headers['x-request-id']
      return typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : newId('req')
    },
    // The web origin serves the same API under /api/v1 (interface preamble).
    rewriteUrl: (request) => (request.url?.startsWith('/api/v1/') ? request.url.slice(4) : request.url ?? '/'),
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: 'array', useDefaults: true }, plugins: formatPlugins },
    schemaController: { compilersFactory: { buildValidator: exactBodyValidator() } },
    forceCloseConnections: 'idle',
    // A malformed URL (`/v1/%zz`) or an over-long path parameter gets problem+json like every error.
    frameworkErrors: sendFrameworkError,
    // …and so do Node's refusals before a request exists (headers too large, too slow, not HTTP).
    clientErrorHandler: sendClientError,
  }).withTypeProvider<TypeBoxTypeProvider>()

  const secret = await resolveAuthSecret(config)
  const mailer = createMailer(config, database.db, app.log)
  const authDeps = { config, database, mailer, secret, log: app.log }
  const auth = createAuth(authDeps)
  const blobs = createBlobStore(config, database)
  const bus = createBus(database, app.log)
  const events = createEventLog(database, bus)
  const realtimeHub = createHub(database, events, bus, app.log)
  const jobs = createJobRunner(() => deps, { database, log: app.log, concurrency: config.jobs.workers, ...config.jobs })
  const speech = await createSpeech(config.speech)
  const llm = config.llm ? createChatClient(config.llm) : undefined
  const deps: AppDeps = { config, database, auth, mailer, blobs, secret, events, realtimeHub, jobs, speech, llm, accessCaches: createAccessCaches(), ports: {} }

  if (options.migrate ?? true) await migrateToLatest(database, () => migrateAuthTables(authDeps))

  // Callback hooks (no promise per request) for the work every request does.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    done()
  })
  // An answer sent before the request body was read (a 401, 403, 413, 415 …) closes the
  // connection: otherwise Node would read and discard the rest of the body, however large, to
  // keep the connection alive. A request without a body has nothing left to discard, even when it
  // is answered in the tick its headers arrived (before Node marks it complete: a cached answer).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete === false && hasBody(request.raw.headers) && !reply.raw.headersSent) reply.header('connection', 'close')
    done(null, payload)
  })
  await bus.start()
  // Running jobs finish (or see their signal aborted) while the database is still open.
  app.addHook('preClose', () => jobs.stop())
  app.addHook('onClose', async () => {
    await bus.close()
    await speech.engine?.close?.()
    mailer.close()
    blobs.close?.()
    if (!options.database) await database.close()
  })

  // JSON routes take JSON: a text/plain body is refused with 415, not parsed into a string.
  app.removeContentTypeParser('text/plain')
  registerJsonBodyParser(app)
  registerProblemHandlers(app)
  registerWellFormedInput(app)
  await registerOpenApi(app, config)
  // A route's rate limit counts before its guard's verdict (both add their hook as the route is
  // registered, in this order; the actor they key on is resolved by a global hook, before both).
  await registerRateLimit(app, config)
  registerGuards(app, { auth, db: database.db, config, secret, ports: deps.ports, accessCaches: deps.accessCaches })
  registerIdempotency(app, database)
  await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } })

  await mountAuth(app, auth, config)
  await app.register(systemModule(deps))
  await app.register(assetsModule(deps))
  await app.register(accountModule(deps))
  await app.register(notificationsModule(deps))
  await app.register(workspaceModule(deps))
  await app.register(projectsModule(deps))
  await app.register(sessionsModule(deps))
  await app.register(sharesModule(deps))
  await app.register(transcriptsModule(deps))
  await app.register(searchModule(deps))
  await app.register(answersModule(deps))
  await app.register(extractionModule(deps))
  await app.register(workModule(deps))
  await app.register(conversationsModule(deps))
  await app.register(processingModule(deps))
  await app.register(billingModule(deps))
  await app.register(runnerModule(deps))
  await app.register(webclientModule(deps))
  await app.register(memoryModule(deps))
  await app.register(integrationsModule(deps))
  await app.register(voiceModule(deps))

  return Object.assign(app, { deps }) as unknown as App
}

/** Whether a request announces a body (RFC 9112 §6.3): chunked, or a non-zero Content-Length. */
function hasBody(headers: { 'transfer-encoding'?: string; 'content-length'?: string }) {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
}

/**
 * Query strings, params and headers are text, so their values are coerced to the schema's types;
 * a JSON body is typed already and must match exactly ({"name": 5} is a 400, not the name "5").
 */
function exactBodyValidator() {
  const coercing = AjvCompiler()
  const exact = AjvCompiler()
  type Route = { httpPart?: string }
  const build: typeof coercing = (externalSchemas, options = {}) => {
    const forText = coercing(externalSchemas, options) as unknown as (route: Route) => unknown
    const forBody = exact(externalSchemas, {
      ...options, customOptions: { ...options.customOptions, coerceTypes: false },
    } as typeof options) as unknown as (route: Route) => unknown
    return ((route: Route) => (route.httpPart === 'body' ? forBody(route) : forText(route))) as unknown as ReturnType<typeof coercing>
  }
  return build
}
