// The server log: JSON lines in production and tests (for machines), one readable line per entry
// in development (pino-pretty: time, level, message, then the fields), so a newcomer running
// `npm start` can read it.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'
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

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>
type Bindings = Parameters<ChildLoggerFactory>[1]
type ChildLoggerOptions = Parameters<ChildLoggerFactory>[2]
type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type Parent = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }

/**
 * A request's logger that becomes pino's child (with its `reqId` binding) only when something is
 * logged at an enabled level: Fastify makes one per request, and at the production level (`info`
 * lines of every request are off below it) most requests log nothing. A line it writes is the
 * child's, byte for byte.
 */
class RequestLogger {
  #parent: Parent
  #bindings: Bindings
  #options: ChildLoggerOptions
  #child: FastifyBaseLogger | undefined

  constructor(parent: Parent, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  #real(): FastifyBaseLogger {
    return this.#child ??= this.#parent.child(this.#bindings, this.#options)
  }

  #log(level: LogMethod, args: unknown[]) {
    if (this.#child === undefined && this.#parent.isLevelEnabled?.(level) === false) return
    ;(this.#real()[level] as (...values: unknown[]) => void)(...args)
  }

  get level() {
    return this.#child?.level ?? this.#parent.level
  }

  set level(level: string) {
    this.#real().level = level
  }

  fatal(...args: unknown[]) { this.#log('fatal', args) }
  error(...args: unknown[]) { this.#log('error', args) }
  warn(...args: unknown[]) { this.#log('warn', args) }
  info(...args: unknown[]) { this.#log('info', args) }
  debug(...args: unknown[]) { this.#log('debug', args) }
  trace(...args: unknown[]) { this.#log('trace', args) }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options)
  }
}

/** Fastify's `childLoggerFactory`: a lazy child per request (RequestLogger), or pino's own when the route sets a level. */
export const requestLoggerFactory: ChildLoggerFactory = function (logger, bindings, options) {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options)
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger
}
