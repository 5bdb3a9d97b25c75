// The RFC 9457 answer every HTTP test expects of an error: status, problem+json, `type`/`code`,
// a `detail` and the `requestId`. Returns the body for further checks.
import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'

export function expectProblem(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  const body = response.json()
  expect(body).toMatchObject({ type: `urn:confer:problem:${code}`, status, code })
  expect(typeof body.detail).toBe('string')
  expect(typeof body.requestId).toBe('string')
  return body
}
