// The lazy request logger (logger.ts): no pino child until a line at an enabled level is written;
// the line it writes carries the request's binding like pino's own child.
import { Writable } from 'node:stream'
import Fastify, { type FastifyBaseLogger } from 'fastify'
import { expect, it, vi } from 'vitest'
import { requestLoggerFactory } from './logger.ts'

function capture(level: string) {
  const lines: string[] = []
  const stream = new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done() } })
  // Fastify's own pino, as the app uses it
  return { logger: Fastify({ logger: { level, stream } }).log, lines }
}

const make = (logger: FastifyBaseLogger) => requestLoggerFactory.call(undefined as never, logger as never, { reqId: 'req_1' }, {}, undefined as never)

it('makes no child for lines below the level, and logs with the binding above it', async () => {
  const { logger, lines } = capture('warn')
  const child = vi.spyOn(logger, 'child')
  const log = make(logger)
  log.info({ big: 'object' }, 'incoming request')
  log.debug('detail')
  expect(child).not.toHaveBeenCalled()
  expect(log.level).toBe('warn')
  log.error({ err: new Error('boom') }, 'request failed')
  log.warn('again')
  expect(child).toHaveBeenCalledTimes(1)
  await new Promise((resolve) => setImmediate(resolve))
  expect(lines.map((line) => JSON.parse(line))).toMatchObject([
    { level: 50, reqId: 'req_1', msg: 'request failed', err: { message: 'boom' } },
    { level: 40, reqId: 'req_1', msg: 'again' },
  ])
})

it('gives a child of its own the request binding too', async () => {
  const { logger, lines } = capture('info')
  make(logger).child({ part: 'x' }).info('hello')
  await new Promise((resolve) => setImmediate(resolve))
  expect(JSON.parse(lines[0]!)).toMatchObject({ reqId: 'req_1', part: 'x', msg: 'hello' })
})
