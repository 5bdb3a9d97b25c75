// The JSON body parser: like Fastify's, but each refusal says what is wrong. Invalid JSON names
// the parser's complaint; a `__proto__` key (or `constructor.prototype`), refused because merging
// it into an object could change every object's prototype, is named with its place in the body.
// An empty body is no body, whatever its Content-Type says: a client that always sends
// `Content-Type: application/json` may call an operation the interface gives no request body
// (login-intent, resend, voice-opt-out…); a route whose schema needs a body still answers 400.
import type { FastifyInstance } from 'fastify'
import { AppError } from './errors.ts'

const MAX_DEPTH = 256

function forbiddenKeyPath(value: unknown, path: string, depth = 0): string | undefined {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = forbiddenKeyPath(item, path ? `${path}.${index}` : String(index), depth + 1)
      if (found) return found
    }
    return undefined
  }
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key]
    const here = path ? `${path}.${key}` : key
    if (key === '__proto__') return here
    if (key === 'constructor' && item !== null && typeof item === 'object' && Object.hasOwn(item, 'prototype')) return `${here}.prototype`
    const found = forbiddenKeyPath(item, here, depth + 1)
    if (found) return found
  }
  return undefined
}

export function parseJsonBody(text: string): unknown {
  if (text.trim().length === 0) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const reason = (error as Error).message
    throw new AppError('validation_failed', `The body is not valid JSON: ${reason}`, {
      errors: [{ field: 'body', code: 'json', message: `is not valid JSON: ${reason}` }],
    })
  }
  const forbidden = forbiddenKeyPath(value, '')
  if (forbidden) {
    const message = `has the key "${forbidden.split('.').pop()}", which no request may carry (it could alter the prototype of every object)`
    throw new AppError('validation_failed', `${forbidden}: ${message}`, { errors: [{ field: forbidden, code: 'forbidden_key', message }] })
  }
  return value
}

export function registerJsonBodyParser(app: FastifyInstance) {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string))
    } catch (error) {
      done(error as Error, undefined)
    }
  })
}
