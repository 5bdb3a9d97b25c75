// Text that no route may store or look up: a NUL character (PostgreSQL text cannot hold it; SQLite
// would store it and C-string tools cut it short) and a lone UTF-16 surrogate (not Unicode: it
// cannot be encoded as UTF-8, so hashing, storing and echoing it fail). Checked once for every route,
// in the path, the query and a parsed JSON or form body (keys too), before any schema or handler
// sees the request: 400 validation_failed with the field and `code: invalid_character`. After the
// schemas have coerced query strings to numbers, a number that is not finite (`limit=1e309`,
// `{"n": 1e999}`) is refused the same way (`code: not_finite`): no query may see Infinity.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from './errors.ts'

/** A message when `text` cannot be stored as text, else undefined. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)'
  if (!text.isWellFormed()) return 'must be well-formed Unicode (it contains a lone surrogate)'
  return undefined
}

const MAX_DEPTH = 64

/** The first ill-formed string in a parsed value, as [field path, message]. */
function findIllFormed(value: unknown, path: string, depth = 0): [string, string] | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : [path, 'must be a finite number']
  if (typeof value === 'string') {
    const problem = textProblem(value)
    return problem ? [path, problem] : undefined
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return undefined
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findIllFormed(item, path ? `${path}.${index}` : String(index), depth + 1)
      if (found) return found
    }
    return undefined
  }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = textProblem(key)
    if (keyProblem) return [path || 'body', `has a key that ${keyProblem}`]
    const found = findIllFormed(item, path ? `${path}.${key}` : key, depth + 1)
    if (found) return found
  }
  return undefined
}

export function assertWellFormedInput(request: FastifyRequest) {
  // Part by part, without arrays: this runs twice on every request, most of them with nothing to check.
  assertWellFormed('params', request.params)
  assertWellFormed('querystring', request.query)
  assertWellFormed('body', request.body)
}

function assertWellFormed(part: string, value: unknown) {
  if (value === undefined || value === null || isEmptyObject(value)) return
  const found = findIllFormed(value, '')
  if (!found) return
  const [field, message] = found
  const name = field || part
  const code = message === 'must be a finite number' ? 'not_finite' : 'invalid_character'
  throw new AppError('validation_failed', `${name}: ${message}`, { errors: [{ field: name, code, message }] })
}

function isEmptyObject(value: unknown) {
  if (typeof value !== 'object' || Array.isArray(value) || Buffer.isBuffer(value)) return false
  for (const _key in value) return false
  return true
}

export function registerWellFormedInput(app: FastifyInstance) {
  // Callback hooks, not async ones: they run on every request, and a promise per hook is a cost.
  app.addHook('preValidation', (request, _reply, done) => {
    assertWellFormedInput(request)
    done()
  })
  // again once the schemas have coerced query and path values to numbers
  app.addHook('preHandler', (request, _reply, done) => {
    assertWellFormedInput(request)
    done()
  })
}
