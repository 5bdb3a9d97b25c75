// `npm run bench`: starts the real server (SQLite, and PostgreSQL when TEST_DATABASE_URL is set)
// and a bare node:http baseline in the same run, loads each with autocannon, and prints
// requests/s, p50/p99 latency and the ratio to the baseline. Scenarios: bench/README.md.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import autocannon from 'autocannon'
import pg from 'pg'
import { benchFanout, fanoutRow } from './fanout.ts'
import { benchPresence, presenceRow } from './presence.ts'
import { benchIngestion, ingestionRow, prepareStreams } from './ingestion.ts'
import { benchTranscription } from './transcription.ts'
import { benchSearch, seedSearch } from './search.ts'
import { benchAnswers } from './answers.ts'
import { benchExtraction, formatExtractionBench } from './extraction.ts'
import { startProcess } from './servers.ts'
import { benchWork } from './work.ts'
import { benchWeb, buildWebClient } from './web.ts'

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
/** BENCH_ONLY=fanout,audio runs only those scenarios (names: current, projects, audio, fanout, search, answers, work, web, extraction, transcription) */
const ONLY = process.env.BENCH_ONLY?.split(',').map((name) => name.trim()).filter(Boolean)
export const want = (scenario: string) => !ONLY || ONLY.includes(scenario)
// `npm run bench -- --cluster` or BENCH_ONLY=cluster: 1, 2 and 4 nodes behind a balancer instead (bench/cluster.ts).
if (process.argv.includes('--cluster') || ONLY?.includes('cluster')) {
  await import('./cluster.ts')
  process.exit(0)
}

type Figures = { requestsPerSecond: number; p50: number; p99: number; errors: number; non2xx: number }

async function load(url: string, headers: Record<string, string> = {}, options: Partial<autocannon.Options> = {}): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers, ...options })
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  }
}

let signIns = 0
/** Production refuses an http PUBLIC_URL; the servers a bench starts are told this one (behind a TLS proxy, as it were). */
export const BENCH_PUBLIC_ORIGIN = 'https://confer.bench.example'

async function signIn(baseUrl: string, readCode: (email: string) => Promise<string | undefined>): Promise<string> {
  const email = `bench-${Date.now()}-${(signIns += 1)}@example.com`
  // Node's fetch sends Sec-Fetch-Mode like a browser, so better-auth wants a trusted Origin: PUBLIC_URL's.
  const origin = BENCH_PUBLIC_ORIGIN
  const post = (route: string, body: unknown, cookie?: string) => fetch(baseUrl + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  })
  const sent = await post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })
  if (!sent.ok) throw new Error(`sending the sign-in code failed: ${sent.status} ${await sent.text()}`)
  let otp: string | undefined
  for (let attempt = 0; attempt < 100 && !otp; attempt += 1) {
    otp = await readCode(email)
    if (!otp) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  if (!otp) throw new Error('no sign-in code in the outbox')
  const signedIn = await post('/api/auth/sign-in/email-otp', { email, otp })
  const cookie = signedIn.headers.getSetCookie().find((value) => value.includes('session_token='))?.split(';')[0]
  if (!cookie) throw new Error(`sign-in failed: ${signedIn.status}`)
  const boot = await post('/v1/account/bootstrap', {}, cookie)
  if (!boot.ok) throw new Error(`bootstrap failed: ${boot.status}`)
  return cookie
}

function outboxReader(databaseUrl: string): { read: (email: string) => Promise<string | undefined>; close: () => Promise<void> } {
  const pick = (text: string | null | undefined) => text?.match(/code is (\d+)/)?.[1]
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new DatabaseSync(databaseUrl.slice('sqlite:'.length))
    const statement = db.prepare('select body_text from mail_outbox where to_address = ? order by id desc limit 1')
    return {
      read: async (email) => pick((statement.get(email) as { body_text?: string } | undefined)?.body_text),
      close: async () => db.close(),
    }
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  return {
    read: async (email) => pick((await pool.query('select body_text from mail_outbox where to_address = $1 order by id desc limit 1', [email])).rows[0]?.body_text),
    close: () => pool.end(),
  }
}

function row(name: string, figures: Figures, baseline?: Figures) {
  const ratio = baseline ? (figures.requestsPerSecond / baseline.requestsPerSecond).toFixed(2) : '1.00'
  const broken = figures.errors + figures.non2xx > 0 ? `  (${figures.errors} errors, ${figures.non2xx} non-2xx)` : ''
  return `${name.padEnd(44)} ${figures.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(figures.p50).padStart(4)} ms   p99 ${String(figures.p99).padStart(4)} ms   ×${ratio} of baseline${broken}`
}

// Audio ingestion: 32 KiB chunks into 50 recording sessions (one account each) at once; every
// chunk is durable (blob fsynced, row committed) before its 200. Chunks go to the sessions in turn.
const AUDIO_CHUNK = Buffer.alloc(32 * 1024, 0x5a)
const AUDIO_SESSIONS = 50
const AUDIO_HEADERS = { 'content-type': 'audio/pcm;rate=16000' }

async function benchAudio(label: string, baseUrl: string, readCode: (email: string) => Promise<string | undefined>, baseline: Figures) {
  const sessions: { cookie: string; id: string }[] = []
  for (let index = 0; index < AUDIO_SESSIONS; index += 1) {
    const cookie = await signIn(baseUrl, readCode)
    const created = await fetch(`${baseUrl}/v1/sessions`, {
      method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ captureMode: 'microphone' }),
    })
    if (!created.ok) throw new Error(`creating a session failed: ${created.status} ${await created.text()}`)
    sessions.push({ cookie, id: ((await created.json()) as { id: string }).id })
  }
  let sent = 0
  const figures = await load(baseUrl, {}, {
    connections: AUDIO_SESSIONS,
    requests: [{
      setupRequest: (request) => {
        const session = sessions[sent % AUDIO_SESSIONS]!
        sent += 1
        return {
          ...request, method: 'POST', path: `/v1/sessions/${session.id}/audio`, body: AUDIO_CHUNK,
          headers: { ...AUDIO_HEADERS, cookie: session.cookie, 'x-service-chunk-id': `chunk-${sent}` },
        }
      },
    }],
  })
  console.log(row(`POST audio 32 KiB × ${AUDIO_SESSIONS} sessions (${label})`, figures, baseline).replace('req/s', 'chunks/s'))
}

// Project list: one workspace with 200 projects; the default page (50) and all 200 in one page.
const PROJECTS = 200

async function benchProjects(label: string, baseUrl: string, cookie: string, baseline: Figures) {
  for (let start = 0; start < PROJECTS; start += 20) {
    await Promise.all(Array.from({ length: Math.min(20, PROJECTS - start) }, async (_, offset) => {
      const created = await fetch(`${baseUrl}/v1/projects`, {
        method: 'POST', headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ name: `Project ${start + offset + 1}`, objective: 'Ship the thing', defaultLanguage: 'en', timezone: 'Europe/Berlin' }),
      })
      if (!created.ok) throw new Error(`creating a project failed: ${created.status} ${await created.text()}`)
    }))
  }
  console.log(row(`GET /v1/projects, ${PROJECTS} in workspace, page 50 (${label})`, await load(`${baseUrl}/v1/projects`, { cookie }), baseline))
  console.log(row(`GET /v1/projects?limit=200, all ${PROJECTS} (${label})`, await load(`${baseUrl}/v1/projects?limit=200`, { cookie }), baseline))
}

async function benchConfer(label: string, databaseUrl: string, baseline: Figures, audioBaseline: Figures) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'confer-bench-'))
  const server = await startProcess('src/main.ts', {
    NODE_ENV: 'production', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret!', DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl, PUBLIC_URL: BENCH_PUBLIC_ORIGIN, LOG_LEVEL: 'warn', RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000000', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
    // The ingestion scenario measures storing audio; transcription has its own scenario.
    STT_ENGINE: 'client',
  }, '/healthz')
  const outbox = outboxReader(databaseUrl)
  try {
    const cookie = await signIn(server.url, outbox.read)
    if (want('current')) console.log(row(`GET /v1/account/current (${label})`, await load(`${server.url}/v1/account/current`, { cookie }), baseline))
    if (want('projects')) await benchProjects(label, server.url, cookie, baseline)
    if (want('audio')) await benchAudio(label, server.url, outbox.read, audioBaseline)
    if (want('steady')) {
      // BENCH_STREAMS=50,200,1000: open-loop streams of one chunk per second (bench/ingestion.ts)
      const counts = (process.env.BENCH_STREAMS ?? '50,200,1000').split(',').map(Number)
      const streams = await prepareStreams(server.url, Math.max(...counts), () => signIn(server.url, outbox.read))
      await benchIngestion(server.url, streams.slice(0, counts[0]), 3) // warm-up, not reported (chunk ids of its own)
      for (const count of counts) console.log(ingestionRow(label, await benchIngestion(server.url, streams.slice(0, count), DURATION_SECONDS)))
    }
    if (want('fanout')) console.log(fanoutRow(label, await benchFanout(server.url, await signIn(server.url, outbox.read))))
    if (want('presence')) console.log(presenceRow(label, await benchPresence(server.url, await signIn(server.url, outbox.read))))
    if (want('search') || want('answers')) {
      const searcher = await signIn(server.url, outbox.read)
      const me = await (await fetch(`${server.url}/v1/account/current`, { headers: { cookie: searcher } })).json() as { account: { id: string }; workspace: { id: string } }
      const started = performance.now()
      const rows = await seedSearch(databaseUrl, me.workspace.id, me.account.id)
      console.log(`seeded ${rows} transcript segments in ${((performance.now() - started) / 1000).toFixed(0)} s (${label})`)
      if (want('search')) for (const line of await benchSearch(server.url, searcher, label)) console.log(line)
      if (want('answers')) for (const line of await benchAnswers(server.url, searcher, label)) console.log(line)
    }
    if (want('web')) for (const line of await benchWeb(label, server.url, await signIn(server.url, outbox.read))) console.log(line)
    if (want('work')) {
      await benchWork(label, server.url, await signIn(server.url, outbox.read), load,
        (name, figures, against) => console.log(row(name, figures as Figures, (against as Figures | undefined) ?? baseline)))
    }
  } finally {
    await outbox.close()
    await server.stop()
  }
}

// The web scenario measures the client as built from web/ now (the server serves web/dist).
if (want('web')) buildWebClient()

const baselineServer = await startProcess('bench/baseline-server.ts', {}, '/')
const baseline = await load(baselineServer.url)
const audioBaseline = await load(baselineServer.url, AUDIO_HEADERS, { method: 'POST', body: AUDIO_CHUNK, connections: AUDIO_SESSIONS })
await baselineServer.stop()
console.log(`Confer benchmarks: ${CONNECTIONS} connections, ${DURATION_SECONDS} s each, one machine (server and load generator share its cores)`)
console.log(row('baseline: bare node:http, same JSON size', baseline))
console.log(row(`baseline: bare node:http, 32 KiB POSTs, ${AUDIO_SESSIONS} conn.`, audioBaseline).replace('req/s', 'chunks/s'))

const sqliteDir = mkdtempSync(path.join(tmpdir(), 'confer-bench-db-'))
await benchConfer('SQLite', `sqlite:${path.join(sqliteDir, 'confer.db')}`, baseline, audioBaseline)
const postgres = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL
if (postgres) {
  // A schema of its own, dropped afterwards (test/databases.ts reads TEST_DATABASE_URL when loaded).
  process.env.TEST_DATABASE_URL = postgres
  const { createTestDatabase } = await import('../test/databases.ts')
  const database = await createTestDatabase('postgres')
  try {
    await benchConfer('PostgreSQL', database.url, baseline, audioBaseline)
  } finally {
    await database.drop()
  }
}
else console.log('PostgreSQL: skipped (set TEST_DATABASE_URL to include it)')

// Extraction (no server): the extractive engine over a one-hour transcript; goal ≤ 1 s.
if (want('extraction')) console.log(formatExtractionBench(benchExtraction()))

// Transcription (no server): a one-hour recording through VAD, pocketsphinx, vocabulary, turns and sentences.
if (want('transcription')) console.log(await benchTranscription())
