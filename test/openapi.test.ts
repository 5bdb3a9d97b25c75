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
type Schema = { $ref?: string; properties?: Record<string, unknown>; anyOf?: Schema[]; oneOf?: Schema[]; items?: Schema }
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

/** The request and result fields interface.md names (backquoted) for each operation. */
const INTERFACE_FIELDS: Record<string, { request?: string[]; result?: string[] }> = {
  'PUT /v1/account/voice-profile/enrollments/{enrollmentId}': { request: ['modelVersion', 'embeddings', 'expectedRevision'] },
  'POST /v1/sessions/{sessionId}/speakers/{speakerId}/voice-opt-out': { result: ['optedOut', 'deletedIdentity'] },
  'POST /v1/workspace/voice-identities/{identityId}/merge': { request: ['targetIdentityId'] },
  'POST /v1/workspace/voice-identities/{identityId}/split': { request: ['sessionId', 'speakerId'] },
  'POST /v1/sessions': { request: ['captureMode'], result: ['conversationId', 'websocketURL', 'workWebsocketURL', 'reusedExisting'] },
  'POST /v1/sessions/{sessionId}/audio': { result: ['accepted', 'chunkId', 'duplicate'] },
  'GET /v1/sessions/{sessionId}/share': { result: ['shareToken', 'shareURL', 'permission', 'expiresAt'] },
  'POST /v1/sessions/{sessionId}/transcript-summary': { request: ['segmentId', 'itemText', 'locale'], result: ['status', 'summary', 'generatedBy'] },
  'GET /v1/shares/{shareToken}': { result: ['permission', 'expiresAt'] },
  'POST /v1/shares/{shareToken}/comments': { request: ['workObjectId', 'body'] },
  'GET /v1/search/sessions': { result: ['query'] },
  'POST /v1/search/answer': { result: ['query', 'status', 'answer', 'sources', 'generatedBy'] },
  'POST /v1/sessions/{sessionId}/workobjects': { request: ['kind', 'title', 'sourceSegmentIds', 'summary', 'nextStep', 'targetProjectId'] },
  'POST /v1/sessions/{sessionId}/workobjects/project-suggestions': { request: ['sourceSegmentIds'], result: ['route', 'preselectedProjectId'] },
  'PATCH /v1/sessions/{sessionId}/workset': { request: ['action', 'clarifyId', 'resolution', 'idempotencyKey', 'relationId'], result: ['takeoverState'] },
  'GET /v1/worksets/{workSetId}': { result: ['needsRebuild', 'takeoverState'] },
  'PATCH /v1/workobjects/{workObjectId}': { request: ['expectedRevisionHash', 'content'] },
  'POST /v1/workobjects/{workObjectId}/assignment': { request: ['action', 'userId'] },
  'PATCH /v1/workobjects/{workObjectId}/comments/{commentId}': { request: ['expectedUpdatedAt'] },
  'PATCH /v1/workobjects/{workObjectId}/proposal': { request: ['decision', 'expectedRevisionId', 'note'] },
  'PATCH /v1/workobjects/{workObjectId}/responsibility': { request: ['expectedResponsibilityUpdatedAt', 'state', 'blockedReason'] },
  'GET /v1/workobjects/{workObjectId}/revisions': { result: ['workObjectId'] },
  'PATCH /v1/workobjects/{workObjectId}/stage': { request: ['fromStage', 'toStage', 'note'] },
  'POST /v1/actions/{actionId}/approve': { result: ['approvalToken'] },
  'PUT /v1/integrations/access': { request: ['projectId', 'connectionIds', 'actionIds'] },
  'POST /v1/integrations/actions/field-options': { request: ['projectId', 'connectionId', 'actionId', 'field', 'query'], result: ['field', 'sourceActionId'] },
  'POST /v1/integrations/actions/prepare': { request: ['projectId', 'actionId', 'connectionId'] },
  'POST /v1/integrations/connections/credential': { request: ['projectId', 'service', 'authType', 'actionIds'] },
  'POST /v1/integrations/connections/oauth': { request: ['projectId', 'service', 'actionIds'], result: ['authorizationURL', 'connectionAlias', 'expiresAt'] },
  'POST /v1/local-runner/registrations': { request: ['installationId', 'displayName', 'supportedRunners', 'publicSigningKey'] },
  'POST /v1/projects': { request: ['name', 'objective', 'description', 'defaultLanguage', 'timezone'] },
  'PATCH /v1/projects/{projectId}': { request: ['name', 'status', 'objective', 'description', 'defaultLanguage', 'timezone'] },
  'PUT /v1/projects/{projectId}/membership': { request: ['primaryRole', 'secondaryRoles'] },
  'GET /v1/projects/{projectId}/memory': { result: ['projectId', 'lastRefreshedAt'] },
  'POST /v1/projects/{projectId}/memory/external-sources': { request: ['observationId', 'itemIds', 'confirmSourceBound'] },
  'POST /v1/workspace/invitations': { request: ['email', 'accessRole', 'contentPermission', 'jobRole', 'projectId'], result: ['inviteURL', 'delivery'] },
  'POST /v1/invitations/{invitationToken}/login-intent': { result: ['workspaceName', 'invitedEmail', 'contentPermission', 'expiresAt', 'projectId', 'projectName'] },
  'GET /v1/collaboration/notifications': { result: ['unreadCount'] },
  'PATCH /v1/collaboration/notifications': { request: ['all', 'notificationIds'], result: ['updated', 'unreadCount'] },
  'POST /v1/reviews/{reviewId}/assignment': { request: ['action', 'userId'] },
  'POST /v1/reviews/{reviewId}/decisions': { request: ['revisionId', 'decision', 'note', 'reassignedToUserId'] },
  'POST /v1/reviews/{reviewId}/request': { request: ['revisionId'] },
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

  it("documents all the interface's operations with the request and result fields it names", () => {
    const names = new Set(operations.map((entry) => `${entry.method} ${entry.path}`))
    const missing = [...interfaceEndpoints().keys()].filter((name) => !names.has(name))
    expect(missing).toEqual([])
    const resolve = (schema: Schema | undefined): Schema | undefined =>
      schema?.$ref ? resolve(document.components.schemas?.[schema.$ref.split('/').pop()!] as Schema) : schema
    const fieldsOf = (schema: Schema | undefined): string[] => {
      const resolved = resolve(schema)
      if (!resolved) return []
      const variants = resolved.anyOf ?? resolved.oneOf
      if (variants) return variants.flatMap(fieldsOf)
      if (resolved.items) return fieldsOf(resolved.items)
      return Object.keys(resolved.properties ?? {})
    }
    for (const [name, { request = [], result = [] }] of Object.entries(INTERFACE_FIELDS)) {
      const [method, route] = name.split(' ') as [string, string]
      const operation = document.paths[route]?.[method.toLowerCase()] as Operation & { requestBody?: { content?: Record<string, { schema?: Schema }> } }
      expect(fieldsOf(operation.requestBody?.content?.['application/json']?.schema), `${name} request`).toEqual(expect.arrayContaining(request))
      expect(fieldsOf(operation.responses?.['200']?.content?.['application/json']?.schema as Schema), `${name} result`).toEqual(expect.arrayContaining(result))
    }
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
