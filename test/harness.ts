// Builds the real app on a test database and signs people in through the real email-code flow.
// eachDatabase() runs a suite on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL.
import { randomBytes } from 'node:crypto'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe } from 'vitest'
import { buildApp, type App } from '../src/app.ts'
import { loadConfig, type Config } from '../src/config.ts'
import { openDatabase, type Database } from '../src/platform/db/index.ts'
import { createTestDatabase, databaseKinds, postgresUrl, tempDir, type TestDatabase, type TestDatabaseKind } from './databases.ts'

export const TEST_SECRET = 'test-secret-that-is-at-least-32-characters-long'

export type HarnessOptions = {
  env?: Record<string, string>
  /** register extra (test-only) routes before the app is ready */
  setup?: (app: App) => void | Promise<void>
}

export type Client = {
  cookie: string | undefined
  email: string
  request(method: InjectOptions['method'], url: string, options?: Omit<InjectOptions, 'method' | 'url'>): Promise<LightMyRequestResponse>
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>
  patch(url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>
  put(url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>
  delete(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>
}

export type Member = Client & { accountId: string; workspaceId: string }

export type Harness = {
  kind: TestDatabaseKind
  app: App
  config: Config
  database: Database
  testDatabase: TestDatabase
  anonymous: Client
  uniqueEmail(label?: string): string
  /** the newest sign-in code mailed to `email` (waits for the outbox row) */
  latestCode(email: string): Promise<string>
  sendCode(email: string): Promise<LightMyRequestResponse>
  signIn(email?: string): Promise<Client>
  /** signs a new person in and bootstraps their own workspace */
  member(email?: string): Promise<Member>
  close(): Promise<void>
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    AUTH_SECRET: TEST_SECRET,
    DATA_DIR: tempDir(),
    PUBLIC_URL: 'http://localhost:8080',
    RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000000',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
    // Tests that need an engine ask for one; the rest must not transcribe their made-up audio.
    STT_ENGINE: 'client',
    // No test reaches a real provider: connecting checks a credential with the provider (a closed
    // local port answers at once); tests that need one point these at its stand-in.
    INTEGRATIONS_GITHUB_API_URL: 'http://127.0.0.1:9',
    INTEGRATIONS_SLACK_API_URL: 'http://127.0.0.1:9/api',
    INTEGRATIONS_LINEAR_API_URL: 'http://127.0.0.1:9/graphql',
    ...env,
  })
}

export async function createHarness(kind: TestDatabaseKind, options: HarnessOptions = {}): Promise<Harness> {
  const testDatabase = await createTestDatabase(kind)
  const config = testConfig(options.env)
  const database = openDatabase(testDatabase.target)
  const app = await buildApp(config, { database })
  await options.setup?.(app)
  await app.ready()

  const client = (cookie: string | undefined, email = ''): Client => {
    const request: Client['request'] = (method, url, extra = {}) => app.inject({
      method, url, ...extra,
      headers: { ...(cookie ? { cookie } : {}), ...(extra.headers as Record<string, string> | undefined) },
    })
    const withBody = (method: 'POST' | 'PATCH' | 'PUT') => (url: string, body?: unknown, headers?: Record<string, string>) =>
      request(method, url, body === undefined ? { headers } : { payload: body as InjectOptions['payload'], headers })
    return {
      cookie, email, request,
      get: (url, headers) => request('GET', url, { headers }),
      delete: (url, headers) => request('DELETE', url, { headers }),
      post: withBody('POST'), patch: withBody('PATCH'), put: withBody('PUT'),
    }
  }

  const harness: Harness = {
    kind, app, config, database, testDatabase,
    anonymous: client(undefined),
    uniqueEmail: (label = 'person') => `${label}-${randomBytes(5).toString('hex')}@example.com`,
    sendCode: (email) => app.inject({
      method: 'POST', url: '/api/auth/email-otp/send-verification-otp', payload: { email, type: 'sign-in' },
    }),
    async latestCode(email) {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const row = await database.db.selectFrom('mail_outbox').select('body_text')
          .where('to_address', '=', email).orderBy('id', 'desc').executeTakeFirst()
        const code = row?.body_text?.match(/code is (\d+)/)?.[1]
        if (code) return code
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      throw new Error(`no sign-in code reached the outbox for ${email}`)
    },
    async signIn(email = harness.uniqueEmail()) {
      await database.db.deleteFrom('mail_outbox').where('to_address', '=', email).execute()
      const sent = await harness.sendCode(email)
      if (sent.statusCode !== 200) throw new Error(`send code failed: ${sent.statusCode} ${sent.body}`)
      const otp = await harness.latestCode(email)
      const signedIn = await app.inject({ method: 'POST', url: '/api/auth/sign-in/email-otp', payload: { email, otp } })
      if (signedIn.statusCode !== 200) throw new Error(`sign-in failed: ${signedIn.statusCode} ${signedIn.body}`)
      return client(sessionCookie(signedIn), email)
    },
    async member(email) {
      const person = await harness.signIn(email)
      const boot = await person.post('/v1/account/bootstrap', {})
      if (boot.statusCode !== 200) throw new Error(`bootstrap failed: ${boot.statusCode} ${boot.body}`)
      const body = boot.json()
      return { ...person, accountId: body.account.id, workspaceId: body.workspace.id }
    },
    async close() {
      await app.close()
      await database.close()
      await testDatabase.drop()
    },
  }
  return harness
}

/** `name=value` of the session cookie a sign-in response set. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie']
  const cookies = Array.isArray(header) ? header : header ? [header] : []
  const session = cookies.find((cookie) => /session_token=/.test(cookie))
  if (!session) throw new Error('no session cookie was set')
  return session.split(';')[0]!
}

export function eachDatabase(title: string, body: (h: Harness) => void, options: HarnessOptions = {}) {
  describe.each(databaseKinds)(`${title} [%s]`, (kind) => {
    const h = {} as Harness
    beforeAll(async () => {
      Object.assign(h, await createHarness(kind, options))
    })
    afterAll(async () => {
      await h.close?.()
    })
    body(h)
  })
  if (!postgresUrl) describe.skip(`${title} [postgres: TEST_DATABASE_URL not set]`, () => body({} as Harness))
}
