// The server log: JSON lines in production and tests (for machines), one readable line per entry
// in development (pino-pretty: time, level, message, then the fields), so a newcomer running
// `npm start` can read it.
import type { FastifyServerOptions } from 'fastify'
import pretty from 'pino-pretty'
import type { Config } from '../../config.ts'

export function loggerOptions(config: Config): NonNullable<FastifyServerOptions['logger']> {
  if (config.nodeEnv !== 'development') return { level: config.logLevel }
  return {
    level: config.logLevel,
    stream: pretty({
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: false,
      sync: true,
    }),
  }
}
