// Tenant isolation, driven by the routes the app registers, so that every future route is covered
// without anyone remembering to: anonymous → 401 on every route that is not public; a manager of
// another workspace → 404 on every route that takes an id from this one (WebSocket routes: close
// 1008); a `view` member → 403 on every route that writes content.
//
// Routes are collected by an onRoute hook. The harness calls `setup` after buildApp has registered
// every module, when a hook added there would see no route at all, so the hook is added where
// Fastify lets instrumentation in before anything is registered (the `fastify.initialization`
// diagnostics channel); `setup` then takes the routes of the app under test.
//
// Every path parameter is filled from PARAMETERS, a factory per parameter name that creates a real
// resource in the workspace under attack. A route whose parameter has no factory fails the suite.
import { channel } from 'node:diagnostics_channel'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify'
import { beforeAll, expect, it } from 'vitest'
import type { App } from '../src/app.ts'
import { pairRunner } from '../src/modules/runner/testing.ts'
import { executingAction, githubConnection, githubIssueInput, preparedAction } from '../src/modules/integrations/testing.ts'
import { seedSegments, seedSpeaker } from '../src/modules/transcripts/testing.ts'
import { moveVoiceToIdentity, seedVoiceIdentity, unitVector } from '../src/modules/voice/testing.ts'
import { BUILTIN_MODEL_VERSION } from '../src/platform/speech/embedding/index.ts'
import { invite, inviteAndJoin } from '../src/modules/workspace/testing.ts'
import { pngImage } from './fixtures.ts'
import { eachDatabase, type Harness, type Member } from './harness.ts'

// ---- route discovery ------------------------------------------------------------------------

type Route = {
  method: string
  url: string
  name: string
  /** read at test time: later onRoute hooks (OpenAPI, /docs) may still set it */
  options: RouteOptions
  params: string[]
}

const registered = new WeakMap<object, Route[]>()
channel('fastify.initialization').subscribe((message) => {
  const { fastify } = message as { fastify: FastifyInstance }
  const routes: Route[] = []
  registered.set(fastify, routes)
  fastify.addHook('onRoute', (options) => {
    for (const method of [options.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue
      // `:name`, not the `(?:…)` of a parameter's pattern
      const params = [...options.url.matchAll(/(?<!\(\?):([A-Za-z0-9_]+)/g)].map((match) => match[1]!)
      routes.push({ method, url: options.url, name: `${method} ${options.url}`, options, params })
    }
  })
})

const appRoutes = new WeakMap<App, Route[]>()
function takeRoutes(app: App) {
  const routes = registered.get(app)
  if (!routes) throw new Error('the app was not created after this file subscribed to fastify.initialization')
  appRoutes.set(app, routes)
}

const accessOf = (route: Route) => route.options.config?.access ?? 'signedIn'
const isPublic = (route: Route) => accessOf(route) === 'public'
const isSocket = (route: Route) => (route.options as { websocket?: boolean }).websocket === true
const isWrite = (route: Route) => route.method !== 'GET'

// ---- path parameters ------------------------------------------------------------------------

type Fixture = { h: Harness; owner: Member; values: Record<string, string> }
type Parameter = {
  /** workspace: the id of something in a workspace, 404 elsewhere; capability: a token that is its own permission */
  scope: 'workspace' | 'capability'
  /** for capability parameters: why no workspace check applies */
  why?: string
  create(fixture: Fixture): Promise<string>
}

const json = (response: LightMyRequestResponse, what: string) => {
  if (response.statusCode !== 200) throw new Error(`${what} failed: ${response.statusCode} ${response.body}`)
  return response.json()
}
const recordingSession = async (owner: Member) => json(await owner.post('/v1/sessions', { captureMode: 'microphone' }), 'starting a session')
let chunks = 0
const audioChunk = () => ({
  payload: Buffer.alloc(3200, 7),
  headers: { 'content-type': 'audio/pcm;rate=16000', 'x-service-chunk-id': `tenancy-${process.pid}-${(chunks += 1)}` },
})

/** A work object of the owner's workspace (in the session of `values` when one was made for the route). */
async function workObject(owner: Member, values: Record<string, string>) {
  const sessionId = values.sessionId ?? (await recordingSession(owner)).id
  return json(await owner.post(`/v1/sessions/${sessionId}/workobjects`, { kind: 'action', title: 'Tenancy work' }), 'capturing a work object')
}

const PARAMETERS: Record<string, Parameter> = {
  projectId: { scope: 'workspace', create: async ({ owner }) => json(await owner.post('/v1/projects', { name: 'Tenancy' }), 'creating a project').id },
  accountId: { scope: 'workspace', create: async ({ h, owner }) => (await inviteAndJoin(h, owner)).accountId },
  invitationId: { scope: 'workspace', create: async ({ h, owner }) => (await invite(owner, { email: h.uniqueEmail('invited') })).invitation.id },
  sessionId: { scope: 'workspace', create: async ({ owner }) => (await recordingSession(owner)).id },
  conversationId: { scope: 'workspace', create: async ({ owner }) => (await recordingSession(owner)).conversationId },
  chunkId: {
    scope: 'workspace',
    async create({ owner, values }) {
      const sessionId = values.sessionId ?? (await recordingSession(owner)).id
      const chunk = audioChunk()
      json(await owner.request('POST', `/v1/sessions/${sessionId}/audio`, chunk), 'uploading a chunk')
      return chunk.headers['x-service-chunk-id']
    },
  },
  workObjectId: {
    scope: 'workspace',
    create: async ({ owner, values }) => (await workObject(owner, values)).id,
  },
  workSetId: {
    scope: 'workspace',
    create: async ({ owner, values }) => (await workObject(owner, values)).workSetId,
  },
  reviewId: {
    scope: 'workspace',
    create: async ({ owner, values }) => (await workObject(owner, values)).reviewId,
  },
  commentId: {
    scope: 'workspace',
    async create({ owner, values }) {
      const workObjectId = values.workObjectId ?? (await workObject(owner, values)).id
      return json(await owner.post(`/v1/workobjects/${workObjectId}/comments`, { body: 'Tenancy comment' }), 'commenting').id
    },
  },
  runnerId: { scope: 'workspace', create: async ({ h, owner }) => (await pairRunner(h, owner)).id },
  taskId: {
    scope: 'workspace',
    async create({ owner, values }) {
      const object = await workObject(owner, values)
      return json(await owner.post('/v1/local-runner/tasks', { workObjectId: object.id, runnerKind: 'runner-a' }), 'requesting a runner task').id
    },
  },
  conflictId: {
    scope: 'workspace',
    async create({ owner, values }) {
      const projectId = values.projectId ?? json(await owner.post('/v1/projects', { name: 'Tenancy memory' }), 'creating a project').id
      const session = json(await owner.post('/v1/sessions', { captureMode: 'microphone', projectId }), 'starting a session')
      for (const title of ['Tenancy launch date is March 3', 'Tenancy launch date is April 14']) {
        json(await owner.post(`/v1/sessions/${session.id}/workobjects`, { kind: 'decision', title, targetProjectId: projectId }), 'capturing a decision')
      }
      await owner.post(`/v1/sessions/${session.id}/end`)
      const conflict = json(await owner.get(`/v1/projects/${projectId}/memory`), 'reading project memory').conflicts[0]
      if (!conflict) throw new Error('the two decisions opened no memory conflict')
      return conflict.id
    },
  },
  actionId: { scope: 'workspace', create: async ({ owner }) => (await preparedAction(owner)).action.id },
  executionId: { scope: 'workspace', create: async ({ owner }) => (await executingAction(owner)).executionId },
  connectionId: { scope: 'workspace', create: async ({ owner }) => (await githubConnection(owner)).connection.id },
  recommendationId: {
    scope: 'workspace',
    async create({ owner }) {
      const { projectId } = await githubConnection(owner)
      const sessionId = (await recordingSession(owner)).id
      const captured = json(await owner.post(`/v1/sessions/${sessionId}/workobjects`, { kind: 'action', title: 'Tenancy issue', targetProjectId: projectId }), 'capturing')
      const drafted = json(await owner.post(`/v1/work-objects/${captured.id}/action-recommendations/refresh`, {}), 'drafting recommendations')
      return drafted.recommendations[0].id
    },
  },
  toolName: {
    scope: 'workspace',
    create: async ({ owner }) => `github_create_issue__${(await githubConnection(owner)).connection.id}`,
  },
  speakerId: {
    scope: 'workspace',
    create: async ({ h, owner, values }) => seedSpeaker(h, { id: values.sessionId ?? (await recordingSession(owner)).id }, 'spk_1'),
  },
  identityId: {
    scope: 'workspace',
    create: async ({ h, owner }) => seedVoiceIdentity(h, owner, (await recordingSession(owner)).id),
  },
  enrollmentId: {
    scope: 'workspace',
    create: async ({ owner }) => json(await owner.post('/v1/account/voice-profile/enrollments', { consent: true }), 'starting an enrollment').enrollmentId,
  },
  modelVersion: {
    scope: 'capability',
    why: 'the server\'s one model version: every signed-in account reads the same signed manifest',
    create: async ({ owner }) => json(await owner.post('/v1/account/voice-profile/enrollments', { consent: true }), 'starting an enrollment').manifest.modelVersion,
  },
  invitationToken: {
    scope: 'capability',
    why: 'the token is the permission: whoever holds it reads the login intent, and only the invited email accepts',
    create: async ({ h, owner }) => (await invite(owner, { email: h.uniqueEmail('token') })).token,
  },
  shareToken: {
    scope: 'capability',
    why: 'a share link is read by whoever holds its token; members manage it through /v1/sessions/{sessionId}/share',
    async create({ owner }) {
      const session = await recordingSession(owner)
      return json(await owner.get(`/v1/sessions/${session.id}/share`), 'reading the share link').shareToken
    },
  },
  page: {
    scope: 'capability',
    why: 'a page name the web client routes itself: anyone gets the same public client (a 404 page) and no data',
    create: async () => 'no-such-page',
  },
  assetId: {
    scope: 'capability',
    why: 'an asset is served to whoever holds its signed link',
    async create({ owner }) {
      const uploaded = await owner.request('PUT', '/v1/account/avatar', { payload: pngImage(), headers: { 'content-type': 'image/png' } })
      return json(uploaded, 'uploading an avatar').assetId
    },
  },
}

function missingFactory(name: string, routes: Route[]) {
  const users = routes.filter((route) => route.params.includes(name)).map((route) => route.name)
  return `Path parameter "${name}" (${users.join(', ')}) has no factory: add one to PARAMETERS in test/tenancy.test.ts ` +
    'that creates the resource in the owner\'s workspace and returns its id, so the isolation checks can reach the route.'
}

/** A real value for every parameter of the route, created in the owner's workspace. */
async function fill(route: Route, fixture: Omit<Fixture, 'values'>, routes: Route[], reuse?: Record<string, string>) {
  const values: Record<string, string> = {}
  for (const name of route.params) {
    const parameter = PARAMETERS[name]
    if (!parameter) throw new Error(missingFactory(name, routes))
    values[name] = reuse?.[name] ?? await parameter.create({ ...fixture, values })
    if (reuse) reuse[name] = values[name]
  }
  return { values, url: route.url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => encodeURIComponent(values[name]!)) }
}

// ---- request bodies -------------------------------------------------------------------------

type Sample = Pick<InjectOptions, 'payload' | 'headers' | 'query'>

/** Requests a body schema cannot describe (raw uploads). Keyed by `METHOD url`. */
const SAMPLES: Record<string, () => Sample> = {
  'POST /v1/sessions/:sessionId/audio': audioChunk,
  'PUT /v1/account/avatar': () => ({ payload: pngImage(), headers: { 'content-type': 'image/png' } }),
}

/** Requests that need data of their own in the filled-in resources (e.g. a transcript segment). */
const PREPARED: Record<string, (fixture: Fixture) => Promise<Sample>> = {
  'POST /v1/projects/:projectId/memory/conflicts/:conflictId/resolve': async () => ({ payload: { resolution: 'dismiss' } }),
  'POST /v1/projects/:projectId/external-context/query': async () => ({ payload: { query: 'tenancy' } }),
  'POST /v1/projects/:projectId/memory/codebase': async () => ({ payload: { source: '/nonexistent/tenancy-codebase' } }),
  'POST /v1/projects/:projectId/memory/external-sources': async ({ h, owner, values }) => {
    // A stand-in connector in place of the integrations module's port (no connection here), so the observation has an item to bind.
    h.app.deps.ports.externalContext = async (query) => ({
      connectionIds: ['con_tenancy'],
      items: [{ itemId: 'tenancy:1', connectionId: 'con_tenancy', provider: 'test', kind: 'issue', title: `Item of ${query.projectId}`, snippet: '', url: 'https://example.invalid/1' }],
    })
    const observation = json(await owner.post(`/v1/projects/${values.projectId}/external-context/query`, { query: 'tenancy' }), 'asking external context')
    return { payload: { observationId: observation.observationId, itemIds: ['tenancy:1'], confirmSourceBound: true } }
  },
  'POST /v1/search/answer': async () => ({ payload: { query: 'tenancy' } }),
  'PUT /v1/account/voice-profile/enrollments/:enrollmentId': async () => ({
    payload: { modelVersion: BUILTIN_MODEL_VERSION, embeddings: [unitVector(0), unitVector(0, 1), unitVector(0, 2)], expectedRevision: 0 },
  }),
  'POST /v1/workspace/voice-identities/:identityId/merge': async ({ h, owner }) => ({
    payload: { targetIdentityId: await seedVoiceIdentity(h, owner, (await recordingSession(owner)).id) },
  }),
  'POST /v1/workspace/voice-identities/:identityId/split': async ({ h, owner, values }) => {
    const session = await recordingSession(owner)
    await seedVoiceIdentity(h, owner, session.id, 'spk_2')
    await moveVoiceToIdentity(h, session.id, 'spk_2', values.identityId!)
    return { payload: { sessionId: session.id, speakerId: 'spk_2' } }
  },
  'POST /v1/sessions/:sessionId/transcript-summary': async ({ h, values }) => {
    const [segmentId] = await seedSegments(h, { id: values.sessionId! }, [{ text: 'We ship the release on Friday.' }])
    return { payload: { segmentId, itemText: 'Ship the release', locale: 'en' } }
  },
  'POST /v1/sessions/:sessionId/workobjects/project-suggestions': async ({ h, values }) => {
    const ids = await seedSegments(h, { id: values.sessionId! }, [{ text: 'We ship the release on Friday.' }])
    return { payload: { sourceSegmentIds: ids } }
  },
  // The union's variants need ids of clarify items or relations; the takeover action needs none.
  'PATCH /v1/sessions/:sessionId/workset': async () => ({ payload: { action: 'takeover.refresh', idempotencyKey: 'tenancy-check' } }),
  'POST /v1/agent/external-tools/:toolName': async () => ({ payload: { input: githubIssueInput('Tenancy tool') } }),
}

type JsonSchema = {
  type?: string; const?: unknown; enum?: unknown[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; $ref?: string
  properties?: Record<string, JsonSchema>; required?: string[]; minProperties?: number
  items?: JsonSchema; minItems?: number; minLength?: number; minimum?: number; format?: string; pattern?: string; content?: unknown
}

const UNKNOWN = Symbol('no sample')

/** A small valid instance of a JSON schema, or UNKNOWN when one cannot be made up. */
function sampleOf(schema: JsonSchema, key = ''): unknown {
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum[0]
  const variants = schema.anyOf ?? schema.oneOf
  if (variants) return sampleOf(variants.find((variant) => variant.type !== 'null') ?? variants[0]!, key)
  if (schema.$ref || schema.pattern) return UNKNOWN
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {}
      let keys = schema.required ?? []
      // Optional-only bodies that need something: the first plain fields, not the `expected…` guards.
      if (keys.length < (schema.minProperties ?? 0)) keys = Object.keys(properties).filter((name) => !name.startsWith('expected')).slice(0, schema.minProperties)
      const entries = keys.map((name) => [name, sampleOf(properties[name] ?? {}, name)] as const)
      return entries.some(([, value]) => value === UNKNOWN) ? UNKNOWN : Object.fromEntries(entries)
    }
    case 'string':
      if (schema.format === 'email') return `tenancy-${(chunks += 1)}@example.com`
      if (schema.format === 'date-time') return new Date().toISOString()
      return 'Tenancy check'.padEnd(schema.minLength ?? 1, '.')
    case 'integer':
    case 'number':
      return schema.minimum ?? 1
    case 'boolean':
      return true
    case 'array': {
      const item = sampleOf(schema.items ?? {}, key)
      return item === UNKNOWN ? UNKNOWN : Array.from({ length: schema.minItems ?? 0 }, () => item)
    }
    default:
      return UNKNOWN
  }
}

/** A request the route's validation accepts, so that the call reaches the route's own lookup. */
function sampleRequest(route: Route): Sample {
  const custom = SAMPLES[route.name]
  if (custom) return custom()
  const schema = route.options.schema as { body?: JsonSchema; querystring?: JsonSchema } | undefined
  const sample: Sample = {}
  for (const [part, partSchema] of [['payload', schema?.body], ['query', schema?.querystring]] as const) {
    if (!partSchema) continue
    const value = partSchema.content ? UNKNOWN : sampleOf(partSchema)
    if (value === UNKNOWN) {
      throw new Error(`${route.name}: cannot make up a valid ${part === 'payload' ? 'body' : 'query'} from its schema; add a request to SAMPLES in test/tenancy.test.ts.`)
    }
    if (part === 'payload' && (partSchema.required?.length ?? 0) === 0 && Object.keys(value as object).length === 0) continue
    sample[part] = value as never
  }
  return sample
}

function call(client: Member | Harness['anonymous'], route: Route, url: string, sample: Sample = {}) {
  return client.request(route.method as InjectOptions['method'], url, {
    ...sample, headers: { ...(sample.headers as Record<string, string> | undefined) },
  })
}

/** Connects to a WebSocket route: 'open' when the first message arrives, else the close code. */
async function socketOutcome(app: App, url: string, cookie: string): Promise<'open' | number> {
  const socket = await app.injectWS(url, { headers: { cookie } })
  return new Promise((resolve) => {
    socket.once('message', () => {
      resolve('open')
      socket.terminate()
    })
    socket.once('close', (code: number) => resolve(code))
  })
}

// ---- routes view members may still call -----------------------------------------------------

/**
 * Routes that change something and yet stay open to `view` members, each with the reason. Any
 * other route that is not GET and not public must declare access 'edit' or 'manage'.
 */
const VIEW_MEMBER_WRITES: Record<string, string> = {
  'POST /v1/account/bootstrap': 'selects, creates or joins the caller\'s own workspace',
  'PATCH /v1/account/profile': 'the caller\'s own profile',
  'PUT /v1/account/avatar': 'the caller\'s own avatar',
  'POST /v1/invitations/:invitationToken/accept': 'joining by invitation; the invited permission applies from then on',
  'PATCH /v1/collaboration/notifications': 'the read state of the caller\'s own notifications',
  'PUT /v1/projects/:projectId/membership': 'the caller\'s own project roles, which grant nothing',
  'DELETE /v1/projects/:projectId/membership': 'the caller leaving a project',
  'POST /v1/sessions/:sessionId/transcript-summary': 'reads the transcript and stores nothing',
  'POST /v1/search/answer': 'answers from what the asker may read and stores nothing',
  'POST /v1/workobjects/:workObjectId/comments': 'view members may comment (interface §2, content permission)',
  'PATCH /v1/workobjects/:workObjectId/comments/:commentId': 'the author edits their own comment',
  'DELETE /v1/workobjects/:workObjectId/comments/:commentId': 'the author (or a manager) deletes a comment',
  'POST /v1/account/voice-profile/enrollments': 'the caller\'s own voice enrollment',
  'PUT /v1/account/voice-profile/enrollments/:enrollmentId': 'the caller\'s own voice profile',
  'DELETE /v1/account/voice-profile': 'the caller\'s own voice profile and what was derived from it',
  'POST /v1/sessions/:sessionId/speakers/:speakerId/voice-opt-out': 'withdrawing consent to voice recognition must never need edit permission; it only removes a name and embeddings',
}

/** Open routes that only the author of the resource may use: the view member is refused by the route itself (403). */
const AUTHOR_ONLY: Record<string, string> = {
  'PATCH /v1/workobjects/:workObjectId/comments/:commentId': 'the factory\'s comment is the owner\'s',
  'DELETE /v1/workobjects/:workObjectId/comments/:commentId': 'the factory\'s comment is the owner\'s',
}

// ---- the suite ------------------------------------------------------------------------------

eachDatabase('tenant isolation', (h) => {
  let routes: Route[]
  let owner: Member
  let viewer: Member
  let stranger: Member
  const shared: Record<string, string> = {}

  beforeAll(async () => {
    routes = appRoutes.get(h.app)!
    owner = await h.member()
    viewer = await inviteAndJoin(h, owner, { contentPermission: 'view' })
    // A manager with edit permission in their own workspace: a refusal cannot be about permission.
    stranger = await h.member()
  })

  it('sees the registered routes, each declaring who may call it', () => {
    const names = routes.map((route) => route.name)
    expect(names).toEqual(expect.arrayContaining([
      'GET /healthz', 'GET /v1/projects', 'PATCH /v1/projects/:projectId', 'POST /v1/workspace/invitations', 'GET /v1/workspace/members',
    ]))
    const undeclared = routes.filter((route) => route.options.config?.access === undefined).map((route) => route.name)
    expect(undeclared, 'routes without config.access (public, signedIn, view, edit, manage or socket)').toEqual([])
  })

  it('has a factory for every path parameter of every route', () => {
    const names = [...new Set(routes.flatMap((route) => route.params))]
    const missing = names.filter((name) => !PARAMETERS[name])
    expect(missing.map((name) => missingFactory(name, routes))).toEqual([])
  })

  it('answers 401 to anonymous callers on every route that is not public', async () => {
    for (const route of routes.filter((candidate) => !isPublic(candidate))) {
      const { url } = await fill(route, { h, owner }, routes, shared)
      const response = await call(h.anonymous, route, url)
      expect(response.statusCode, `${route.name}: ${response.body}`).toBe(401)
      expect(response.json().code, route.name).toBe('unauthenticated')
    }
  })

  it('answers 404 to a member of another workspace on every route that takes an id from this one', async () => {
    const targets = routes.filter((route) => !isPublic(route)
      && route.params.some((name) => PARAMETERS[name]?.scope !== 'capability'))
    expect(targets.length).toBeGreaterThan(5)
    for (const route of targets) {
      // Fresh resources per route: the owner's control call below may change or delete them.
      const { url, values } = await fill(route, { h, owner }, routes)
      if (isSocket(route)) {
        expect(await socketOutcome(h.app, url, stranger.cookie!), `${route.name} for a stranger`).toBe(1008)
        expect(await socketOutcome(h.app, url, owner.cookie!), `${route.name} for the owner`).toBe('open')
        continue
      }
      const prepare = PREPARED[route.name]
      const sample = prepare ? await prepare({ h, owner, values }) : sampleRequest(route)
      const foreign = await call(stranger, route, url, sample)
      expect(foreign.statusCode, `${route.name} for a stranger: ${foreign.body}`).toBe(404)
      expect(foreign.json().code, route.name).toBe('not_found')
      // The same request from the owner gets through, so the 404 above was about the workspace.
      const control = await call(owner, route, url, prepare ? sample : sampleRequest(route))
      expect([400, 404], `${route.name} for the owner: ${control.body}`).not.toContain(control.statusCode)
      expect(control.statusCode, `${route.name} for the owner: ${control.body}`).toBeLessThan(500)
    }
  })

  it('answers 403 to a view member on every route that writes content', async () => {
    const writes = routes.filter((route) => ['edit', 'manage'].includes(accessOf(route)))
    expect(writes.map((route) => route.name)).toEqual(expect.arrayContaining(['POST /v1/projects', 'PATCH /v1/projects/:projectId']))
    for (const route of writes) {
      const { url } = await fill(route, { h, owner }, routes, shared)
      const response = await call(viewer, route, url, SAMPLES[route.name]?.() ?? {})
      expect(response.statusCode, `${route.name}: ${response.body}`).toBe(403)
      expect(response.json().code, route.name).toBe('forbidden')
    }
  })

  it('lets view members write only where VIEW_MEMBER_WRITES says why', async () => {
    const open = routes.filter((route) => isWrite(route) && !isPublic(route) && !['edit', 'manage'].includes(accessOf(route)))
    const unexplained = open.filter((route) => !VIEW_MEMBER_WRITES[route.name]).map((route) =>
      `${route.name} (access: ${accessOf(route)}) lets view members change things: declare access 'edit' or 'manage', ` +
      'or, when it changes no shared content, add it to VIEW_MEMBER_WRITES in test/tenancy.test.ts with the reason.')
    expect(unexplained).toEqual([])
    const stale = Object.keys(VIEW_MEMBER_WRITES).filter((name) => !open.some((route) => route.name === name))
    expect(stale, 'VIEW_MEMBER_WRITES entries that are no longer open routes').toEqual([])
    // Where the workspace guard decides (access 'view'), the view member really gets through.
    for (const route of open.filter((candidate) => accessOf(candidate) === 'view')) {
      const { url, values } = await fill(route, { h, owner }, routes, shared)
      const sample = PREPARED[route.name] ? await PREPARED[route.name]!({ h, owner, values }) : sampleRequest(route)
      const response = await call(viewer, route, url, sample)
      expect(response.statusCode, `${route.name}: ${response.body}`).toBe(AUTHOR_ONLY[route.name] ? 403 : 200)
    }
  })
}, { setup: takeRoutes })
