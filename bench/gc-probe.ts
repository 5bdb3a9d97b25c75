// GC cost per request of an authenticated `GET /v1/account/current`, at a fixed offered rate
// (figures the machine's other load disturbs far less than a saturating run's requests/s):
// `node bench/gc-probe.ts sqlite|pg`. Starts the server as `npm run bench` does, with
// `--trace-gc-nvp` (plus GC_PROBE_FLAGS), signs in, offers GC_PROBE_RATE req/s (default 6000) on
// GC_PROBE_CONNECTIONS (50) for 3 s, then measures GC_PROBE_SECONDS (10): server CPU µs per
// request, scavenges per 10k requests, bytes promoted per request, mean scavenge pause, full GCs.
import { mkdtempSync, openSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { DatabaseSync } from 'node:sqlite'
import autocannon from 'autocannon'
import pg from 'pg'
import { freePort } from './servers.ts'

const database = process.argv[2] === 'pg' ? 'pg' : 'sqlite'
const rate = Number(process.env.GC_PROBE_RATE ?? 6000)
const seconds = Number(process.env.GC_PROBE_SECONDS ?? 10)
const connections = Number(process.env.GC_PROBE_CONNECTIONS ?? 50)
const flags = ['--trace-gc-nvp', ...(process.env.GC_PROBE_FLAGS ?? '').split(' ').filter(Boolean)]
const origin = 'https://confer.bench.example'
const postgresBase = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

// A schema of its own, dropped afterwards (test/databases.ts reads TEST_DATABASE_URL when loaded).
process.env.TEST_DATABASE_URL = postgresBase
const schema = database === 'sqlite' ? undefined : await (await import('../test/databases.ts')).createTestDatabase('postgres')
const url = schema?.url ?? `sqlite:${path.join(mkdtempSync(path.join(tmpdir(), 'gc-probe-')), 'confer.db')}`
const log = path.join(mkdtempSync(path.join(tmpdir(), 'gc-probe-log-')), 'gc.log')
const port = await freePort()
const server = spawn(process.execPath, [...flags, 'src/main.ts', 'serve'], {
  env: { ...process.env, NODE_ENV: 'production', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret!', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gc-probe-data-')),
    DATABASE_URL: url, PUBLIC_URL: origin, LOG_LEVEL: 'warn', RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000000', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
    STT_ENGINE: 'client', PORT: String(port), HOST: '127.0.0.1' },
  stdio: ['ignore', openSync(log, 'w'), 'inherit'],
})
const base = `http://127.0.0.1:${port}`
for (let attempt = 0; attempt < 1200; attempt += 1) {
  try {
    if ((await fetch(base + '/healthz')).ok) break
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 50))
}

const code = (body: string | undefined) => body?.match(/code is (\d+)/)?.[1]
const readCode = database === 'sqlite'
  ? (() => {
      const statement = new DatabaseSync(url.slice('sqlite:'.length)).prepare('select body_text from mail_outbox where to_address = ? order by id desc limit 1')
      return async (email: string) => code((statement.get(email) as { body_text?: string } | undefined)?.body_text)
    })()
  : (() => {
      const pool = new pg.Pool({ connectionString: url, max: 1 })
      return async (email: string) => code((await pool.query('select body_text from mail_outbox where to_address = $1 order by id desc limit 1', [email])).rows[0]?.body_text)
    })()
const post = (route: string, body: unknown, cookie?: string) => fetch(base + route, {
  method: 'POST', headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body),
})
const email = `gc-probe-${Date.now()}@example.com`
await post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })
let otp: string | undefined
for (let attempt = 0; attempt < 100 && !otp; attempt += 1) {
  otp = await readCode(email)
  if (!otp) await new Promise((resolve) => setTimeout(resolve, 50))
}
const signedIn = await post('/api/auth/sign-in/email-otp', { email, otp })
const cookie = signedIn.headers.getSetCookie().find((value) => value.includes('session_token='))!.split(';')[0]
await post('/v1/account/bootstrap', {}, cookie)

/** CPU time of the server (all threads), in ms */
const cpuMs = () => {
  const stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}
const load = (duration: number) => autocannon({ url: base + '/v1/account/current', headers: { cookie }, connections, duration, overallRate: rate })
await load(3)
const logStart = readFileSync(log, 'utf8').length
const cpuStart = cpuMs()
const result = await load(seconds)
const cpu = cpuMs() - cpuStart
let scavenges = 0, promoted = 0, pauses = 0, fullGcs = 0
for (const line of readFileSync(log, 'utf8').slice(logStart).split('\n')) {
  const kind = line.match(/ gc=(\w+)/)?.[1]
  if (!kind) continue
  if (kind !== 's') {
    fullGcs += 1
    continue
  }
  scavenges += 1
  pauses += Number(line.match(/pause=([\d.]+)/)?.[1] ?? 0)
  promoted += Number(line.match(/ promoted=(\d+)/)?.[1] ?? 0)
}
const requests = result.requests.total
console.log(JSON.stringify({
  database, requests, non2xx: result.non2xx, cpuMicrosecondsPerRequest: +(cpu * 1000 / requests).toFixed(1),
  scavengesPer10k: +(scavenges * 10_000 / requests).toFixed(1), promotedBytesPerRequest: Math.round(promoted / requests),
  meanScavengeMs: +(pauses / Math.max(1, scavenges)).toFixed(1), fullGcs, p99Ms: result.latency.p99,
}))
server.kill('SIGTERM')
await new Promise((resolve) => server.once('exit', resolve))
await schema?.drop()
process.exit(0)
