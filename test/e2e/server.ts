// End-to-end helpers: the real server process (`node src/main.ts serve`) on a free port and a
// test database, and an in-process SMTP server that catches the mail it sends.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { SMTPServer } from 'smtp-server'
import { TEST_SECRET } from '../harness.ts'
import { createTestDatabase, tempDir, type TestDatabase, type TestDatabaseKind } from '../databases.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const NODE_24 = Number(process.versions.node.split('.')[0]) >= 24 ? process.execPath : path.join(ROOT, 'node_modules/.bin/node')
/** Settings of the parent's environment that must not leak into the server under test. */
const CONFIG_NAMES = /^(NODE_ENV|PORT|HOST|PUBLIC_URL|DATABASE_URL|DATA_DIR|BLOB_|AUTH_SECRET|SMTP_URL|MAIL_FROM|GITHUB_|GOOGLE_|OIDC_|TRUSTED_ORIGINS|APP_SCHEME|LOG_LEVEL|RATE_LIMIT_|SHUTDOWN_TIMEOUT_MS|ASSET_TOKEN_TTL_SECONDS|STT_|WHISPER_|POCKETSPHINX_|FFMPEG_|WORKERS|JOB_|STRIPE_|BILLING_)/

export type RunningServer = {
  baseUrl: string
  port: number
  process: ChildProcess
  database: TestDatabase
  /** the exit code once the process has ended (null while it runs or when killed by a signal) */
  exited: Promise<number | null>
  /** what the server wrote to stdout and stderr, for failure messages */
  output(): string
  /** SIGTERM (SIGKILL after 10 s) unless it already exited, then drops the test database */
  stop(): Promise<void>
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no port was assigned')
  return address.port
}

/**
 * `shared`: a database another server already uses (cluster tests); it is then left in place by
 * stop(), and the caller drops it.
 */
export async function startServer(kind: TestDatabaseKind, env: Record<string, string> = {}, shared?: TestDatabase): Promise<RunningServer> {
  const database = shared ?? await createTestDatabase(kind)
  // The free port is found, then handed to the child: another process may take it in between (EADDRINUSE); try another.
  for (let attempt = 1; ; attempt += 1) {
    try {
      const running = await startOn(await freePort(), database, env)
      if (!shared) running.stop = dropping(running.stop, database)
      return running
    } catch (error) {
      if (attempt < 3 && /EADDRINUSE/.test((error as Error).message)) continue
      if (!shared) await database.drop()
      throw error
    }
  }
}

const dropping = (stop: () => Promise<void>, database: TestDatabase) => async () => {
  await stop()
  await database.drop()
}

async function startOn(port: number, database: TestDatabase, env: Record<string, string>): Promise<RunningServer> {
  const baseUrl = `http://127.0.0.1:${port}`
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_NAMES.test(name)))
  const child = spawn(NODE_24, ['src/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATABASE_URL: database.url,
      DATA_DIR: tempDir('confer-e2e-'),
      AUTH_SECRET: TEST_SECRET,
      LOG_LEVEL: 'warn',
      STT_ENGINE: 'client',
      // No test reaches a real provider: connecting checks a credential with the provider (a closed
      // local port answers at once); tests that need one point these at its stand-in.
      INTEGRATIONS_GITHUB_API_URL: 'http://127.0.0.1:9',
      INTEGRATIONS_SLACK_API_URL: 'http://127.0.0.1:9/api',
      INTEGRATIONS_LINEAR_API_URL: 'http://127.0.0.1:9/graphql',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString() })
  // 'close' comes after the output streams have ended, so output() is complete by then.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))

  const running: RunningServer = {
    baseUrl, port, process: child, database, exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        await exited
        clearTimeout(killer)
      }
    },
  }
  try {
    await waitForHealth(baseUrl, exited)
  } catch (error) {
    await running.stop()
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`)
  }
  return running
}

async function waitForHealth(baseUrl: string, exited: Promise<number | null>, timeoutMs = 20_000) {
  let hasExited = false
  void exited.then(() => { hasExited = true })
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (hasExited) throw new Error(`the server exited (code ${await exited}) before it became healthy`)
    try {
      const response = await fetch(`${baseUrl}/healthz`)
      if (response.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`the server did not answer /healthz within ${timeoutMs} ms`)
}

export type CaughtMail = { from: string; to: string[]; raw: string }

export type MailCatcher = {
  url: string
  messages: CaughtMail[]
  /** the 6-digit code of the newest message to `email` (waits for it to arrive) */
  codeFor(email: string, after?: number): Promise<string>
  close(): Promise<void>
}

/** An SMTP server on 127.0.0.1 that accepts any message (no auth, no TLS) and keeps it. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async codeFor(email, after = 0) {
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const message = messages.slice(after).reverse().find((item) => item.to.includes(email))
        const code = message?.raw.match(/code is (\d+)/)?.[1]
        if (code) return code
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      throw new Error(`no sign-in code was mailed to ${email}`)
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * Signs `email` in with plain fetch through the mailed code, as the web app on PUBLIC_URL would;
 * returns the `name=value` session cookie.
 */
/** A JSON call to the server as the holder of `cookie`; anything but 200 throws with the answer. */
export async function callJson(server: RunningServer, method: string, path: string, cookie: string, body?: unknown): Promise<any> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method, headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = await response.json() as any
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json
}

export async function signInOverHttp(server: RunningServer, mail: MailCatcher, email: string): Promise<string> {
  // Node's fetch sends Sec-Fetch-Mode like a browser, so better-auth wants the Origin a browser sends too.
  const origin = { origin: server.baseUrl }
  const seen = mail.messages.length
  const sent = await postJson(`${server.baseUrl}/api/auth/email-otp/send-verification-otp`, { email, type: 'sign-in' }, origin)
  if (sent.status !== 200) throw new Error(`send code failed: ${sent.status} ${await sent.text()}`)
  const otp = await mail.codeFor(email, seen)
  const signedIn = await postJson(`${server.baseUrl}/api/auth/sign-in/email-otp`, { email, otp }, origin)
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`)
  const session = signedIn.headers.getSetCookie().find((cookie) => /session_token=/.test(cookie))
  if (!session) throw new Error('sign-in set no session cookie')
  return session.split(';')[0]!
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
}
