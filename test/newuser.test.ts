// Defects found walking Confer as a new user (issue 15, branch s15-newuser), each through HTTP on
// every database: a form-encoded body taken by JSON routes.
import type { LightMyRequestResponse } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase, type Member } from './harness.ts'

function expectProblem(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(response.json()).toMatchObject({ type: `urn:confer:problem:${code}`, status, code })
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

eachDatabase('defects a new user met', (h) => {
  let owner: Member
  beforeAll(async () => {
    owner = await h.member()
  })

  describe('JSON routes take JSON only: a form-encoded body → 415 unsupported_media_type', () => {
    it('POST /v1/search/answer and POST /v1/projects refuse a form and create nothing', async () => {
      expectProblem(await owner.request('POST', '/v1/search/answer', { payload: 'query=hello', headers: FORM }), 415, 'unsupported_media_type')
      expectProblem(await owner.request('POST', '/v1/projects', { payload: 'name=Formed', headers: FORM }), 415, 'unsupported_media_type')
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
