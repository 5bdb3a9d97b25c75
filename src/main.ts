// The one CLI: `serve` (default) starts the API with in-process workers; `migrate` only migrates;
// `worker` runs background jobs without serving HTTP (cluster mode: as many as you need);
// `runner` is the local runner on a member's machine, a client that loads none of the server.
import { ConfigError, loadConfig, type Config } from './config.ts'
import { setFlagsFromString } from 'node:v8'

// A server's objects live for one request; V8's allocation-site pretenuring, once a request-path
// site looks long-lived, allocates its objects in the old generation, where each keeps the young
// objects it points to alive through scavenges until a full GC (docs/decisions.md).
setFlagsFromString('--no-allocation-site-pretenuring')

async function main(command: string) {
  if (command === 'runner') {
    const { runnerMain } = await import('./runner-cli/main.ts')
    process.exitCode = await runnerMain(process.argv.slice(3))
    return
  }
  const { buildApp } = await import('./app.ts')
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(2)
    }
    throw error
  }
  if (command === 'migrate') {
    const app = await buildApp(config, { migrate: true })
    app.log.info('migrations are up to date')
    await app.close()
    return
  }
  if (command !== 'serve' && command !== 'worker') {
    process.stderr.write(`usage: confer [serve|migrate|worker|runner]\nunknown command: ${command}\n`)
    process.exit(2)
  }
  const app = await buildApp(config)
  if (command === 'serve') {
    await app.listen({ port: config.port, host: config.host })
    app.log.info(startLine(config, app.deps.speech.mode))
  } else await app.ready()
  if (command === 'worker' && config.jobs.workers === 0) app.log.warn('WORKERS=0: this worker will run no jobs')
  if (command === 'worker' && config.database.kind === 'sqlite') {
    app.log.warn('a separate worker on SQLite: its realtime events reach sockets of `serve` only at their next wake-up; embedded mode runs workers inside serve')
  }
  app.deps.jobs.start()
  if (command === 'worker') app.log.info({ node: app.deps.jobs.nodeId, concurrency: config.jobs.workers }, 'worker started')
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    const deadline = setTimeout(() => {
      app.log.error('shutdown timed out; exiting')
      process.exit(1)
    }, config.shutdownTimeoutMs)
    deadline.unref()
    app.close().then(() => process.exit(0), (error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed')
      process.exit(1)
    })
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

/** What a newcomer needs from the first lines of the log: where to go, what is behind it. */
function startLine(config: Config, speech: string) {
  const database = config.database.kind === 'sqlite' ? `SQLite at ${config.database.path}` : `PostgreSQL at ${redactedUrl(config.database.url)}`
  const engine = speech === 'client' ? 'none on the server (clients send their own transcript segments)' : speech
  return `Confer is ready at ${config.publicBase} · API reference ${config.publicBase}/docs · database: ${database} · speech engine: ${engine}`
}

function redactedUrl(raw: string) {
  try {
    const url = new URL(raw)
    url.password = ''
    return `${url.host}${url.pathname}`
  } catch {
    return 'the configured DATABASE_URL'
  }
}

await main(process.argv[2] ?? 'serve')
