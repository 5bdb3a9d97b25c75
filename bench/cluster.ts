// `npm run bench -- --cluster` (or BENCH_ONLY=cluster): 1, then 2, then 4 real server processes
// (`node src/main.ts serve`) on one PostgreSQL schema, with the S3-compatible blob store (s3rver
// in its own process), behind haproxy (round-robin, WebSocket upgrades); the same three loads
// through the balancer at each size, and how far each grows against one node. bench/README.md.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { postJson, startMailCatcher, type MailCatcher } from '../test/e2e/server.ts'
import { loadAudio, loadFanout, loadReads, loadS3Puts, type Rate } from './cluster-load.ts'
import { ensureHaproxy, startHaproxy, type Balancer } from './haproxy.ts'
import { freePort, startProcess, type Running } from './servers.ts'

const SIZES = (process.env.BENCH_CLUSTER_NODES ?? '1,2,4').split(',').map(Number)
const SOCKETS = Number(process.env.BENCH_CLUSTER_SOCKETS ?? 200)
const AUDIO_SESSIONS = 50
/** `database` compares with the blobs table; the default is the S3-compatible store */
const BLOBS = process.env.BENCH_CLUSTER_BLOBS === 'database' ? 'database' : 's3'

process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL
if (!process.env.TEST_DATABASE_URL) {
  console.log('cluster: skipped (the nodes share one PostgreSQL: set TEST_DATABASE_URL or BENCH_DATABASE_URL)')
  process.exit(0)
}
const { createTestDatabase } = await import('../test/databases.ts')

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; 0 elsewhere). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

async function startS3(): Promise<{ env: Record<string, string>; pid: number | undefined; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['bench/s3-process.ts'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [line] = await once(createInterface({ input: child.stdout! }), 'line') as [string]
  return {
    env: JSON.parse(line) as Record<string, string>,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM')
      await once(child, 'exit')
    },
  }
}

function withApplicationName(url: string) {
  const parsed = new URL(url)
  parsed.searchParams.set('application_name', 'confer-cluster-bench')
  return parsed.toString()
}

let accounts = 0
async function signIn(baseUrl: string, mail: MailCatcher): Promise<string> {
  const email = `cluster-${Date.now()}-${(accounts += 1)}@example.com`
  const origin = { origin: baseUrl }
  const seen = mail.messages.length
  const sent = await postJson(`${baseUrl}/api/auth/email-otp/send-verification-otp`, { email, type: 'sign-in' }, origin)
  if (!sent.ok) throw new Error(`sending the code failed: ${sent.status} ${await sent.text()}`)
  const signedIn = await postJson(`${baseUrl}/api/auth/sign-in/email-otp`, { email, otp: await mail.codeFor(email, seen) }, origin)
  const cookie = signedIn.headers.getSetCookie().find((value) => value.includes('session_token='))?.split(';')[0]
  if (!cookie) throw new Error(`sign-in failed: ${signedIn.status}`)
  const boot = await postJson(`${baseUrl}/v1/account/bootstrap`, {}, { cookie, ...origin })
  if (!boot.ok) throw new Error(`bootstrap failed: ${boot.status}`)
  return cookie
}

async function recordingSession(baseUrl: string, cookie: string) {
  const created = await postJson(`${baseUrl}/v1/sessions`, { captureMode: 'microphone' }, { cookie })
  if (!created.ok) throw new Error(`creating a session failed: ${created.status} ${await created.text()}`)
  return { cookie, id: ((await created.json()) as { id: string }).id }
}

const load = () => loadavg().map((value) => value.toFixed(2)).join(' ')
const fixed = (value: number) => value.toFixed(0).padStart(7)

/** cores used on average during a load: the nodes together, their PostgreSQL backends, s3rver, haproxy, the load generator */
type Cores = { nodes: number; postgres: number; s3: number; balancer: number; client: number }
type Measured<T> = T & { cores: Cores }
type Row = {
  nodes: number; reads: Measured<Rate>; audio: Measured<Rate>; fanout: Measured<Rate & { sockets: number; deliveries: number; expected: number }>
  loadBefore: string; loadAfter: string
}
const coresLine = (cores: Cores) => `nodes ${cores.nodes.toFixed(2)}, PostgreSQL ${cores.postgres.toFixed(2)}, s3rver ${cores.s3.toFixed(2)}, ` +
  `haproxy ${cores.balancer.toFixed(2)}, load generator ${cores.client.toFixed(2)}`

/** The nodes' PostgreSQL backends (their pools carry application_name=confer-cluster-bench). */
async function backendPids(): Promise<number[]> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  const { rows } = await client.query<{ pid: number }>("select pid from pg_stat_activity where application_name = 'confer-cluster-bench'")
  await client.end()
  return rows.map((row) => row.pid)
}

async function measure<T>(measured: Running[], run: () => Promise<T>): Promise<Measured<T>> {
  const pids = await backendPids()
  const cpu = () => ({
    nodes: measured.reduce((sum, node) => sum + cpuSeconds(node.child.pid), 0),
    s3: cpuSeconds(s3.pid), balancer: cpuSeconds(balancer?.pid), client: (process.cpuUsage().user + process.cpuUsage().system) / 1e6, at: performance.now(),
  })
  const before = cpu()
  const backendsBefore = pids.map(cpuSeconds)
  const result = await run()
  const after = cpu()
  // A backend that ended during the load reads 0 afterwards: count only those still there.
  const postgres = pids.reduce((sum, pid, index) => {
    const now = cpuSeconds(pid)
    return sum + (now > 0 ? Math.max(0, now - backendsBefore[index]!) : 0)
  }, 0)
  const seconds = (after.at - before.at) / 1000
  const used = (pick: (sample: typeof before) => number) => (pick(after) - pick(before)) / seconds
  return {
    ...result,
    cores: { nodes: used((x) => x.nodes), postgres: postgres / seconds, s3: used((x) => x.s3), balancer: used((x) => x.balancer), client: used((x) => x.client) },
  }
}

const database = await createTestDatabase('postgres')
const s3 = await startS3()
const mail = await startMailCatcher()
const balancerPort = await freePort()
const baseUrl = `http://127.0.0.1:${balancerPort}`
const nodes: Running[] = []
let balancer: Balancer | undefined
const rows: Row[] = []
try {
  ensureHaproxy()
  const env = {
    ...(BLOBS === 's3' ? s3.env : { BLOB_STORE: 'database' }), NODE_ENV: 'test', LOG_LEVEL: 'warn', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret!', DATABASE_URL: withApplicationName(database.url),
    PUBLIC_URL: baseUrl, SMTP_URL: mail.url, STT_ENGINE: 'client', RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000000', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
  }
  const startNode = async () => nodes.push(await startProcess('src/main.ts', { ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'confer-cluster-')) }, '/healthz'))
  await startNode()
  balancer = await startHaproxy(balancerPort, nodes.map((node) => Number(new URL(node.url).port)))
  const reader = await signIn(baseUrl, mail)
  const writer = await signIn(baseUrl, mail)
  const sessions: { cookie: string; id: string }[] = []
  for (let index = 0; index < AUDIO_SESSIONS; index += 1) sessions.push(await recordingSession(baseUrl, await signIn(baseUrl, mail)))
  console.log(`Confer cluster bench: 1 PostgreSQL, ${BLOBS === 's3' ? 'S3-compatible store (s3rver)' : 'blobs in the database'}, haproxy round-robin; ` +
    `${process.env.BENCH_DURATION ?? 8} s per load; ${SOCKETS} sockets; load average ${load()}`)
  const ceiling = await loadS3Puts(s3.env)
  console.log(`s3rver alone: ${ceiling.perSecond.toFixed(0)} PutObject/s of 32 KiB from 50 loops (p50 ${ceiling.p50} p99 ${ceiling.p99} ms, ${ceiling.failures} failures)`)

  for (const size of SIZES) {
    while (nodes.length < size) await startNode()
    await balancer.stop()
    balancer = await startHaproxy(balancerPort, nodes.slice(0, size).map((node) => Number(new URL(node.url).port)))
    await new Promise((resolve) => setTimeout(resolve, 3000))
    const loadBefore = load()
    const measured = nodes.slice(0, size)
    const reads = await measure(measured, () => loadReads(`${baseUrl}/v1/account/current`, reader))
    const audio = await measure(measured, () => loadAudio(baseUrl, sessions))
    const fanout = await measure(measured, () => loadFanout(baseUrl, writer, SOCKETS))
    const row = { nodes: size, reads, audio, fanout, loadBefore, loadAfter: load() }
    rows.push(row)
    console.log(`${size} node(s)  GET /v1/account/current ${fixed(reads.perSecond)} req/s (p50 ${reads.p50} p99 ${reads.p99} ms)` +
      `  audio ${fixed(audio.perSecond)} chunks/s (p50 ${audio.p50} p99 ${audio.p99} ms)` +
      `  fan-out ${fixed(fanout.perSecond)} events/s to ${fanout.sockets} sockets (${fanout.deliveries}/${fanout.expected} delivered, p50 ${fanout.p50} p99 ${fanout.p99} ms)` +
      `  failures ${reads.failures}/${audio.failures}/${fanout.failures}  load ${loadBefore} → ${row.loadAfter}`)
    for (const [name, figures] of [['reads', reads], ['audio', audio], ['fan-out', fanout]] as const) console.log(`    cores during ${name}: ${coresLine(figures.cores)}`)
  }
  // Factors against the mean of the 1-node runs (BENCH_CLUSTER_NODES=1,2,4,4,2,1 repeats each size).
  const ones = rows.filter((row) => row.nodes === 1)
  const mean = (pick: (row: Row) => number) => ones.reduce((sum, row) => sum + pick(row), 0) / Math.max(1, ones.length)
  const one = { reads: { perSecond: mean((row) => row.reads.perSecond) }, audio: { perSecond: mean((row) => row.audio.perSecond) }, fanout: { perSecond: mean((row) => row.fanout.perSecond) } }
  const factor = (value: number, base: number) => `×${(value / base).toFixed(2)}`
  const perCore = (rate: Measured<Rate>) => (rate.perSecond / Math.max(0.01, rate.cores.nodes + rate.cores.postgres)).toFixed(0)
  console.log('\nnodes: throughput (scaling factor against 1 node; p50/p99 ms) [per core-second of nodes + their PostgreSQL backends]')
  console.log('| nodes | reads req/s | ingestion chunks/s | fan-out events/s | load avg before → after |')
  console.log('|---|---|---|---|---|')
  for (const row of rows) {
    console.log(`| ${row.nodes} | ${row.reads.perSecond.toFixed(0)} (${factor(row.reads.perSecond, one.reads.perSecond)}; ${row.reads.p50}/${row.reads.p99}) [${perCore(row.reads)}] ` +
      `| ${row.audio.perSecond.toFixed(0)} (${factor(row.audio.perSecond, one.audio.perSecond)}; ${row.audio.p50}/${row.audio.p99}) [${perCore(row.audio)}] ` +
      `| ${row.fanout.perSecond.toFixed(0)} (${factor(row.fanout.perSecond, one.fanout.perSecond)}; ${row.fanout.p50}/${row.fanout.p99}) [${perCore(row.fanout)}] ` +
      `| ${row.loadBefore} → ${row.loadAfter} |`)
  }
} finally {
  await balancer?.stop()
  for (const node of nodes) await node.stop()
  await mail.close()
  await s3.stop()
  await database.drop()
}
