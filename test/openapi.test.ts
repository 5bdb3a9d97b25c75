import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness.ts'

type Operation = {
  operationId?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>
}
type Document = {
  openapi: string
  security?: Record<string, string[]>[]
  paths: Record<string, Record<string, Operation>>
  components: { schemas?: Record<string, { required?: string[] }>; securitySchemes?: Record<string, Record<string, string>> }
}
type Entry = { method: string; path: string; operation: Operation }

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'])
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The interface's endpoint list (a copy in test/fixtures, see its header): `METHOD /path` → { auth, group }. */
function interfaceEndpoints() {
  const lines = readFileSync(path.join(repoRoot, 'test/fixtures/endpoints.tsv'), 'utf8').trim().split('\n')
    .filter((line) => !line.startsWith('#')).slice(1)
  return new Map(lines.map((line) => {
    const [method, route, auth, group] = line.split('\t')
    return [`${method} ${route}`, { auth: auth!, group: group! }]
  }))
}

function operationsOf(document: Document): Entry[] {
  return Object.entries(document.paths).flatMap(([route, item]) => Object.entries(item)
    .filter(([method]) => HTTP_METHODS.has(method))
    .map(([method, operation]) => ({ method: method.toUpperCase(), path: route, operation })))
}

const fillPath = (route: string) => route.replace(/\{[^}]+\}/g, 'dummy_01JAAAAAAAAAAAAAAAAAAAAAAA')

describe('the OpenAPI document', () => {
  let h: Harness
  let document: Document
  let operations: Entry[]
  beforeAll(async () => {
    h = await createHarness('sqlite')
    const response = await h.anonymous.get('/v1/openapi.json')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    document = response.json()
    operations = operationsOf(document)
  })
  afterAll(async () => {
    await h?.close()
  })

  it('is public OpenAPI 3.1.1 and valid against the OpenAPI schema', async () => {
    expect(document.openapi).toBe('3.1.1')
    const validator = new Validator()
    const result = await validator.validate(structuredClone(document))
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    expect(() => validator.resolveRefs()).not.toThrow()
  })

  it('is served under /api/v1 too', async () => {
    const aliased = await h.anonymous.get('/api/v1/openapi.json')
    expect(aliased.statusCode).toBe(200)
    expect(aliased.json().paths).toEqual(document.paths)
  })

  it('describes the session cookie as CookieAuth and requires it by default', () => {
    expect(document.components.securitySchemes?.CookieAuth).toMatchObject({
      type: 'apiKey', in: 'cookie', name: 'service-auth.session_token',
    })
    expect(document.security).toEqual([{ CookieAuth: [] }])
  })

  it('has the Problem schema in components', () => {
    expect(document.components.schemas?.Problem?.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail', 'code', 'requestId']))
  })

  it('documents the routes the app serves, without the auth catch-all or the docs page', () => {
    const names = operations.map((entry) => `${entry.method} ${entry.path}`)
    expect(names).toEqual(expect.arrayContaining(['GET /healthz', 'GET /v1/account/current', 'POST /v1/account/bootstrap']))
    expect(names.filter((name) => / \/(api\/auth|docs)(\/|$)/.test(name))).toEqual([])
  })

  it('gives every operation a unique operationId and exactly one tag', () => {
    const ids = operations.map((entry) => entry.operation.operationId)
    for (const [index, entry] of operations.entries()) {
      expect(ids[index], `${entry.method} ${entry.path} operationId`).toMatch(/^[a-z][A-Za-z0-9]+$/)
      expect(entry.operation.tags, `${entry.method} ${entry.path} tags`).toHaveLength(1)
    }
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("tags each interface endpoint with its group from the interface's endpoints.tsv, and uses only the interface's groups", () => {
    const endpoints = interfaceEndpoints()
    const groups = new Set([...endpoints.values()].map((endpoint) => endpoint.group))
    let listed = 0
    for (const { method, path: route, operation } of operations) {
      expect(groups, `${method} ${route} tag`).toContain(operation.tags?.[0])
      const endpoint = endpoints.get(`${method} ${route}`)
      if (!endpoint) continue
      listed += 1
      expect(operation.tags, `${method} ${route}`).toEqual([endpoint.group])
    }
    expect(listed).toBeGreaterThan(0)
  })

  it('marks public operations with `security: []` and gives the others a 401 Problem response', async () => {
    const endpoints = interfaceEndpoints()
    for (const { method, path: route, operation } of operations) {
      const name = `${method} ${route}`
      const anonymous = await h.anonymous.request(method as 'GET', fillPath(route))
      const isPublic = anonymous.statusCode !== 401
      const listedAuth = endpoints.get(name)?.auth
      if (listedAuth) expect(isPublic ? 'public' : 'cookie', `${name} in endpoints.tsv`).toBe(listedAuth)
      if (isPublic) {
        expect(operation.security, `${name} is public`).toEqual([])
        continue
      }
      expect(operation.security, `${name} needs a session`).toBeUndefined()
      const unauthorized = operation.responses?.['401']
      expect(unauthorized, `${name} documents 401`).toBeDefined()
      expect(unauthorized?.content?.['application/problem+json']?.schema?.$ref, `${name} 401 schema`).toBe('#/components/schemas/Problem')
    }
  })

  it('documents every error response as application/problem+json with the Problem schema', () => {
    for (const { method, path: route, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) < 400 || route === '/healthz') continue
        expect(Object.keys(response.content ?? {}), `${method} ${route} ${status}`).toEqual(['application/problem+json'])
        expect(response.content?.['application/problem+json']?.schema?.$ref).toBe('#/components/schemas/Problem')
      }
    }
  })

  it('serves the reference page at /docs without a cookie', async () => {
    const response = await h.anonymous.get('/docs')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.body).toMatch(/<html/i)
  })
})
