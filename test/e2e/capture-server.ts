// Real processes for the capture end-to-end tests: `confer serve` or `confer worker` on a database
// and data directory the test owns, so that a server can be killed and started again on the same
// data, and several nodes can share one database.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { TEST_SECRET } from '../harness.ts'
import { freePort } from './server.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const NODE_24 = Number(process.versions.node.split('.')[0]) >= 24 ? process.execPath : path.join(ROOT, 'node_modules/.bin/node')
const CONFIG_NAMES = /^(NODE_ENV|PORT|HOST|PUBLIC_URL|DATABASE_URL|DATA_DIR|BLOB_|AUTH_SECRET|SMTP_URL|MAIL_FROM|GITHUB_|GOOGLE_|OIDC_|TRUSTED_ORIGINS|APP_SCHEME|LOG_LEVEL|RATE_LIMIT_|SHUTDOWN_TIMEOUT_MS|ASSET_TOKEN_TTL_SECONDS|WORKERS|JOB_|STT_|WHISPER_|POCKETSPHINX_|FFMPEG_|INTEGRATIONS_|LLM_|EXTRACTION_)/

export type Node = {
  command: 'serve' | 'worker'
  baseUrl: string
  process: ChildProcess
  /** resolves with the exit code, or the signal that ended the process */
  exited: Promise<number | string | null>
  output(): string
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process has ended */
  stop(): Promise<number | string | null>
}

export type NodeOptions = {
  command?: 'serve' | 'worker'
  databaseUrl: string
  dataDir: string
  env?: Record<string, string>
}

export async function startNode(options: NodeOptions): Promise<Node> {
  const command = options.command ?? 'serve'
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_NAMES.test(name)))
  const child = spawn(NODE_24, ['src/main.ts', command], {
    cwd: ROOT,
    env: {
      ...inherited, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: baseUrl,
      DATABASE_URL: options.databaseUrl, DATA_DIR: options.dataDir, AUTH_SECRET: TEST_SECRET,
      // a worker says it started at info level; servers are quiet unless something goes wrong
      LOG_LEVEL: command === 'worker' ? 'info' : 'warn',
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000000', STT_ENGINE: 'client', ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const exited = new Promise<number | string | null>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal)))
  const node: Node = {
    command, baseUrl, process: child, exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        const result = await exited
        clearTimeout(killer)
        return result
      }
      return exited
    },
  }
  try {
    if (command === 'serve') await waitForHealth(baseUrl, child)
    else await waitForOutput(node, /worker started/, child)
  } catch (error) {
    await node.stop()
    throw new Error(`${(error as Error).message}\n--- output ---\n${output}`)
  }
  return node
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it became healthy`)
    try {
      if ((await fetch(`${baseUrl}/healthz`)).status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no healthy /healthz within ${timeoutMs} ms`)
}

async function waitForOutput(node: Node, pattern: RegExp, child: ChildProcess, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  while (!pattern.test(node.output())) {
    if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}`)
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** JSON request with the session cookie (and the Origin a browser would send for a POST). */
export async function call(node: Node, cookie: string, method: string, route: string, body?: unknown) {
  const response = await fetch(node.baseUrl + route, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined }
}
