import type { LightMyRequestResponse } from 'fastify'
import { Type } from 'typebox'
import { beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase, type Client } from '../../../test/harness.ts'
import { PageQuery } from './pagination.ts'

const SECRET_TEXT = 'SELECT password FROM secret_table'

function expectProblem(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  const body = response.json()
  expect(body).toMatchObject({ type: `urn:confer:problem:${code}`, status, code })
  expect(typeof body.title).toBe('string')
  expect(typeof body.detail).toBe('string')
  expect(body.requestId).toBe(response.headers['x-request-id'])
  return body
}

eachDatabase('problem+json errors', (h) => {
  let person: Client
  beforeAll(async () => {
    person = await h.signIn()
  })

  describe('routing', () => {
    it('answers an unknown route with 404 route_not_found', async () => {
      const response = await h.anonymous.get('/v1/no-such-route?x=1')
      const body = expectProblem(response, 404, 'route_not_found')
      expect(body.detail).toContain('/v1/no-such-route')
      expect(body.requestId).toMatch(/^req_/)
    })

    it('names the methods a known path takes when the method is wrong (still 404 route_not_found)', async () => {
      const wrong = await person.delete('/v1/projects/prj_nothing')
      const body = expectProblem(wrong, 404, 'route_not_found')
      expect(body.detail).toBe('No route DELETE /v1/projects/prj_nothing: this path takes GET, PATCH.')
      expect(wrong.headers.allow).toBe('GET, PATCH')
      const aliased = await h.anonymous.put('/api/v1/sessions', {})
      expect(expectProblem(aliased, 404, 'route_not_found').detail).toBe('No route PUT /v1/sessions: this path takes GET, POST.')
      const unknown = await h.anonymous.get('/v1/no-such-route')
      expect(unknown.headers.allow).toBeUndefined()
    })

    it('serves /api/v1/… as an alias of /v1/…', async () => {
      const anonymous = await h.anonymous.get('/api/v1/account/current')
      expectProblem(anonymous, 401, 'unauthenticated')
      const direct = await person.get('/v1/account/current')
      const aliased = await person.get('/api/v1/account/current')
      expect(direct.statusCode).toBe(200)
      expect(aliased.statusCode).toBe(200)
      expect(aliased.json()).toEqual(direct.json())
      expect(aliased.json().account.email).toBe(person.email)
    })
  })

  describe('request bodies', () => {
    it('refuses a JSON body over 1 MiB with 413 payload_too_large', async () => {
      const response = await person.request('PATCH', '/v1/account/profile', {
        payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      })
      expectProblem(response, 413, 'payload_too_large')
    })

    it('refuses text/plain on a JSON route with 415 unsupported_media_type', async () => {
      const response = await person.request('PATCH', '/v1/account/profile', {
        payload: '{"name":"Ada"}',
        headers: { 'content-type': 'text/plain' },
      })
      expectProblem(response, 415, 'unsupported_media_type')
    })

    it('refuses malformed JSON with 400 validation_failed', async () => {
      const response = await person.request('PATCH', '/v1/account/profile', {
        payload: '{"name": "Ada"',
        headers: { 'content-type': 'application/json' },
      })
      expectProblem(response, 400, 'validation_failed')
    })

    it('lists each invalid field with its code and message', async () => {
      const response = await person.patch('/v1/account/profile', { name: 5, unknownField: true })
      const body = expectProblem(response, 400, 'validation_failed')
      expect(body.errors).toEqual(expect.arrayContaining([
        { field: 'name', code: 'type', message: expect.any(String) },
        { field: 'unknownField', code: 'additionalProperties', message: expect.any(String) },
      ]))
      const unchanged = await person.get('/v1/account/current')
      expect(unchanged.json().account.name).not.toBe('5')
    })

    it('names a nested or missing field by its path', async () => {
      const response = await h.anonymous.post('/v1/test-problems/nested', { outer: { inner: 'not a number' } })
      const body = expectProblem(response, 400, 'validation_failed')
      expect(body.errors).toEqual(expect.arrayContaining([
        expect.objectContaining({ field: 'outer.inner', code: 'type' }),
        expect.objectContaining({ field: 'required', code: 'required' }),
      ]))
    })

    it('still converts query string values to their schema types', async () => {
      const response = await h.anonymous.get('/v1/test-problems/page?limit=7')
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ limit: 7 })
      const defaulted = await h.anonymous.get('/v1/test-problems/page')
      expect(defaulted.json()).toEqual({ limit: 50 })
      const tooLarge = await h.anonymous.get('/v1/test-problems/page?limit=500')
      const body = expectProblem(tooLarge, 400, 'validation_failed')
      expect(body.errors).toEqual([expect.objectContaining({ field: 'limit', code: 'maximum' })])
    })
  })

  describe('server failures', () => {
    it('answers a thrown Error with 500 internal_error and no stack or message', async () => {
      const response = await h.anonymous.get('/v1/test-problems/crash')
      const body = expectProblem(response, 500, 'internal_error')
      expect(response.body).not.toContain(SECRET_TEXT)
      expect(response.body).not.toContain('secret_table')
      expect(response.body).not.toMatch(/\bat .+\.ts:\d+/)
      expect(body.stack).toBeUndefined()
      expect(body.errors).toBeUndefined()
    })
  })

  it('answers a deadlock no retry absorbed with 409 conflict and Retry-After, not a 500', async () => {
    const response = await h.anonymous.get('/v1/test-problems/deadlock')
    const body = expectProblem(response, 409, 'conflict')
    expect(response.headers['retry-after']).toBe('1')
    expect(body.detail).toContain('send it again')
  })

  describe('request ids', () => {
    it('sends the problem requestId as X-Request-Id', async () => {
      const first = await h.anonymous.get('/v1/nothing-here')
      const second = await h.anonymous.get('/v1/nothing-here')
      expect(first.headers['x-request-id']).toBe(first.json().requestId)
      expect(second.json().requestId).not.toBe(first.json().requestId)
    })

    it('echoes an incoming X-Request-Id on success and failure', async () => {
      const failed = await h.anonymous.get('/v1/nothing-here', { 'x-request-id': 'client-trace.42' })
      expect(failed.headers['x-request-id']).toBe('client-trace.42')
      expect(failed.json().requestId).toBe('client-trace.42')
      const ok = await person.get('/v1/account/current', { 'x-request-id': 'client-trace.43' })
      expect(ok.statusCode).toBe(200)
      expect(ok.headers['x-request-id']).toBe('client-trace.43')
    })

    it('replaces an incoming X-Request-Id that is not a plain token', async () => {
      const response = await h.anonymous.get('/v1/nothing-here', { 'x-request-id': 'bad id <script>' })
      expect(response.headers['x-request-id']).toMatch(/^req_/)
      expect(response.json().requestId).toBe(response.headers['x-request-id'])
    })
  })
}, {
  setup(app) {
    app.get('/v1/test-problems/crash', { config: { access: 'public' } }, async () => {
      throw new Error(SECRET_TEXT)
    })
    app.get('/v1/test-problems/deadlock', { config: { access: 'public' }, schema: { hide: true } }, async () => {
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' })
    })
    app.post('/v1/test-problems/nested', {
      config: { access: 'public' },
      schema: {
        hide: true,
        body: Type.Object({ outer: Type.Object({ inner: Type.Integer() }), required: Type.String() }),
      },
    }, async () => ({ ok: true }))
    app.get('/v1/test-problems/page', {
      config: { access: 'public' },
      schema: { hide: true, querystring: Type.Object({ limit: PageQuery.limit }) },
    }, async (request) => ({ limit: (request.query as { limit: number }).limit }))
  },
})
