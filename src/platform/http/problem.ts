// RFC 9457 problem+json: the one error shape of the API, and the handlers that produce it.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { isRetryable } from '../db/dialect.ts'
import { AppError, ERROR_CODES, type ErrorCode, type FieldError } from './errors.ts'

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

export const ProblemSchema = Type.Object({
  type: Type.String({ description: 'urn:confer:problem:<code>' }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  code: Type.String({ description: 'Stable machine-readable error code (docs/errors.md).' }),
  requestId: Type.String(),
  instance: Type.Optional(Type.String()),
  errors: Type.Optional(Type.Array(Type.Object({
    field: Type.String(),
    code: Type.String(),
    message: Type.String(),
  }))),
}, { $id: 'Problem', additionalProperties: true })

const TITLES: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 408: 'Request Timeout', 409: 'Conflict', 413: 'Content Too Large',
  415: 'Unsupported Media Type', 422: 'Unprocessable Content', 426: 'Upgrade Required', 429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
}

export const problemTitle = (status: number) => TITLES[status] ?? 'Error'

/** OpenAPI response entries for the listed statuses: the Problem schema, as application/problem+json. */
export function problems(...statuses: number[]) {
  const content = { [PROBLEM_CONTENT_TYPE]: { schema: Type.Ref('Problem') } }
  return Object.fromEntries(statuses.map((status) => [status, { description: TITLES[status] ?? 'Error', content }]))
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const body: Record<string, unknown> = {
    type: `urn:confer:problem:${error.code}`,
    title: TITLES[error.statusCode] ?? 'Error',
    status: error.statusCode,
    detail: error.message,
    code: error.code,
    requestId: request.id,
    instance: request.url.split('?')[0],
    ...error.extra,
  }
  if (error.errors) body.errors = error.errors
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value)
  return reply.code(error.statusCode).type(PROBLEM_CONTENT_TYPE).serializer(JSON.stringify).send(body)
}

export function registerProblemHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? unsupportedMediaType(request) : toAppError(error)
    if (problem.statusCode >= 500) request.log.error({ err: error }, 'request failed')
    else if (isRetryable(error)) request.log.warn({ code: (error as { code?: string }).code }, 'transaction rolled back by a concurrent change')
    return sendProblem(request, reply, problem)
  })
}

/** Fastify's own refusals before routing (Fastify's `frameworkErrors` option). */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendProblem(request, reply, new AppError('validation_failed', 'The URL is not valid: it has a malformed percent-encoding (%XX).', {
      errors: [{ field: 'url', code: 'format', message: 'has a malformed percent-encoding' }],
    }))
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendProblem(request, reply, new AppError('not_found', 'No such resource: a path parameter is longer than any identifier.'))
  }
  return sendProblem(request, reply, toAppError(error))
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/**
 * No route for this method and path. A path that exists with other methods says which (and `Allow`):
 * "No route DELETE /v1/projects/prj_…" read as if the project's address were wrong. Status and code stay.
 */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0]!
  const allowed = METHODS.filter((method) => method !== request.method && request.server.findRoute({ method, url: path }) !== null)
  if (allowed.length > 0) reply.header('allow', allowed.join(', '))
  const takes = allowed.length > 0 ? `: this path takes ${allowed.join(', ')}` : ''
  return sendProblem(request, reply, new AppError('route_not_found', `No route ${request.method} ${path}${takes}.`))
}

/** A body of a type the route takes no parser for: names the type sent, and JSON when the route takes JSON. */
function unsupportedMediaType(request: FastifyRequest): AppError {
  const sent = request.headers['content-type']?.split(';')[0]?.trim()
  const takesJson = Boolean(request.routeOptions.schema?.body)
  return new AppError('unsupported_media_type', `This route does not take ${sent ? `a body of type ${sent}` : 'a body without a Content-Type'}${takesJson ? '; send JSON with Content-Type: application/json' : ''}.`)
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'validation_failed',
  FST_ERR_CTP_INVALID_JSON_BODY: 'validation_failed',
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error
  if (error.validation) {
    const errors = closestVariant(collapseLiteralUnions(error.validation)).map((item) => toFieldError(item, error.validationContext ?? 'body'))
    return new AppError('validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors })
  }
  // A PostgreSQL deadlock or serialization failure that no retry absorbed: its transaction rolled
  // back, so the request can be sent again; a 409 says so rather than a 500.
  if (isRetryable(error)) {
    return new AppError('conflict', 'The request collided with a concurrent change to the same data and its transaction was rolled back; send it again.', { headers: { 'retry-after': '1' } })
  }
  const known = error.code ? FASTIFY_CODES[error.code] : undefined
  if (known) return new AppError(known, error.message)
  if (error.statusCode === 400 && error.message.includes('JSON')) return new AppError('validation_failed', error.message)
  const status = error.statusCode ?? 500
  if (status >= 500) return new AppError('internal_error', 'The server failed to handle this request; it has been logged.')
  const byStatus = (Object.keys(ERROR_CODES) as ErrorCode[]).find((code) => ERROR_CODES[code] === status)
  return new AppError(byStatus ?? 'validation_failed', error.message)
}

type ValidationItem = NonNullable<FastifyError['validation']>[number]

/**
 * A body that matches no variant of a union gets the errors of every variant, most of them beside
 * the point. Keep those of the variant it was meant for: the one whose errors leave its constants
 * (`action`: const or enum) alone, else the one with the fewest errors.
 */
function closestVariant(items: ValidationItem[]): ValidationItem[] {
  const branchOf = (item: ValidationItem) => /^#\/anyOf\/(\d+)\//.exec(item.schemaPath)?.[1]
  const branches = new Map<string, ValidationItem[]>()
  for (const item of items) {
    const branch = branchOf(item)
    if (branch !== undefined) branches.set(branch, [...(branches.get(branch) ?? []), item])
  }
  if (branches.size < 2 || items.some((item) => branchOf(item) === undefined && item.keyword !== 'anyOf')) return items
  const candidates = [...branches.values()]
  const aimed = candidates.filter((errors) => !errors.some((item) => item.keyword === 'const' || item.keyword === 'enum'))
  const pool = aimed.length > 0 ? aimed : candidates
  return pool.reduce((best, errors) => (errors.length < best.length ? errors : best))
}

/**
 * A value that matches none of a union of literals (`'a' | 'b'`) gets one `const` error per
 * literal plus the `anyOf` error, none naming the allowed values. They become one `enum` error:
 * "must be one of: "a", "b"".
 */
function collapseLiteralUnions(items: ValidationItem[]): ValidationItem[] {
  const unions = items.filter((item) => item.keyword === 'anyOf')
  if (unions.length === 0) return items
  let result = items
  for (const union of unions) {
    const members = result.filter((item) => item !== union && item.instancePath === union.instancePath &&
      item.schemaPath.startsWith(`${union.schemaPath}/`))
    if (members.length === 0 || !members.every((item) => item.keyword === 'const')) continue
    const allowed = [...new Set(members.map((item) => JSON.stringify((item.params as { allowedValue?: unknown }).allowedValue)))]
    const collapsed = {
      ...union, keyword: 'enum', params: { allowedValues: allowed.map((value) => JSON.parse(value) as unknown) },
      message: `must be one of: ${allowed.join(', ')}`,
    } as ValidationItem
    result = result.filter((item) => !members.includes(item)).map((item) => (item === union ? collapsed : item))
  }
  return result
}

function toFieldError(item: ValidationItem, context: string): FieldError {
  const params = item.params as Record<string, unknown>
  const base = item.instancePath.replace(/^\//, '').replaceAll('/', '.')
  const missing = typeof params?.missingProperty === 'string' ? params.missingProperty : undefined
  const extra = typeof params?.additionalProperty === 'string' ? params.additionalProperty : undefined
  const leaf = missing ?? extra
  const field = leaf ? (base ? `${base}.${leaf}` : leaf) : base || context
  const allowed = item.keyword === 'enum' && Array.isArray(params?.allowedValues) && !item.message?.startsWith('must be one of: ')
    ? `must be one of: ${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}`
    : undefined
  return { field, code: item.keyword, message: allowed ?? item.message ?? 'is invalid' }
}
