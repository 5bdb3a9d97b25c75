// The local runner end to end: the real server process and real `confer runner` processes. A
// member pairs a runner with a one-time grant; a work object whose next step is runner-a becomes a
// task; the runner runs its configured command and completes with a signed result that appears on
// the work object and on the work channel. A tampered signature, a replayed nonce, an expired lease
// and a revoked runner are each refused; a runner killed mid-task and restarted finishes the task
// exactly once.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import canonicalize from 'canonicalize'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, tempDir } from '../databases.ts'
import { connectSocket, type TestSocket } from '../ws-client.ts'
import { callJson, signInOverHttp, startMailCatcher, startServer, type MailCatcher, type RunningServer } from './server.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const NODE_24 = Number(process.versions.node.split('.')[0]) >= 24 ? process.execPath : path.join(ROOT, 'node_modules/.bin/node')
const uniqueEmail = (label: string) => `${label}-${randomBytes(5).toString('hex')}@example.com`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type RunnerProcess = { child: ChildProcess; output(): string; exited: Promise<number | null> }

function startRunner(dir: string): RunnerProcess {
  const child = spawn(NODE_24, ['src/main.ts', 'runner', 'start', '--dir', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CONFER_RUNNER_DIR: '' } })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

function signed(key: KeyObject, taskId: string, lease: { leaseId: string; attempt: number }, result: unknown, nonce = randomBytes(16).toString('hex')) {
  const timestamp = new Date().toISOString()
  const resultSha256 = createHash('sha256').update(canonicalize(result)!).digest('hex')
  const signature = sign(null, Buffer.from(canonicalize({ taskId, leaseId: lease.leaseId, attempt: lease.attempt, resultSha256, nonce, timestamp })!), key).toString('base64url')
  return { leaseId: lease.leaseId, attempt: lease.attempt, result, nonce, timestamp, signature }
}

async function raw(baseUrl: string, method: string, route: string, token: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) })
  return { status: response.status, body: await response.json() as any }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await probe()
    if (value !== undefined) return value
    await sleep(100)
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe.each(databaseKinds)('the local runner against the real server [%s]', (kind) => {
  let mail: MailCatcher
  let server: RunningServer
  const runners: RunnerProcess[] = []
  const sockets: TestSocket[] = []
  const call = (method: string, route: string, cookie: string, body?: unknown) => callJson(server, method, route, cookie, body)

  beforeAll(async () => {
    mail = await startMailCatcher()
    server = await startServer(kind, { SMTP_URL: mail.url })
  })
  afterAll(async () => {
    for (const runner of runners) runner.child.kill('SIGKILL')
    for (const socket of sockets) await socket.close()
    await server?.stop()
    await mail?.close()
  })

  async function member() {
    const cookie = await signInOverHttp(server, mail, uniqueEmail('runner-owner'))
    await call('POST', '/v1/account/bootstrap', cookie, {})
    return cookie
  }

  /** A config directory with runner.json, paired through `confer runner pair` with a fresh grant. */
  async function pairedDir(cookie: string, runnersConfig: Record<string, unknown>, leaseSeconds = 10) {
    const dir = tempDir('confer-runner-')
    writeFileSync(path.join(dir, 'runner.json'), JSON.stringify({ displayName: 'E2E machine', leaseSeconds, runners: runnersConfig }))
    const grant = await call('POST', '/v1/local-runner/registration-grants', cookie, {})
    expect(grant.pairCommand).toContain(grant.registrationGrant)
    const paired = spawnSync(NODE_24, ['src/main.ts', 'runner', 'pair', '--server', server.baseUrl, '--grant', grant.registrationGrant, '--dir', dir], { cwd: ROOT, encoding: 'utf8' })
    expect(paired.status, `${paired.stdout}${paired.stderr}`).toBe(0)
    // The grant is single use: pairing again with it is refused.
    const again = spawnSync(NODE_24, ['src/main.ts', 'runner', 'pair', '--server', server.baseUrl, '--grant', grant.registrationGrant, '--dir', dir], { cwd: ROOT, encoding: 'utf8' })
    expect(again.status).toBe(1)
    expect(again.stderr).toContain('invalid_registration_grant')
    for (const file of ['signing-key.pem', 'credentials.json']) expect(statSync(path.join(dir, file)).mode & 0o777, file).toBe(0o600)
    return { dir, runnerId: JSON.parse(readFileSync(path.join(dir, 'credentials.json'), 'utf8')).runnerId as string }
  }

  async function runnerTask(cookie: string, nextStep = 'runner-a', runnerKind?: string) {
    const session = await call('POST', '/v1/sessions', cookie, { captureMode: 'microphone' })
    const object = await call('POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Prepare the release checklist', nextStep })
    const task = await call('POST', '/v1/local-runner/tasks', cookie, { workObjectId: object.id, ...(runnerKind ? { runnerKind } : {}) })
    return { session, object, task }
  }

  const taskOf = (cookie: string, id: string) => call('GET', `/v1/local-runner/tasks/${id}`, cookie)
  const completedTask = (cookie: string, id: string, timeoutMs?: number) =>
    until(`task ${id} to complete`, async () => {
      const task = await taskOf(cookie, id)
      return task.status === 'completed' ? task : undefined
    }, timeoutMs)

  it('pairs, turns a runner-a work object into a task and lands the signed result on it', async () => {
    const cookie = await member()
    const { dir, runnerId } = await pairedDir(cookie, {
      'runner-a': { command: ['sh', '-c', 'echo "checklist for $(basename "$PWD") task $CONFER_TASK_ID"; test -f task.json && echo "input ok"'], timeoutSeconds: 30 },
    })
    const listed = await call('GET', '/v1/local-runner/runners', cookie)
    expect(listed.runners).toEqual([expect.objectContaining({ id: runnerId, displayName: 'E2E machine', supportedRunners: ['runner-a'], status: 'active' })])
    const runner = startRunner(dir)
    runners.push(runner)

    const session = await call('POST', '/v1/sessions', cookie, { captureMode: 'microphone' })
    const socket = connectSocket(session.workWebsocketURL, { cookie, origin: server.baseUrl })
    sockets.push(socket)
    await socket.waitFor((message) => message.type === 'hello')
    const object = await call('POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Prepare the release checklist', nextStep: 'runner-a' })
    const task = await call('POST', '/v1/local-runner/tasks', cookie, { workObjectId: object.id })
    expect(task).toMatchObject({ status: 'queued', runnerKind: 'runner-a' })

    const done = await completedTask(cookie, task.id)
    expect(done).toMatchObject({ runnerId, attempt: 1, landedAs: 'comment', result: { outcome: 'succeeded', exitCode: 0 } })
    expect(done.result.output).toContain(`task ${task.id}`)
    expect(done.result.output).toContain('input ok')
    const comments = await call('GET', `/v1/workobjects/${object.id}/comments`, cookie)
    expect(comments).toHaveLength(1)
    expect(comments[0].body).toContain(`task ${task.id}`)
    const event = await socket.waitFor((message) => message.type === 'workobject.runner_task' && message.data.task.id === task.id && message.data.task.status === 'completed', 10_000)
    expect(event.data.task.landedAs).toBe('comment')
    // The stage is a person's to move: the runner's result did not move it.
    const set = await call('GET', `/v1/worksets/${object.workSetId}`, cookie)
    expect(set.workObjects.find((candidate: { id: string }) => candidate.id === object.id).stage).toBe(object.stage)
    // The runner clears its state once the server's answer reaches it.
    await until('the runner to record the completion', async () => (runner.output().includes(`completed ${task.id}`) ? true : undefined), 10_000)
    expect(existsSync(path.join(dir, 'current-task.json'))).toBe(false)

    // Revoking the runner: its next call gets 401 and the process stops.
    await call('DELETE', `/v1/local-runner/runners/${runnerId}`, cookie)
    expect(await runner.exited).toBe(3)
    expect(runner.output()).toContain('invalid_runner_token')
  })

  it('refuses a tampered signature, a replayed nonce, an expired lease and a revoked runner', async () => {
    const cookie = await member()
    const { publicKey, privateKey } = generateKeyPairSync('ed25519')
    const grant = await call('POST', '/v1/local-runner/registration-grants', cookie, {})
    const registered = await raw(server.baseUrl, 'POST', '/v1/local-runner/registrations', grant.registrationGrant, {
      installationId: 'raw-client', displayName: 'Raw client', supportedRunners: ['runner-b'], capabilities: [],
      publicSigningKey: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    })
    expect(registered.status).toBe(200)
    const token = registered.body.runnerToken as string
    const result = { outcome: 'succeeded', output: 'done by hand' }

    const first = await runnerTask(cookie, 'organize', 'runner-b')
    const taken = await raw(server.baseUrl, 'POST', '/v1/local-runner/tasks/take', token, { waitSeconds: 5 })
    expect(taken.body.task.id).toBe(first.task.id)
    const tampered = { ...signed(privateKey, first.task.id, taken.body.lease, result), result: { outcome: 'succeeded', output: 'tampered' } }
    const refused = await raw(server.baseUrl, 'POST', `/v1/local-runner/tasks/${first.task.id}/complete`, token, tampered)
    expect([refused.status, refused.body.code]).toEqual([403, 'completion_signature_invalid'])
    const good = signed(privateKey, first.task.id, taken.body.lease, result)
    expect((await raw(server.baseUrl, 'POST', `/v1/local-runner/tasks/${first.task.id}/complete`, token, good)).status).toBe(200)
    expect((await raw(server.baseUrl, 'POST', `/v1/local-runner/tasks/${first.task.id}/complete`, token, good)).status).toBe(200)

    const second = await runnerTask(cookie, 'organize', 'runner-b')
    const secondLease = (await raw(server.baseUrl, 'POST', '/v1/local-runner/tasks/take', token, { waitSeconds: 5 })).body.lease
    const replayed = await raw(server.baseUrl, 'POST', `/v1/local-runner/tasks/${second.task.id}/complete`, token, signed(privateKey, second.task.id, secondLease, result, good.nonce))
    expect([replayed.status, replayed.body.code]).toEqual([409, 'nonce_reused'])

    const third = await runnerTask(cookie, 'organize', 'runner-b')
    const takenThird = await raw(server.baseUrl, 'POST', '/v1/local-runner/tasks/take', token, { waitSeconds: 5, leaseSeconds: 2 })
    expect(takenThird.body.task.id).toBe(third.task.id)
    await sleep(2500)
    const expired = await raw(server.baseUrl, 'POST', `/v1/local-runner/tasks/${third.task.id}/complete`, token, signed(privateKey, third.task.id, takenThird.body.lease, result))
    expect([expired.status, expired.body.code]).toEqual([409, 'lease_expired'])
    expect((await taskOf(cookie, third.task.id)).status).toBe('queued')

    await call('DELETE', `/v1/local-runner/runners/${registered.body.runner.id}`, cookie)
    const revoked = await raw(server.baseUrl, 'POST', '/v1/local-runner/tasks/take', token, { waitSeconds: 0 })
    expect([revoked.status, revoked.body.code]).toEqual([401, 'invalid_runner_token'])
    expect((await call('GET', `/v1/workobjects/${second.object.id}/comments`, cookie))).toHaveLength(0)
    expect((await call('GET', `/v1/workobjects/${third.object.id}/comments`, cookie))).toHaveLength(0)
  })

  it('finishes a task exactly once when the runner is killed mid-task and restarted', async () => {
    const cookie = await member()
    const marker = tempDir('confer-runs-')
    const { dir } = await pairedDir(cookie, {
      'runner-a': { command: ['sh', '-c', `echo run >> "${marker}/runs"; echo "working on $CONFER_TASK_ID"; sleep 3; echo "finished $CONFER_TASK_ID"`], timeoutSeconds: 30 },
    }, 20)
    const first = startRunner(dir)
    runners.push(first)
    const { object, task } = await runnerTask(cookie)
    await until('the runner to start the command', async () => (existsSync(path.join(marker, 'runs')) ? true : undefined))
    await sleep(500)
    first.child.kill('SIGKILL')
    await first.exited
    const state = JSON.parse(readFileSync(path.join(dir, 'current-task.json'), 'utf8'))
    expect(state).toMatchObject({ taskId: task.id, phase: 'running' })
    expect((await taskOf(cookie, task.id)).status).toBe('leased')

    const second = startRunner(dir)
    runners.push(second)
    const done = await completedTask(cookie, task.id)
    expect(done.result.output).toContain(`finished ${task.id}`)
    expect(second.output()).toContain(`still holding ${task.id}`)
    const comments = await call('GET', `/v1/workobjects/${object.id}/comments`, cookie)
    expect(comments).toHaveLength(1)
    // Another task after the restart runs once too, and the completed one is never offered again.
    const next = await runnerTask(cookie)
    await completedTask(cookie, next.task.id)
    await sleep(500)
    expect((await call('GET', `/v1/workobjects/${object.id}/comments`, cookie))).toHaveLength(1)
    expect(readFileSync(path.join(marker, 'runs'), 'utf8').trim().split('\n')).toHaveLength(3)
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  })

  it('resends a completion a crash left unacknowledged, and signs a kept result instead of running again', async () => {
    const cookie = await member()
    const marker = tempDir('confer-runs-')
    const { dir } = await pairedDir(cookie, { 'runner-a': { command: ['sh', '-c', `echo run >> "${marker}/runs"; echo ran`] } })
    const credentials = JSON.parse(readFileSync(path.join(dir, 'credentials.json'), 'utf8'))
    const key = createPrivateKey(readFileSync(path.join(dir, 'signing-key.pem'), 'utf8'))
    // As the runner did before it died: took A, ran it, signed and sent the completion, and the
    // server stored it, but the answer never arrived, so current-task.json still says `completing`.
    const a = await runnerTask(cookie)
    const takenA = await raw(server.baseUrl, 'POST', '/v1/local-runner/tasks/take', credentials.runnerToken, { waitSeconds: 5 })
    expect(takenA.body.task.id).toBe(a.task.id)
    const completion = signed(key, a.task.id, takenA.body.lease, { outcome: 'succeeded', output: 'A is done' })
    expect((await raw(server.baseUrl, 'POST', `/v1/local-runner/tasks/${a.task.id}/complete`, credentials.runnerToken, completion)).status).toBe(200)
    writeFileSync(path.join(dir, 'current-task.json'), JSON.stringify({
      taskId: a.task.id, runnerKind: 'runner-a', lease: takenA.body.lease, phase: 'completing', input: { taskId: a.task.id, runnerKind: 'runner-a' }, completion,
    }))
    // B's result was kept when its lease lapsed before the completion got through.
    const b = await runnerTask(cookie)
    mkdirSync(path.join(dir, 'results'), { recursive: true })
    writeFileSync(path.join(dir, 'results', `${b.task.id}.json`), JSON.stringify({ outcome: 'succeeded', output: 'B was done before the restart' }))

    const runner = startRunner(dir)
    runners.push(runner)
    const doneB = await completedTask(cookie, b.task.id)
    expect(doneB.result.output).toBe('B was done before the restart')
    await until('the runner to settle A and B', async () => (runner.output().includes(`completed ${a.task.id}`) && runner.output().includes(`completed ${b.task.id}`) ? true : undefined), 10_000)
    expect(existsSync(path.join(marker, 'runs'))).toBe(false)
    expect(await call('GET', `/v1/workobjects/${a.object.id}/comments`, cookie)).toHaveLength(1)
    expect(await call('GET', `/v1/workobjects/${b.object.id}/comments`, cookie)).toHaveLength(1)
    expect(existsSync(path.join(dir, 'current-task.json'))).toBe(false)
    expect(existsSync(path.join(dir, 'results', `${b.task.id}.json`))).toBe(false)
    runner.child.kill('SIGTERM')
    expect(await runner.exited).toBe(0)
  })
})
