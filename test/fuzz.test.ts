// Fuzzing every operation of the served OpenAPI document: path parameters, query parameters and
// JSON bodies get values that break their schema or sit at its edges (NUL, lone surrogates, 1 MB
// strings, `../`, wrong types, cursors of the wrong shape, huge numbers, empty bodies, arrays for
// objects, bodies of the wrong media type). No answer may be a 5xx, and every error must be
// problem+json. The values come from a seeded generator (FUZZ_SEED, default 11), so a failure is
// reproduced by running the test again; each failure names its request.
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { beforeAll, expect, it } from 'vitest'
import { startRecording } from '../src/modules/sessions/testing.ts'
import { capture } from '../src/modules/work/testing.ts'
import { eachDatabase, type Member } from './harness.ts'

type Schema = {
  type?: string | string[]; $ref?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema
  anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; const?: unknown; enum?: unknown[]; default?: unknown
  minLength?: number; maxLength?: number; minimum?: number; maximum?: number; pattern?: string; format?: string
  minItems?: number; additionalProperties?: unknown
}
type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; schema?: Schema; required?: boolean }
type Operation = { operationId?: string; parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }
type Case = { method: string; url: string; payload?: string | Buffer; contentType?: string; label: string }

const SEED = Number(process.env.FUZZ_SEED ?? 11)
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch']
const MEGABYTE_STRING = 'm'.repeat(1024 * 1024)

/** mulberry32: a small seeded generator, so that every run sends the same requests. */
function generator(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! }
}

/** Percent-encodes a query value; a lone surrogate becomes its (invalid) three UTF-8-style bytes. */
const encodeQuery = (value: string) => (value.isWellFormed()
  ? encodeURIComponent(value)
  : encodeURIComponent(value.toWellFormed()).replaceAll('%EF%BF%BD', '%ED%A0%80'))

const cursorOf = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url')

/** Raw (already URL-encoded) values for a path segment. */
const PATH_EDGES = [
  '%00', 'x%00y', '%ED%A0%80', '%zz', '..', '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f', 'a'.repeat(5000), '-1', '1e309',
  '99999999999999999999999', '%F0%9F%92%A9', '%20', 'null', '%5B%5D', 'prj_%00', `wo_${'Z'.repeat(120)}`,
]
/** Decoded values for a query parameter (encoded when sent). */
const QUERY_EDGES = [
  '\u0000', 'x\u0000y', 'x\ud800', '\udfff', '', ' ', '../../etc/passwd', '-1', '0', '1e309', '1.5', 'NaN', 'true', 'null',
  '99999999999999999999', '9007199254740993', 'a'.repeat(10_000), '[]', '{}', '💩',
]
const CURSOR_EDGES = [
  cursorOf(['a', 'b']), cursorOf([1, 2]), cursorOf([1e300, 'x']), cursorOf([-1, 'x']), cursorOf([1.5, 'x']), cursorOf([null, null]),
  cursorOf(['x\u0000', 'y']), cursorOf(['x\ud800', 'y']), cursorOf([]), cursorOf([[1], { a: 1 }]), cursorOf('x'), cursorOf({ a: 1 }),
  'not-base64!', '%00', cursorOf(['a'.repeat(5000), 1]),
]
/** Any-type JSON values for a body field. */
const VALUE_EDGES: unknown[] = [
  '\u0000', 'x\u0000y', 'x\ud800', '\udc00x', '', ' ', '../../etc/passwd', 'a'.repeat(70_000), -1, 0, 1.5, 1e308, -1e308,
  9_007_199_254_740_993, 2 ** 31, 2 ** 63, true, false, null, [], {}, [null], [''], { '': null }, 'null', '1', '💩', '\u202e',
  '2026-13-45T99:99:99Z', 'prj_01JAAAAAAAAAAAAAAAAAAAAAAA',
]
/** Whole bodies sent with `application/json`, whatever the schema. */
const RAW_BODIES = [
  '', 'null', '[]', '[{}]', '"x"', '1', 'true', '{}', '{', '{"a":', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}',
  '{"a":"\\u0000"}', '{"a":"\\ud800"}', `${'['.repeat(3000)}${']'.repeat(3000)}`, '{"a":1e999}',
]

function resolver(schemas: Record<string, Schema>) {
  const resolve = (schema: Schema | undefined, depth = 0): Schema | undefined => {
    if (!schema || depth > 10) return schema
    if (schema.$ref) return resolve(schemas[schema.$ref.replace('#/components/schemas/', '')], depth + 1)
    return schema
  }
  return resolve
}

/** A value that matches `schema` where that is easy, so that one broken field is the only fault. */
function sample(schema: Schema | undefined, resolve: (schema: Schema | undefined) => Schema | undefined, depth = 0): unknown {
  const s = resolve(schema)
  if (!s || depth > 6) return null
  if (s.const !== undefined) return s.const
  if (s.enum) return s.enum[0]
  if (s.default !== undefined) return s.default
  const variants = s.anyOf ?? s.oneOf
  if (variants) return sample(variants[0], resolve, depth + 1)
  if (s.allOf) return sample(s.allOf[0], resolve, depth + 1)
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type
  switch (type) {
    case 'string':
      if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z'
      if (s.format === 'email') return 'someone@example.com'
      if (s.format === 'uri') return 'https://example.com/'
      return 'x'.repeat(Math.max(1, s.minLength ?? 1))
    case 'integer':
    case 'number':
      return s.minimum ?? 1
    case 'boolean':
      return true
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items, resolve, depth + 1))
    case 'object':
    default: {
      const result: Record<string, unknown> = {}
      for (const [name, property] of Object.entries(s.properties ?? {})) result[name] = sample(property, resolve, depth + 1)
      return result
    }
  }
}

function casesOf(method: string, route: string, operation: Operation, ids: Record<string, string>, schemas: Record<string, Schema>, seed: number): Case[] {
  const random = generator(seed)
  const resolve = resolver(schemas)
  const parameters = operation.parameters ?? []
  const pathParams = parameters.filter((p) => p.in === 'path').map((p) => p.name)
  const queryParams = parameters.filter((p) => p.in === 'query')
  const fill = (overrides: Record<string, string> = {}) => route.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    overrides[name] ?? ids[name] ?? `${name.replace(/Id$/, '').slice(0, 3).toLowerCase()}_01JAAAAAAAAAAAAAAAAAAAAAAA`)
  const base = fill()
  const jsonSchema = operation.requestBody?.content?.['application/json']?.schema
  const validBody = jsonSchema ? sample(jsonSchema, resolve) : undefined
  const body = validBody === undefined ? undefined : JSON.stringify(validBody)
  const withBody = (url: string, label: string): Case => ({ method, url, label, ...(body ? { payload: body, contentType: 'application/json' } : {}) })
  const cases: Case[] = [withBody(base, 'baseline')]

  for (const name of pathParams) {
    for (const edge of PATH_EDGES) cases.push(withBody(fill({ [name]: edge }), `path ${name}=${edge.slice(0, 30)}`))
  }
  for (const parameter of queryParams) {
    const edges = parameter.name === 'cursor' ? [...CURSOR_EDGES, ...QUERY_EDGES.slice(0, 4)] : QUERY_EDGES
    for (const edge of edges) {
      cases.push(withBody(`${base}?${encodeURIComponent(parameter.name)}=${encodeQuery(edge)}`, `query ${parameter.name}=${JSON.stringify(edge).slice(0, 30)}`))
    }
    cases.push(withBody(`${base}?${parameter.name}=1&${parameter.name}=2`, `query ${parameter.name} twice`))
  }
  cases.push({ method, url: `${base}?${'q'.repeat(10)}=${encodeURIComponent(MEGABYTE_STRING)}`, label: 'query: a 1 MB unknown parameter' })

  if (method !== 'GET' && method !== 'DELETE' || jsonSchema) {
    for (const raw of RAW_BODIES) cases.push({ method, url: base, payload: raw, contentType: 'application/json', label: `body ${raw.slice(0, 30)}` })
    cases.push({ method, url: base, payload: 'name=x%00&a[b]=c', contentType: 'application/x-www-form-urlencoded', label: 'form body' })
    cases.push({ method, url: base, payload: Buffer.from('RIFF----WAVEnot really'), contentType: 'audio/wav', label: 'bytes as audio/wav' })
    cases.push({ method, url: base, payload: 'plain', contentType: 'text/plain', label: 'text/plain body' })
    cases.push({ method, url: base, payload: '{}', contentType: 'application/json; charset=utf-16', label: 'json in utf-16' })
  }
  if (validBody && typeof validBody === 'object' && !Array.isArray(validBody)) {
    const fields = Object.keys(validBody as object)
    for (const field of fields) {
      for (let index = 0; index < 6; index += 1) {
        const value = random.pick(VALUE_EDGES)
        cases.push({
          method, url: base, contentType: 'application/json', payload: JSON.stringify({ ...validBody, [field]: value }),
          label: `body.${field}=${JSON.stringify(value)?.slice(0, 30)}`,
        })
      }
      cases.push({ method, url: base, contentType: 'application/json', payload: JSON.stringify({ ...validBody, [field]: MEGABYTE_STRING.slice(0, 900_000) }), label: `body.${field}: 900 KB string` })
      cases.push({ method, url: base, contentType: 'application/json', payload: JSON.stringify({ ...validBody, [field]: [validBody] }), label: `body.${field}: array of the body` })
    }
    cases.push({ method, url: base, contentType: 'application/json', payload: JSON.stringify([validBody]), label: 'body as an array' })
    cases.push({ method, url: base, contentType: 'application/json', payload: JSON.stringify({ ...validBody, extra: 1 }), label: 'body with an extra field' })
    const stripped = Object.fromEntries(Object.entries(validBody as object).map(([key, value]) => [key, typeof value === 'string' ? `${value}\u0000` : value]))
    cases.push({ method, url: base, contentType: 'application/json', payload: JSON.stringify(stripped), label: 'body: NUL after every string' })
  }
  return cases
}

eachDatabase('fuzzing every operation of the OpenAPI document', (h) => {
  let member: Member
  let document: { paths: Record<string, Record<string, Operation>>; components: { schemas?: Record<string, Schema> } }
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    document = (await h.anonymous.get('/v1/openapi.json')).json()
    member = await h.member()
    // Real ids, so that requests get past the lookups to the code behind them.
    const project = (await member.post('/v1/projects', { name: 'Fuzzed' })).json()
    const session = await startRecording(member, { projectId: project.id })
    const object = await capture(member, session.id)
    Object.assign(ids, {
      projectId: project.id, sessionId: session.id, conversationId: session.conversationId, workspaceId: member.workspaceId,
      workObjectId: object.id, workSetId: object.workSetId, revisionId: object.revisionId, reviewId: object.reviewId,
      accountId: member.accountId,
    })
  })

  it('answers ≥ 1,000 schema-breaking requests with no 5xx and only problem+json errors', async () => {
    const started = Date.now()
    const failures: string[] = []
    let sent = 0
    let operations = 0
    const entries = Object.entries(document.paths).flatMap(([route, item]) => Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method)).map(([method, operation]) => ({ route, method: method.toUpperCase(), operation })))
    for (const [index, { route, method, operation }] of entries.entries()) {
      operations += 1
      for (const testCase of casesOf(method, route, operation, ids, document.components.schemas ?? {}, SEED * 1000 + index)) {
        const options: InjectOptions = {
          method: testCase.method as InjectOptions['method'], url: testCase.url,
          ...(testCase.payload === undefined ? {} : { payload: testCase.payload }),
          headers: { ...(member.cookie ? { cookie: member.cookie } : {}), ...(testCase.contentType ? { 'content-type': testCase.contentType } : {}) },
        }
        let response: LightMyRequestResponse
        try {
          response = await h.app.inject(options)
        } catch (error) {
          failures.push(`${method} ${route} [${testCase.label}]: threw ${(error as Error).message}`)
          continue
        }
        sent += 1
        const name = `${method} ${route} [${testCase.label}] → ${response.statusCode}`
        if (response.statusCode >= 500) failures.push(`${name}: ${response.body.slice(0, 200)}`)
        else if (response.statusCode >= 400 && !/^application\/problem\+json/.test(String(response.headers['content-type']))) {
          failures.push(`${name}: not problem+json (${response.headers['content-type']}): ${response.body.slice(0, 120)}`)
        }
      }
    }
    // The member is still signed in and the app still answers (nothing above broke the server).
    expect((await member.get('/v1/account/current')).statusCode).toBe(200)
    expect(failures).toEqual([])
    expect(operations).toBeGreaterThan(50)
    expect(sent).toBeGreaterThanOrEqual(1000)
    // ≈ 20 s per database on an idle 2-core machine; not asserted, so a loaded CI machine does not fail it
    console.info(`fuzz [${h.kind}]: ${sent} requests over ${operations} operations in ${Date.now() - started} ms (seed ${SEED})`)
  }, 120_000)
})
