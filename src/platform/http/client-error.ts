// Node's refusals before a request exists (Fastify's `clientErrorHandler`): headers too large, a
// request that took too long to arrive, bytes that are not HTTP. Fastify's default answers them
// with its own JSON; these are problem+json like every other error (there is no request id yet).
import type { Socket } from 'node:net'
import { AppError } from './errors.ts'
import { PROBLEM_CONTENT_TYPE, problemTitle } from './problem.ts'

function refusal(error: NodeJS.ErrnoException): AppError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new AppError('request_timeout', 'The request did not arrive in time.')
  if (error.code === 'HPE_HEADER_OVERFLOW') return new AppError('headers_too_large', 'The request headers are larger than this server accepts.')
  return new AppError('validation_failed', 'The request is not valid HTTP.')
}

export function sendClientError(error: NodeJS.ErrnoException, socket: Socket) {
  // A connection reset: nobody is there to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const problem = refusal(error)
  const body = JSON.stringify({
    type: `urn:confer:problem:${problem.code}`, title: problemTitle(problem.statusCode), status: problem.statusCode,
    detail: problem.message, code: problem.code,
  })
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${problem.statusCode} ${problemTitle(problem.statusCode)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nConnection: close\r\n\r\n${body}`)
  }
  socket.destroy(error)
}
