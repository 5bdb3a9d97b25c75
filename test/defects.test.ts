// The defects found by using Confer from outside (issue 11), each through HTTP on every database:
// text that cannot be stored, cursors of the wrong shape, a session's project from another
// workspace, a project's sessions, password-reset mail, idempotency by route, audio that is not
// audio, uniform error bodies, slow and unwanted bodies, and production over plain http.
import { spawn } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { LightMyRequestResponse } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { startRecording, uploadChunk } from '../src/modules/sessions/testing.ts'
import { wavFile } from '../src/platform/speech/audio.ts'
import { tempDir } from './databases.ts'
import { expectProblem } from './problems.ts'
import { eachDatabase, TEST_SECRET, type Harness, type Member } from './harness.ts'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const cursorOf = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url')

/** A whole WAV file of quiet 16-bit mono PCM at 16 kHz. */
const wavBytes = (samples = 1600): Buffer => wavFile(new Int16Array(samples).fill(257))

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(200, 7)])

eachDatabase('defects found from outside', (h) => {
  let owner: Member
  let stranger: Member
  let sessionId: string
  beforeAll(async () => {
    owner = await h.member()
    stranger = await h.member()
    sessionId = (await startRecording(owner)).id
  })

  describe('text that cannot be stored: NUL and lone surrogates → 400 invalid_character', () => {
    const refused = (response: LightMyRequestResponse, field: string) => {
      const body = expectProblem(response, 400, 'validation_failed')
      expect(body.errors).toEqual([expect.objectContaining({ field, code: 'invalid_character' })])
    }

    it('in a path id and in a query', async () => {
      refused(await owner.get('/v1/workobjects/%00'), 'workObjectId')
      refused(await owner.get('/v1/sessions?projectId=%00'), 'projectId')
      refused(await owner.get(`/v1/sessions/${sessionId}%00`), 'sessionId')
    })

    it('in stored strings: project name, profile, session title, bootstrap workspaceId, work object title', async () => {
      refused(await owner.post('/v1/projects', { name: 'a\u0000b' }), 'name')
      refused(await owner.patch('/v1/account/profile', { name: 'Ada\u0000' }), 'name')
      refused(await owner.patch(`/v1/sessions/${sessionId}`, { title: 'x\u0000' }), 'title')
      refused(await owner.post('/v1/account/bootstrap', { workspaceId: 'wsp_\u0000' }), 'workspaceId')
      refused(await owner.post(`/v1/sessions/${sessionId}/workobjects`, { kind: 'action', title: 'x\ud800' }), 'title')
      // the same, as a client would send it: an escaped lone surrogate in the JSON text
      refused(await owner.request('POST', `/v1/sessions/${sessionId}/workobjects`, {
        payload: '{"kind":"action","title":"x\\ud800"}', headers: { 'content-type': 'application/json' },
      }), 'title')
      refused(await owner.post('/v1/projects', { ['na\u0000me']: 'x' }), 'body')
    })

    it('on the auth routes too', async () => {
      const response = await h.anonymous.post('/api/auth/email-otp/send-verification-otp', { email: 'a\u0000@example.com', type: 'sign-in' })
      refused(response, 'email')
    })
  })

  describe('cursors that decode to the wrong types → 400 invalid_cursor', () => {
    it('on the transcript, the session list and the chunk list', async () => {
      for (const key of [['a', 'b'], [1e300, 'x'], [1, 5], [1, 'x\u0000'], [-1, 'x'], [1.5, 'x'], [null, 'x']]) {
        expectProblem(await owner.get(`/v1/sessions/${sessionId}/transcript?cursor=${cursorOf(key)}`), 400, 'invalid_cursor')
      }
      expect((await owner.get(`/v1/sessions/${sessionId}/transcript?cursor=${cursorOf([0, 'seg_x'])}`)).statusCode).toBe(200)
      expectProblem(await owner.get(`/v1/sessions?cursor=${cursorOf([1, 2])}`), 400, 'invalid_cursor')
      expectProblem(await owner.get(`/v1/sessions/${sessionId}/chunks?cursor=${cursorOf(['x'])}`), 400, 'invalid_cursor')
      expectProblem(await owner.get(`/v1/projects?cursor=${cursorOf([7])}`), 400, 'invalid_cursor')
    })
  })

  describe("a session's projectId must be a project of the caller's workspace", () => {
    it('on create and on change (400 unknown_project), and a project of the workspace is kept', async () => {
      const foreign = (await stranger.post('/v1/projects', { name: 'Theirs' })).json().id as string
      const mine = (await owner.post('/v1/projects', { name: 'Mine' })).json().id as string
      const person = await h.member()
      for (const projectId of [foreign, 'prj_01JAAAAAAAAAAAAAAAAAAAAAAA']) {
        const created = await person.post('/v1/sessions', { captureMode: 'microphone', projectId })
        expect(expectProblem(created, 400, 'validation_failed').errors).toEqual([expect.objectContaining({ field: 'projectId', code: 'unknown_project' })])
        const changed = await owner.patch(`/v1/sessions/${sessionId}`, { projectId })
        expect(expectProblem(changed, 400, 'validation_failed').errors).toEqual([expect.objectContaining({ field: 'projectId', code: 'unknown_project' })])
      }
      expect((await owner.get(`/v1/sessions?projectId=${foreign}`)).json()).toEqual([])
      const moved = await owner.patch(`/v1/sessions/${sessionId}`, { projectId: mine })
      expect(moved.statusCode).toBe(200)
      expect(moved.json().projectId).toBe(mine)
      expect((await owner.patch(`/v1/sessions/${sessionId}`, { projectId: null })).json()).not.toHaveProperty('projectId')
    })

    it('an archived project takes no new meeting (400 project_archived) until it is restored', async () => {
      const person = await h.member()
      const projectId = (await person.post('/v1/projects', { name: 'Old launch' })).json().id as string
      const earlier = await startRecording(person, { projectId })
      await person.post(`/v1/sessions/${earlier.id}/end`)
      expect((await person.patch(`/v1/projects/${projectId}`, { status: 'archived' })).statusCode).toBe(200)
      const archived = [expect.objectContaining({ field: 'projectId', code: 'project_archived' })]
      expect(expectProblem(await person.post('/v1/sessions', { captureMode: 'microphone', projectId }), 400, 'validation_failed').errors).toEqual(archived)
      const other = await startRecording(person)
      expect(expectProblem(await person.patch(`/v1/sessions/${other.id}`, { projectId }), 400, 'validation_failed').errors).toEqual(archived)
      // its own meetings keep it, and may still be edited
      const renamed = await person.patch(`/v1/sessions/${earlier.id}`, { title: 'Kickoff', projectId })
      expect(renamed.statusCode).toBe(200)
      expect(renamed.json().projectId).toBe(projectId)
      expect((await person.patch(`/v1/projects/${projectId}`, { status: 'active' })).statusCode).toBe(200)
      expect((await person.patch(`/v1/sessions/${other.id}`, { projectId })).json().projectId).toBe(projectId)
    })
  })

  describe('GET /v1/projects/{projectId} answers the project\'s sessions', () => {
    it('newest first, without archived ones or other projects\' sessions', async () => {
      const person = await h.member()
      const projectId = (await person.post('/v1/projects', { name: 'Launch' })).json().id as string
      const other = (await person.post('/v1/projects', { name: 'Other' })).json().id as string
      const first = await startRecording(person, { projectId })
      await person.post(`/v1/sessions/${first.id}/end`)
      const second = await startRecording(person, { projectId: other })
      await person.patch(`/v1/sessions/${second.id}`, { projectId })
      await person.post(`/v1/sessions/${second.id}/end`)
      const third = await startRecording(person, { projectId: other })
      const detail = await person.get(`/v1/projects/${projectId}`)
      expect(detail.statusCode).toBe(200)
      expect(detail.json().sessions.map((session: { id: string }) => session.id)).toEqual([second.id, first.id])
      expect(detail.json().sessions[0]).toMatchObject({ id: second.id, projectId, conversationId: second.conversationId, state: expect.any(String) })
      await person.post(`/v1/sessions/${third.id}/end`)
      await waitUntilEnded(h, person, first.id)
      expect((await person.patch(`/v1/sessions/${first.id}`, { archived: true })).statusCode).toBe(200)
      expect((await person.get(`/v1/projects/${projectId}`)).json().sessions.map((session: { id: string }) => session.id)).toEqual([second.id])
    })
  })

  describe('password sign-in is off: the password-reset routes send no mail', () => {
    it('answers 404 problem+json and writes nothing to the outbox', async () => {
      const email = h.uniqueEmail('reset')
      for (const url of ['/api/auth/email-otp/request-password-reset', '/api/auth/forget-password/email-otp']) {
        for (let attempt = 0; attempt < 3; attempt += 1) expectProblem(await h.anonymous.post(url, { email }), 404, 'route_not_found')
      }
      expectProblem(await h.anonymous.post('/api/auth/email-otp/send-verification-otp', { email, type: 'forget-password' }), 400, 'password_sign_in_off')
      const mails = await h.database.db.selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute()
      expect(mails).toEqual([])
      // … and the five sign-in codes of the hour are all still there
      for (let index = 0; index < 5; index += 1) expect((await h.sendCode(email)).statusCode).toBe(200)
      expectProblem(await h.sendCode(email), 429, 'otp_send_limit')
    })
  })

  describe('Idempotency-Key is scoped by route, and the body fingerprint ignores key order', () => {
    it('replays for an encoded path and for reordered fields', async () => {
      const key = `idem-${Math.random().toString(36).slice(2)}`
      const first = await owner.post('/v1/projects', { name: 'Once', objective: 'Only one' }, { 'idempotency-key': key })
      expect(first.statusCode).toBe(200)
      const encoded = await owner.post('/v1/%70rojects', { name: 'Once', objective: 'Only one' }, { 'idempotency-key': key })
      expect(encoded.statusCode).toBe(200)
      expect(encoded.headers['idempotent-replayed']).toBe('true')
      expect(encoded.json().id).toBe(first.json().id)
      const reordered = await owner.post('/v1/projects', { objective: 'Only one', name: 'Once' }, { 'idempotency-key': key })
      expect(reordered.statusCode).toBe(200)
      expect(reordered.json().id).toBe(first.json().id)
      const other = await owner.post('/v1/projects', { name: 'Twice', objective: 'Only one' }, { 'idempotency-key': key })
      expectProblem(other, 422, 'idempotency_key_reused')
      const named = (await owner.get('/v1/projects?limit=200')).json()
      const items = (Array.isArray(named) ? named : named.projects) as { name: string }[]
      expect(items.filter((project) => project.name === 'Once')).toHaveLength(1)
    })
  })

  describe('bytes that are not audio are refused at upload (415)', () => {
    it('as audio/wav and as audio/webm, while real WAV is stored', async () => {
      const person = await h.member()
      const session = await startRecording(person)
      const text = Buffer.from('this is not audio at all, just some text that claims to be a wave file\n'.repeat(20))
      const wav = await uploadChunk(person, session.id, 'text-as-wav', text, { contentType: 'audio/wav' })
      expect(expectProblem(wav, 415, 'unsupported_media_type').detail).toMatch(/not WAV audio/)
      const png = await uploadChunk(person, session.id, 'png-as-webm', PNG, { contentType: 'audio/webm' })
      expect(expectProblem(png, 415, 'unsupported_media_type').detail).toMatch(/image\/png/)
      expect((await uploadChunk(person, session.id, 'real-wav', wavBytes(), { contentType: 'audio/wav' })).statusCode).toBe(200)
      const chunks = (await person.get(`/v1/sessions/${session.id}/chunks`)).json().chunks
      expect(chunks.map((chunk: { chunkId: string }) => chunk.chunkId)).toEqual(['real-wav'])
    })
  })

  describe('error bodies are uniform problem+json', () => {
    it('for a malformed URL', async () => {
      const body = expectProblem(await owner.get('/v1/sessions/%zz'), 400, 'validation_failed')
      expect(body.detail).toMatch(/percent-encoding/)
    })

    it('for an auth route error', async () => {
      const body = expectProblem(await h.anonymous.post('/api/auth/sign-in/email-otp', { email: h.uniqueEmail(), otp: '000000' }), 400, 'invalid_otp')
      expect(body.title).toBe('Bad Request')
      expectProblem(await h.anonymous.get('/api/auth/no-such-endpoint'), 404, 'route_not_found')
    })

    it('for a value outside an enum: one error that lists the allowed values', async () => {
      const body = expectProblem(await owner.post('/v1/sessions', { captureMode: 'telepathy' }), 400, 'validation_failed')
      expect(body.errors).toEqual([{ field: 'captureMode', code: 'enum', message: 'must be one of: "microphone", "microphone-and-system-audio"' }])
    })

    it('for a __proto__ key: says so, not "not valid JSON"', async () => {
      const response = await owner.request('PATCH', '/v1/account/profile', {
        payload: '{"name":"Ada","__proto__":{"isAdmin":true}}', headers: { 'content-type': 'application/json' },
      })
      const body = expectProblem(response, 400, 'validation_failed')
      expect(body.errors).toEqual([expect.objectContaining({ field: '__proto__', code: 'forbidden_key' })])
      expect(body.detail).not.toMatch(/not valid JSON/)
      const broken = await owner.request('PATCH', '/v1/account/profile', { payload: '{"name":', headers: { 'content-type': 'application/json' } })
      expect(expectProblem(broken, 400, 'validation_failed').detail).toMatch(/not valid JSON/)
    })
  })

  describe('the OpenAPI document', () => {
    it('lists the realtime route and answers project suggestions as an array', async () => {
      const document = (await h.anonymous.get('/v1/openapi.json')).json()
      expect(document.paths['/v1/conversations/{conversationId}/events']?.get?.operationId).toBe('streamConversationEvents')
      const suggestions = document.paths['/v1/sessions/{sessionId}/workobjects/project-suggestions'].post.responses['200']
      const schema = suggestions.content['application/json'].schema
      expect(schema.type).toBe('array')
    })
  })

  describe('the log of `serve` in development', () => {
    it('is readable lines: a start line with the URL, /docs, the database and the speech engine; the sign-in code on its own line', async () => {
      const server = spawnMain({
        NODE_ENV: 'development', AUTH_SECRET: TEST_SECRET, DATABASE_URL: h.testDatabase.url, PORT: '0', HOST: '127.0.0.1',
        PUBLIC_URL: 'http://localhost:8080',
        DATA_DIR: tempDir(), STT_ENGINE: 'client', WORKERS: '0',
      })
      try {
        const ready = await server.waitFor(/Confer is ready at .*/)
        expect(ready).toMatch(/ready at http:\/\/localhost:8080 · API reference http:\/\/localhost:8080\/docs · database: (SQLite at \S+confer\.db|PostgreSQL at \S+) · speech engine: none on the server/)
        expect(ready).not.toMatch(/postgres:\/\/[^@\s]*:[^@\s]*@/)
        const port = Number((await server.waitFor(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/)).match(/:(\d+)$/)![1])
        const email = h.uniqueEmail('newcomer')
        const sent = await fetch(`http://127.0.0.1:${port}/api/auth/email-otp/send-verification-otp`, {
          method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost:8080' }, body: JSON.stringify({ email, type: 'sign-in' }),
        })
        expect(sent.status).toBe(200)
        await server.waitFor(new RegExp(`mail \\(no SMTP_URL\\) to ${email.replace('.', '\\.')}`))
        const code = (await server.waitFor(/^\s*\d{6}\s*$/m)).trim()
        expect(code).toMatch(/^\d{6}$/)
        expect(server.output().split('\n').filter((line) => line.startsWith('{'))).toEqual([])
      } finally {
        await server.stop()
      }
    })
  })

  describe('production over plain http', () => {
    it('refuses to start, naming PUBLIC_URL', async () => {
      const { code, stderr } = await runMain(['serve'], {
        NODE_ENV: 'production', PUBLIC_URL: 'http://confer.example.com', AUTH_SECRET: TEST_SECRET,
        DATABASE_URL: h.testDatabase.url, PORT: '0', HOST: '127.0.0.1',
      })
      expect(code).toBe(2)
      expect(stderr).toContain('PUBLIC_URL: must be https:// in production')
    })
  })
})

eachDatabase('slow and unwanted bodies', (h) => {
  let port: number
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' })
    port = (h.app.server.address() as net.AddressInfo).port
  })

  it('closes a connection that trickles its body (REQUEST_TIMEOUT_MS)', async () => {
    const started = Date.now()
    const socket = net.connect(port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.on('error', () => {})
    // a public route, so that nothing refuses the request before its body is read
    socket.write('POST /api/auth/email-otp/send-verification-otp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{')
    let received = ''
    socket.on('data', (chunk) => { received += chunk.toString() })
    const trickle = setInterval(() => { if (!socket.destroyed) socket.write(' ') }, 100)
    await new Promise((resolve) => socket.once('close', resolve))
    clearInterval(trickle)
    const elapsed = Date.now() - started
    expect(elapsed).toBeLessThan(5_000)
    expect(elapsed).toBeGreaterThanOrEqual(900)
    expect(received).toMatch(/^HTTP\/1\.1 408/)
  })

  it('answers 401 to a signed-in route without reading a huge body, and closes the connection', async () => {
    const socket = net.connect(port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.on('error', () => {})
    let received = ''
    socket.on('data', (chunk) => { received += chunk.toString() })
    let closed = false
    socket.once('close', () => { closed = true })
    socket.write(`POST /v1/projects HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${2 ** 30}\r\n\r\n`)
    const piece = Buffer.alloc(64 * 1024, 0x20)
    let sent = 0
    const deadline = Date.now() + 10_000
    while (!closed && sent < 2 ** 30 && Date.now() < deadline) {
      if (!socket.write(piece)) await new Promise((resolve) => { socket.once('drain', resolve); socket.once('close', resolve) })
      sent += piece.length
    }
    await new Promise((resolve) => (closed ? resolve(undefined) : socket.once('close', resolve)))
    expect(received).toMatch(/^HTTP\/1\.1 401/)
    expect(received.toLowerCase()).toContain('connection: close')
    expect(sent).toBeLessThan(256 * 1024 * 1024)
  })

  it('keeps a connection open when a request without a body is answered at once (a cached answer, a 401)', async () => {
    const person = await h.member()
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const get = (cookie?: string) => new Promise<{ status: number; connection: string | undefined; reused: boolean; body: string }>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/v1/account/current', agent, headers: cookie ? { cookie } : {} }, (response) => {
        let body = ''
        response.on('data', (chunk) => { body += chunk })
        response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, reused: request.reusedSocket, body }))
      })
      request.on('error', reject)
    })
    try {
      const first = await get(person.cookie) // read from the database
      const cached = await get(person.cookie) // answered in the tick its headers arrived
      const anonymous = await get()
      expect([first.status, cached.status, anonymous.status]).toEqual([200, 200, 401])
      expect([first.connection, cached.connection, anonymous.connection]).toEqual(['keep-alive', 'keep-alive', 'keep-alive'])
      expect([cached.reused, anonymous.reused]).toEqual([true, true])
      expect(cached.body).toBe(first.body)
    } finally {
      agent.destroy()
    }
  })
}, { env: { REQUEST_TIMEOUT_MS: '1000' } })

async function waitUntilEnded(h: Harness, person: Member, id: string) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const state = (await person.get(`/v1/sessions/${id}`)).json().state
    if (state !== 'recording') return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`session ${id} did not end (${h.kind})`)
}

function spawnMain(env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(repoRoot, 'src/main.ts'), 'serve'], {
    cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const waiters: (() => void)[] = []
  const append = (chunk: Buffer) => {
    output += chunk.toString()
    for (const wake of waiters.splice(0)) wake()
  }
  child.stdout.on('data', append)
  child.stderr.on('data', append)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return {
    output: () => output,
    async waitFor(pattern: RegExp): Promise<string> {
      const deadline = Date.now() + 30_000
      for (;;) {
        const found = output.match(pattern)
        if (found) return found[0]
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${pattern} in the log:\n${output}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 200)
        })
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

function runMain(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'src/main.ts'), ...args], {
      cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => { stderr += chunk.toString() })
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stderr })
    })
  })
}
