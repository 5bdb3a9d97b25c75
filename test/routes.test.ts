// Every documented route, present and future: anonymous calls to a guarded route get 401, and a
// JSON body that breaks the route's schema gets 400. Routes are read from the OpenAPI document,
// which @fastify/swagger builds from every route the app registers except hidden ones (the auth
// catch-all, /docs); an onRoute hook added in the harness `setup` would come too late to see them.
import type { LightMyRequestResponse } from 'fastify'
import { beforeAll, expect, it } from 'vitest'
import { eachDatabase, type Member } from './harness.ts'

type Schema = { type?: string; $ref?: string; additionalProperties?: unknown }
type Operation = {
  security?: unknown[]
  requestBody?: { content?: Record<string, { schema?: Schema }> }
}
type Route = { method: string; path: string; isPublic: boolean; jsonBody: Schema | undefined }

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch']

// Dummy path values shaped like real ones (DESIGN §3 prefixes), so a route's params schema accepts
// them and the request reaches its body validation.
const ID_PREFIXES: Record<string, string> = {
  workspace: 'wsp', project: 'prj', session: 'ses', conversation: 'cnv', segment: 'seg', workSet: 'wst',
  workObject: 'wo', revision: 'rev', comment: 'cmt', review: 'rvw', notification: 'ntf', invitation: 'inv',
  action: 'act', recommendation: 'rec', execution: 'exe', connection: 'con', run: 'run', task: 'tsk',
  identity: 'vid', asset: 'ast', memory: 'mem', account: 'acc',
}
const DUMMY_ULID = '01JAAAAAAAAAAAAAAAAAAAAAAA'

function dummyValue(name: string): string {
  if (name.endsWith('Token')) return 'dummytoken_'.padEnd(43, 'x')
  const prefix = ID_PREFIXES[name.replace(/Id$/, '')]
  if (prefix) return `${prefix}_${DUMMY_ULID}`
  return name.endsWith('Id') ? `x_${DUMMY_ULID}` : 'dummy'
}

const fillPath = (route: string) => route.replace(/\{([^}]+)\}/g, (_match, name: string) => dummyValue(name))

function routesOf(document: { paths: Record<string, Record<string, Operation>> }): Route[] {
  return Object.entries(document.paths).flatMap(([route, item]) => Object.entries(item)
    .filter(([method]) => HTTP_METHODS.includes(method))
    .map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: route,
      isPublic: Array.isArray(operation.security) && operation.security.length === 0,
      jsonBody: operation.requestBody?.content?.['application/json']?.schema,
    })))
}

function expectProblem(response: LightMyRequestResponse, status: number, name: string) {
  expect(response.statusCode, `${name}: ${response.body}`).toBe(status)
  expect(response.headers['content-type'], name).toMatch(/^application\/problem\+json/)
  expect(response.json().status, name).toBe(status)
  return response.json()
}

eachDatabase('every route', (h) => {
  let routes: Route[]
  let member: Member
  let schemas: Record<string, Schema>
  const resolve = (schema: Schema | undefined) =>
    schema?.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')] : schema
  beforeAll(async () => {
    const document = await h.anonymous.get('/v1/openapi.json')
    routes = routesOf(document.json())
    schemas = document.json().components.schemas ?? {}
    member = await h.member()
  })

  it('finds the routes (so the checks below cannot pass on an empty list)', () => {
    const names = routes.map((route) => `${route.method} ${route.path}`)
    expect(names).toEqual(expect.arrayContaining(['GET /healthz', 'GET /v1/account/current', 'PATCH /v1/account/profile']))
    expect(routes.filter((route) => !route.isPublic).length).toBeGreaterThan(2)
    expect(routes.filter((route) => route.jsonBody).length).toBeGreaterThan(1)
  })

  it('answers 401 unauthenticated without a session on every route that is not public', async () => {
    for (const route of routes.filter((candidate) => !candidate.isPublic)) {
      const name = `${route.method} ${route.path}`
      const anonymous = await h.anonymous.request(route.method as 'GET', fillPath(route.path))
      expect(expectProblem(anonymous, 401, name).code, name).toBe('unauthenticated')
      const forged = await h.anonymous.request(route.method as 'GET', fillPath(route.path), {
        headers: { cookie: 'service-auth.session_token=forged.value' },
      })
      expect(expectProblem(forged, 401, name).code, `${name} with a forged cookie`).toBe('unauthenticated')
    }
  })

  it('answers public routes without a session', async () => {
    for (const route of routes.filter((candidate) => candidate.isPublic)) {
      const response = await h.anonymous.request(route.method as 'GET', fillPath(route.path))
      expect(response.statusCode, `${route.method} ${route.path}`).not.toBe(401)
      expect(response.statusCode, `${route.method} ${route.path}`).toBeLessThan(500)
    }
  })

  it('answers 400 validation_failed naming the body to a member who sends a body of the wrong shape', async () => {
    for (const route of routes.filter((candidate) => candidate.jsonBody)) {
      const name = `${route.method} ${route.path}`
      const payload = resolve(route.jsonBody)?.type === 'array' ? { unexpectedField: 1 } : []
      const response = await member.request(route.method as 'POST', fillPath(route.path), {
        payload: JSON.stringify(payload),
        headers: { 'content-type': 'application/json' },
      })
      const problem = expectProblem(response, 400, name)
      expect(problem.code, name).toBe('validation_failed')
      expect(problem.errors, name).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'body' })]))
    }
  })

  it('answers 400 naming an unknown field wherever the body schema forbids extra fields', async () => {
    const strict = routes.filter((route) => resolve(route.jsonBody)?.additionalProperties === false)
    expect(strict.map((route) => `${route.method} ${route.path}`)).toContain('PATCH /v1/account/profile')
    for (const route of strict) {
      const name = `${route.method} ${route.path}`
      const response = await member.request(route.method as 'POST', fillPath(route.path), { payload: { unexpectedField: 1 } })
      const problem = expectProblem(response, 400, name)
      expect(problem.code, name).toBe('validation_failed')
      expect(problem.errors, name).toEqual(expect.arrayContaining([
        expect.objectContaining({ field: 'unexpectedField', code: 'additionalProperties' }),
      ]))
    }
  })
})
