// Defects found walking Confer as a new user (issue 15, branch s15-newuser), each through HTTP on
// every database: a form-encoded body taken by JSON routes; Node's refusals before a request
// exists (headers too large, not HTTP) answered with Fastify's own JSON, not problem+json.
import net from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { expectProblem } from './problems.ts'
import { eachDatabase, type Member } from './harness.ts'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

eachDatabase('defects a new user met', (h) => {
  let owner: Member
  beforeAll(async () => {
    owner = await h.member()
  })

  describe('JSON routes take JSON only: a form-encoded body → 415 unsupported_media_type', () => {
    it('POST /v1/search/answer and POST /v1/projects refuse a form and create nothing', async () => {
      expectProblem(await owner.request('POST', '/v1/search/answer', { payload: 'query=hello', headers: FORM }), 415, 'unsupported_media_type')
      const refused = await owner.request('POST', '/v1/projects', { payload: 'name=Formed', headers: FORM })
      expectProblem(refused, 415, 'unsupported_media_type')
      // The detail says what was sent and what to send (it was "Unsupported Media Type").
      expect(refused.json().detail).toBe('This route does not take a body of type application/x-www-form-urlencoded; send JSON with Content-Type: application/json.')
      const projects = (await owner.get('/v1/projects')).json()
      expect(JSON.stringify(projects)).not.toContain('Formed')
      expect((await owner.post('/v1/search/answer', { query: 'hello' })).statusCode).toBe(200)
    })

    it('an identity provider\'s form_post callback still reaches the sign-in routes', async () => {
      const response = await h.anonymous.request('POST', '/api/auth/callback/unknown-provider', { payload: 'code=x&state=y', headers: FORM })
      expect(response.statusCode).not.toBe(415)
      expect(response.statusCode).toBeLessThan(500)
    })
  })
})

/** Writes raw bytes to the listening server and reads its answer until it closes the connection. */
async function rawExchange(port: number, bytes: string): Promise<string> {
  const socket = net.connect(port, '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.on('error', () => {})
  let received = ''
  socket.on('data', (chunk) => { received += chunk.toString() })
  socket.write(bytes)
  await new Promise((resolve) => socket.once('close', resolve))
  return received
}

eachDatabase('refusals before a request exists', (h) => {
  let port: number
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' })
    port = (h.app.server.address() as net.AddressInfo).port
  })

  it('answers headers too large with 431 headers_too_large as problem+json', async () => {
    const answer = await rawExchange(port, `GET /v1/projects HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'h'.repeat(20_000)}\r\n\r\n`)
    expect(answer).toMatch(/^HTTP\/1\.1 431 /)
    expect(answer).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/i)
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ type: 'urn:confer:problem:headers_too_large', status: 431, code: 'headers_too_large' })
  })

  it('answers bytes that are not HTTP with 400 validation_failed as problem+json', async () => {
    const answer = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ status: 400, code: 'validation_failed' })
  })
})
