// Every setting comes from the environment; every default is the embedded mode (SQLite, files
// under ./data, no other server). docs/configuration.md lists them; keep the two in step.
import path from 'node:path'

export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }

export type OidcProviderConfig = {
  providerId: string
  discoveryUrl: string
  clientId: string
  clientSecret: string
  /** shown on the sign-in button (OIDC_PROVIDER_NAME; defaults to the id) */
  name: string
}

export type Config = {
  nodeEnv: 'development' | 'production' | 'test'
  host: string
  port: number
  publicUrl: URL
  /** PUBLIC_URL without a trailing slash: the prefix of every absolute link the API returns */
  publicBase: string
  /** true when PUBLIC_URL is https: cookies become `__Secure-…; Secure` */
  secureCookies: boolean
  database: DatabaseTarget
  dataDir: string
  blobStore: 'fs' | 'database' | 's3'
  blobDir: string
  /** the S3-compatible bucket when BLOB_STORE is s3 (docs/configuration.md) */
  s3: S3Config | undefined
  authSecret: string | undefined
  smtpUrl: string | undefined
  mailFrom: string
  github: { clientId: string; clientSecret: string } | undefined
  google: { clientId: string; clientSecret: string } | undefined
  oidc: OidcProviderConfig | undefined
  trustedOrigins: string[]
  appScheme: string
  logLevel: string
  rateLimitAccountPerMinute: number
  rateLimitPublicPerMinute: number
  shutdownTimeoutMs: number
  /** the longest a request may take to arrive whole (headers and body); also the idle limit of a connection */
  requestTimeoutMs: number
  assetTokenTtlSeconds: number
  /** background jobs: concurrency per process (0: `serve` runs none), poll interval, lease */
  jobs: { workers: number; pollIntervalMs: number; visibilityTimeoutMs: number }
  /** speech-to-text (DESIGN §6): which engine, and what each engine needs */
  speech: SpeechConfig
  /** an OpenAI-compatible chat endpoint for grounded-ai answers; absent: extractive only */
  llm: { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number } | undefined
  /** extracted items below this confidence are stored but hidden (0–1) */
  extractionQualityGate: number
  /** `auto`: grounded-ai when a chat model is configured, else extractive */
  extractionEngine: 'auto' | 'extractive' | 'grounded-ai'
  /** answers: the learned English sentence model beside the lexical ranking (`off`: lexical only; docs/answers.md) */
  answers: { sentenceModel: 'off' | 'use-lite-en' }
  /** codebase memory: local roots a codebase may be registered from (none: registration refused), and its limits */
  codebases: { roots: string[]; maxBytes: number; maxFiles: number; timeoutMs: number }
  /** billing: off (self-hosted, unlimited) unless Stripe is configured */
  billing: BillingConfig
  /** external actions and connections (src/modules/integrations) */
  integrations: IntegrationsConfig
}

export type S3Config = {
  /** another endpoint than AWS (MinIO, Ceph, R2, s3rver …); absent: AWS itself, by region */
  endpoint: string | undefined
  bucket: string
  region: string
  /** both or neither; neither: the SDK's default chain (AWS_* variables, shared files, instance role) */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (most self-hosted servers want it) */
  forcePathStyle: boolean
  /** prepended to every key, e.g. `confer/` to share a bucket */
  prefix: string
}

export type BillingConfig = {
  /** Stripe when STRIPE_SECRET_KEY is set; absent: self-hosted, nothing limited */
  stripe: StripeConfig | undefined
  /** seats of a workspace without a live subscription (Stripe mode only) */
  freeSeats: number
}

export type StripeConfig = {
  secretKey: string
  webhookSecret: string
  /** a recurring per-seat price: a subscription's quantity is its seats */
  priceId: string
  /** another API base (tests: a local stand-in for api.stripe.com) */
  apiBase: URL | undefined
}

export type IntegrationsConfig = {
  /** keys that encrypt connection secrets, newest version first; empty: one key derived from the auth secret */
  encryptionKeys: { version: number; key: Buffer }[]
  /** how long an approval token stays valid */
  approvalTtlSeconds: number
  /** provider API base URLs (tests point them at local mocks) */
  githubApiUrl: string
  slackApiUrl: string
  linearApiUrl: string
  /** how long connecting waits for the provider's answer to the credential check */
  verifyTimeoutMs: number
  /** OAuth apps per service, when configured */
  oauth: Record<string, { clientId: string; clientSecret: string; authorizeUrl: string; tokenUrl: string; scopes: string }>
}

export type SpeechEngineName = 'auto' | 'openai' | 'whisper' | 'moonshine' | 'pocketsphinx' | 'client'

export type SpeechConfig = {
  engine: SpeechEngineName
  language: string
  openai: { url: string; apiKey: string | undefined; model: string } | undefined
  whisperModelPath: string | undefined
  /** the Moonshine model's directory (default: models/moonshine-tiny in the checkout) */
  moonshineModelDir: string
  pocketsphinxBin: string
  ffmpegBin: string
  /** speaker embeddings (docs/voice.md): the built-in engine, or sherpa-onnx with the operator's model */
  voice: { engine: 'builtin' | 'sherpa-onnx'; modelPath: string | undefined }
}

/** Providers whose OAuth apps an operator may configure for integration connections. */
const OAUTH_DEFAULTS: Record<string, { authorizeUrl: string; tokenUrl: string; scopes: string }> = {
  github: { authorizeUrl: 'https://github.com/login/oauth/authorize', tokenUrl: 'https://github.com/login/oauth/access_token', scopes: 'repo' },
  slack: { authorizeUrl: 'https://slack.com/oauth/v2/authorize', tokenUrl: 'https://slack.com/api/oauth.v2.access', scopes: 'chat:write,channels:read,groups:read' },
  linear: { authorizeUrl: 'https://linear.app/oauth/authorize', tokenUrl: 'https://api.linear.app/oauth/token', scopes: 'read,write' },
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

type Env = Record<string, string | undefined>

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = []
  const read = <T>(name: string, parse: (raw: string) => T, fallback: T): T => {
    const raw = env[name]?.trim()
    if (raw === undefined || raw === '') return fallback
    try {
      return parse(raw)
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message} (got ${JSON.stringify(raw)})`)
      return fallback
    }
  }

  const nodeEnv = read('NODE_ENV', oneOf(['development', 'production', 'test'] as const), 'development')
  const port = read('PORT', integer(0, 65535), 8080)
  const host = read('HOST', (raw) => raw, '0.0.0.0')
  const publicUrl = read('PUBLIC_URL', httpUrl, new URL(`http://localhost:${port}`))
  const dataDir = path.resolve(read('DATA_DIR', (raw) => raw, './data'))
  const database = read('DATABASE_URL', databaseTarget, { kind: 'sqlite', path: path.join(dataDir, 'confer.db') } as DatabaseTarget)
  const blobStore = read('BLOB_STORE', oneOf(['fs', 'database', 's3'] as const), 'fs')
  const blobDir = path.resolve(read('BLOB_DIR', (raw) => raw, path.join(dataDir, 'blobs')))
  const s3 = blobStore === 's3' ? s3Config(env, problems) : undefined
  const authSecret = read('AUTH_SECRET', minLength(32), undefined)
  const smtpUrl = read('SMTP_URL', smtpTarget, undefined)
  const mailFrom = read('MAIL_FROM', (raw) => raw, `Confer <no-reply@${publicUrl.hostname}>`)
  const github = clientPair(env, 'GITHUB', problems)
  const google = clientPair(env, 'GOOGLE', problems)
  const oidc = oidcProvider(env, problems)
  const trustedOrigins = [...read('TRUSTED_ORIGINS', originList, []), ...loopbackAliases(publicUrl)]
  const appScheme = read('APP_SCHEME', scheme, 'confer')
  const logLevel = read('LOG_LEVEL', oneOf(LOG_LEVELS), nodeEnv === 'test' ? 'silent' : 'info')
  const rateLimitAccountPerMinute = read('RATE_LIMIT_ACCOUNT_PER_MINUTE', integer(1, 1_000_000), 600)
  const rateLimitPublicPerMinute = read('RATE_LIMIT_PUBLIC_PER_MINUTE', integer(1, 1_000_000), 60)
  const shutdownTimeoutMs = read('SHUTDOWN_TIMEOUT_MS', integer(0, 600_000), 10_000)
  const requestTimeoutMs = read('REQUEST_TIMEOUT_MS', integer(100, 3_600_000), 60_000)
  const assetTokenTtlSeconds = read('ASSET_TOKEN_TTL_SECONDS', integer(60, 604_800), 3600)
  const jobs = {
    workers: read('WORKERS', integer(0, 256), 4),
    pollIntervalMs: read('JOB_POLL_INTERVAL_MS', integer(10, 600_000), 1000),
    visibilityTimeoutMs: read('JOB_VISIBILITY_TIMEOUT_MS', integer(1000, 86_400_000), 60_000),
  }

  const openaiUrl = read('STT_OPENAI_URL', (raw) => httpUrl(raw).href.replace(/\/+$/, ''), undefined)
  const speech: SpeechConfig = {
    engine: read('STT_ENGINE', oneOf(['auto', 'openai', 'whisper', 'moonshine', 'pocketsphinx', 'client'] as const), 'auto'),
    language: read('STT_LANGUAGE', (raw) => raw, 'en'),
    openai: openaiUrl ? { url: openaiUrl, apiKey: read('STT_OPENAI_API_KEY', (raw) => raw, undefined), model: read('STT_OPENAI_MODEL', (raw) => raw, 'whisper-1') } : undefined,
    whisperModelPath: read('WHISPER_MODEL_PATH', (raw) => path.resolve(raw), undefined),
    moonshineModelDir: read('MOONSHINE_MODEL_DIR', (raw) => path.resolve(raw), path.resolve(import.meta.dirname, '../models/moonshine-base')),
    pocketsphinxBin: read('POCKETSPHINX_BIN', (raw) => raw, 'pocketsphinx_continuous'),
    ffmpegBin: read('FFMPEG_BIN', (raw) => raw, 'ffmpeg'),
    voice: {
      engine: read('VOICE_ENGINE', oneOf(['builtin', 'sherpa-onnx'] as const), 'builtin'),
      modelPath: read('VOICE_MODEL_PATH', (raw) => path.resolve(raw), undefined),
    },
  }
  if (speech.voice.engine === 'sherpa-onnx' && !speech.voice.modelPath) problems.push('VOICE_MODEL_PATH: required when VOICE_ENGINE is sherpa-onnx')
  if (speech.engine === 'openai' && !speech.openai) problems.push('STT_OPENAI_URL: required when STT_ENGINE is openai')
  if (speech.engine === 'whisper' && !speech.whisperModelPath) problems.push('WHISPER_MODEL_PATH: required when STT_ENGINE is whisper')

  const llmUrl = read('LLM_BASE_URL', (raw) => httpUrl(raw).href.replace(/\/+$/, ''), undefined)
  const llm = llmUrl ? {
    baseUrl: llmUrl, apiKey: read('LLM_API_KEY', (raw) => raw, undefined), model: read('LLM_MODEL', (raw) => raw, 'gpt-4o-mini'),
    timeoutMs: read('LLM_TIMEOUT_MS', integer(1000, 600_000), 30_000),
  } : undefined

  const extractionQualityGate = read('EXTRACTION_QUALITY_GATE', (raw) => {
    const value = Number(raw)
    if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(raw)) throw new Error('must be a number from 0 to 1')
    return value
  }, 0.5)
  const extractionEngine = read('EXTRACTION_ENGINE', oneOf(['auto', 'extractive', 'grounded-ai'] as const), 'auto')
  if (extractionEngine === 'grounded-ai' && !llm) problems.push('LLM_BASE_URL: required when EXTRACTION_ENGINE is grounded-ai')

  const billing: BillingConfig = {
    stripe: stripeConfig(env, problems),
    freeSeats: read('BILLING_FREE_SEATS', integer(0, 1_000_000), 3),
  }

  if (nodeEnv === 'production' && publicUrl.protocol !== 'https:') {
    problems.push(`PUBLIC_URL: must be https:// in production (got ${publicUrl.origin}); the session cookie is only safe as ` +
      '`__Secure-service-auth.session_token; Secure`. Put Confer behind a TLS proxy and set PUBLIC_URL to its https address, ' +
      'or leave NODE_ENV unset to try it locally over http')
  }
  const codebases = {
    roots: read('CODEBASE_ROOTS', (raw) => raw.split(',').map((root) => root.trim()).filter(Boolean).map((root) => path.resolve(root)), [] as string[]),
    maxBytes: read('CODEBASE_MAX_BYTES', integer(1024, 10_000_000_000), 50_000_000),
    maxFiles: read('CODEBASE_MAX_FILES', integer(1, 1_000_000), 5000),
    timeoutMs: read('CODEBASE_TIMEOUT_MS', integer(1000, 3_600_000), 120_000),
  }

  const answers = { sentenceModel: read('ANSWERS_SENTENCE_MODEL', oneOf(['off', 'use-lite-en'] as const), 'off') }

  const integrations: IntegrationsConfig = {
    encryptionKeys: read('INTEGRATIONS_ENCRYPTION_KEYS', encryptionKeyList, []),
    approvalTtlSeconds: read('INTEGRATIONS_APPROVAL_TTL_SECONDS', integer(5, 86_400), 600),
    githubApiUrl: read('INTEGRATIONS_GITHUB_API_URL', (raw) => httpUrl(raw).href.replace(/\/+$/, ''), 'https://api.github.com'),
    slackApiUrl: read('INTEGRATIONS_SLACK_API_URL', (raw) => `${httpUrl(raw).href.replace(/\/+$/, '')}/`, 'https://slack.com/api/'),
    linearApiUrl: read('INTEGRATIONS_LINEAR_API_URL', (raw) => httpUrl(raw).href, 'https://api.linear.app/graphql'),
    verifyTimeoutMs: read('INTEGRATIONS_VERIFY_TIMEOUT_MS', integer(100, 60_000), 8000),
    oauth: {},
  }
  for (const [service, defaults] of Object.entries(OAUTH_DEFAULTS)) {
    const prefix = `INTEGRATIONS_${service.toUpperCase()}_`
    const clientId = read(`${prefix}CLIENT_ID`, (raw) => raw, undefined)
    if (!clientId) continue
    integrations.oauth[service] = {
      clientId,
      clientSecret: read(`${prefix}CLIENT_SECRET`, (raw) => raw, ''),
      authorizeUrl: read(`${prefix}AUTHORIZE_URL`, (raw) => httpUrl(raw).href, defaults.authorizeUrl),
      tokenUrl: read(`${prefix}TOKEN_URL`, (raw) => httpUrl(raw).href, defaults.tokenUrl),
      scopes: read(`${prefix}SCOPES`, (raw) => raw, defaults.scopes),
    }
  }

  if (nodeEnv === 'production' && authSecret === undefined) {
    problems.push('AUTH_SECRET: required in production (at least 32 characters)')
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`)
  }
  return {
    nodeEnv, host, port, publicUrl, publicBase: publicUrl.href.replace(/\/+$/, ''), secureCookies: publicUrl.protocol === 'https:', database,
    dataDir, blobStore, blobDir, s3, authSecret, smtpUrl, mailFrom, github, google, oidc,
    trustedOrigins, appScheme, logLevel, rateLimitAccountPerMinute, rateLimitPublicPerMinute,
    shutdownTimeoutMs, requestTimeoutMs, assetTokenTtlSeconds, jobs, speech, llm, extractionQualityGate, extractionEngine, billing, codebases,
    answers, integrations,
  }
}

function oneOf<T extends string>(values: readonly T[]) {
  return (raw: string): T => {
    if (!values.includes(raw as T)) throw new Error(`must be one of ${values.join(', ')}`)
    return raw as T
  }
}

function integer(min: number, max: number) {
  return (raw: string): number => {
    const value = Number(raw)
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      throw new Error(`must be an integer from ${min} to ${max}`)
    }
    return value
  }
}

function minLength(length: number) {
  return (raw: string): string => {
    if (raw.length < length) throw new Error(`must be at least ${length} characters`)
    return raw
  }
}

function httpUrl(raw: string): URL {
  const url = new URL(raw)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http(s) URL')
  url.pathname = url.pathname.replace(/\/+$/, '')
  return url
}

function databaseTarget(raw: string): DatabaseTarget {
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    new URL(raw)
    return { kind: 'postgres', url: raw }
  }
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\//, '')
    if (file === '') throw new Error('sqlite: needs a file path, e.g. sqlite:./data/confer.db')
    return { kind: 'sqlite', path: file === ':memory:' ? file : path.resolve(file) }
  }
  throw new Error('must start with postgres://, postgresql:// or sqlite:')
}

/** `2:<base64 32 bytes>,1:<base64 32 bytes>`: versioned AES-256 keys, newest first after sorting. */
function encryptionKeyList(raw: string): { version: number; key: Buffer }[] {
  const keys = raw.split(',').map((entry) => {
    const match = /^\s*(\d{1,6}):([A-Za-z0-9+/=_-]+)\s*$/.exec(entry)
    if (!match) throw new Error('must be a comma-separated list of <version>:<base64 key>')
    const key = Buffer.from(match[2]!, 'base64')
    if (key.length !== 32) throw new Error(`key version ${match[1]} must be 32 bytes (base64)`)
    return { version: Number(match[1]), key }
  })
  if (new Set(keys.map((entry) => entry.version)).size !== keys.length) throw new Error('each key version may appear once')
  return keys.sort((a, b) => b.version - a.version)
}

function smtpTarget(raw: string): string {
  const url = new URL(raw)
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('must be an smtp:// or smtps:// URL')
  return raw
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]']

/** A PUBLIC_URL on this machine (localhost, 127.0.0.1, [::1]) is as much this server under its other
 * loopback names: a page opened at http://127.0.0.1:8080 may sign in when PUBLIC_URL is http://localhost:8080. */
export function loopbackAliases(publicUrl: URL): string[] {
  if (!LOOPBACK_HOSTS.includes(publicUrl.hostname)) return []
  const port = publicUrl.port ? `:${publicUrl.port}` : ''
  return LOOPBACK_HOSTS.map((host) => `${publicUrl.protocol}//${host}${port}`).filter((origin) => origin !== publicUrl.origin)
}

function originList(raw: string): string[] {
  return raw.split(',').map((item) => item.trim()).filter(Boolean).map((item) => {
    const url = new URL(item)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${item} is not an http(s) origin`)
    return url.origin
  })
}

function scheme(raw: string): string {
  if (!/^[a-z][a-z0-9+.-]*$/.test(raw)) throw new Error('must be a URL scheme such as confer')
  return raw
}

function clientPair(env: Env, prefix: string, problems: string[]) {
  const clientId = env[`${prefix}_CLIENT_ID`]?.trim()
  const clientSecret = env[`${prefix}_CLIENT_SECRET`]?.trim()
  if (!clientId && !clientSecret) return undefined
  if (!clientId || !clientSecret) {
    problems.push(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET: set both or neither`)
    return undefined
  }
  return { clientId, clientSecret }
}

function oidcProvider(env: Env, problems: string[]): OidcProviderConfig | undefined {
  const names = ['OIDC_PROVIDER_ID', 'OIDC_DISCOVERY_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const
  const values = names.map((name) => env[name]?.trim() || undefined)
  if (values.every((value) => value === undefined)) return undefined
  const missing = names.filter((_, index) => values[index] === undefined)
  if (missing.length > 0) {
    problems.push(`${missing.join(', ')}: an OpenID Connect provider needs all of ${names.join(', ')}`)
    return undefined
  }
  const [providerId, discoveryUrl, clientId, clientSecret] = values as string[]
  if (!/^[a-z0-9-]+$/.test(providerId!)) problems.push('OIDC_PROVIDER_ID: lowercase letters, digits and dashes only')
  try {
    httpUrl(discoveryUrl!)
  } catch {
    problems.push('OIDC_DISCOVERY_URL: must be an http(s) URL')
  }
  const name = env.OIDC_PROVIDER_NAME?.trim().slice(0, 60) || providerId!
  return { providerId: providerId!, discoveryUrl: discoveryUrl!, clientId: clientId!, clientSecret: clientSecret!, name }
}

function stripeConfig(env: Env, problems: string[]): StripeConfig | undefined {
  const value = (name: string) => env[name]?.trim() || undefined
  const secretKey = value('STRIPE_SECRET_KEY')
  const others = ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_ID', 'STRIPE_API_BASE'].filter((name) => value(name) !== undefined)
  if (!secretKey) {
    if (others.length > 0) problems.push(`${others.join(', ')}: set STRIPE_SECRET_KEY too, or none of them (billing is off without it)`)
    return undefined
  }
  const webhookSecret = value('STRIPE_WEBHOOK_SECRET')
  const priceId = value('STRIPE_PRICE_ID')
  if (!webhookSecret) problems.push('STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (the endpoint\'s signing secret, whsec_…)')
  if (!priceId) problems.push('STRIPE_PRICE_ID: required with STRIPE_SECRET_KEY (a recurring per-seat price, price_…)')
  let apiBase: URL | undefined
  const rawBase = value('STRIPE_API_BASE')
  if (rawBase) {
    try {
      apiBase = httpUrl(rawBase)
    } catch {
      problems.push('STRIPE_API_BASE: must be an http(s) URL')
    }
  }
  return { secretKey, webhookSecret: webhookSecret ?? '', priceId: priceId ?? '', apiBase }
}

function s3Config(env: Env, problems: string[]): S3Config {
  const value = (name: string) => env[name]?.trim() || undefined
  const bucket = value('S3_BUCKET')
  if (!bucket) problems.push('S3_BUCKET: required when BLOB_STORE is s3')
  let endpoint: string | undefined
  const rawEndpoint = value('S3_ENDPOINT')
  if (rawEndpoint) {
    try {
      endpoint = httpUrl(rawEndpoint).href.replace(/\/+$/, '')
    } catch {
      problems.push('S3_ENDPOINT: must be an http(s) URL')
    }
  }
  const accessKeyId = value('S3_ACCESS_KEY_ID')
  const secretAccessKey = value('S3_SECRET_ACCESS_KEY')
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) problems.push('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither')
  const pathStyle = value('S3_FORCE_PATH_STYLE')
  if (pathStyle !== undefined && !['true', 'false'].includes(pathStyle)) problems.push('S3_FORCE_PATH_STYLE: must be true or false')
  const prefix = value('S3_PREFIX') ?? ''
  if (prefix && !/^[A-Za-z0-9_-][A-Za-z0-9_.\/-]*\/$/.test(prefix)) problems.push('S3_PREFIX: letters, digits, _.-/ and ending in /')
  return {
    endpoint, bucket: bucket ?? '', region: value('S3_REGION') ?? 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === undefined ? endpoint !== undefined : pathStyle === 'true',
    prefix,
  }
}
