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
      ignore: 'pid,hostname,req,res,responseTime',
      singleLine: false,
      // Fastify's request lines, shortened: "incoming request POST /v1/projects", "request completed 200 in 12 ms".
      messageFormat: (log, messageKey) => {
        const message = String(log[messageKey] ?? '')
        const req = log.req as { method?: string; url?: string } | undefined
        const res = log.res as { statusCode?: number } | undefined
        if (req?.method) return `${message} ${req.method} ${req.url ?? ''}`
        if (res?.statusCode) return `${message} ${res.statusCode} in ${Math.round(Number(log.responseTime ?? 0))} ms`
        return message
      },
      sync: true,
    }),
  }
}
