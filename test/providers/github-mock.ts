// GitHub's published REST description (@octokit/openapi), trimmed to the operations Confer uses,
// served by a validating Prism mock (`--errors`: a request the description rejects gets 422 with
// `sl-violations`), behind a recording proxy so a test can count what reached the "provider".
// Fixes applied to the description (STACK.md): `nullable` without a type becomes anyOf with null
// (Ajv refuses it and Prism would then skip body validation), example `value: {$ref}` wrappers
// are inlined. The proxy can also hold matching requests forever (a call in flight when a server dies).
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { tempDir } from '../databases.ts'

export const GITHUB_OPERATIONS = [
  'issues/create', 'issues/list-labels-for-repo', 'issues/list-assignees', 'repos/list-for-authenticated-user',
  'issues/list-for-repo', 'search/issues-and-pull-requests', 'users/get-authenticated',
]

type Json = any

export function trimmedGithubDescription(operations = GITHUB_OPERATIONS): Json {
  const full = JSON.parse(readFileSync(path.resolve('node_modules/@octokit/openapi/generated/api.github.com.json'), 'utf8'))
  const paths: Json = {}
  for (const [route, item] of Object.entries<Json>(full.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (!operations.includes(operation?.operationId)) continue
      paths[route] ??= {}
      paths[route][method] = operation
      if (item.parameters) paths[route].parameters = item.parameters
    }
  }
  const components: Json = {}
  const resolve = (ref: string) => ref.replace(/^#\//, '').split('/').reduce((node: Json, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], full)
  const seen = new Set<string>()
  const visit = (node: Json) => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/components/') && !seen.has(node.$ref)) {
      seen.add(node.$ref)
      const [, , kind, name] = node.$ref.split('/')
      components[kind] ??= {}
      components[kind][name] = resolve(node.$ref)
      visit(components[kind][name])
    }
    Object.values(node).forEach(visit)
  }
  visit(paths)
  const fix = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(fix)
    if (!node || typeof node !== 'object') return node
    const out: Json = {}
    for (const [key, value] of Object.entries<Json>(node)) {
      if (key === 'examples' && value && typeof value === 'object' && !Array.isArray(value)) {
        out.examples = Object.fromEntries(Object.entries<Json>(value).map(([name, example]) =>
          [name, example?.value?.$ref ? fix(resolve(example.value.$ref)) : fix(example)]))
      } else out[key] = fix(value)
    }
    if (out.nullable === true && out.type === undefined) {
      delete out.nullable
      return { anyOf: [out, { type: 'null' }] }
    }
    return out
  }
  return { openapi: full.openapi, info: full.info, servers: [{ url: 'https://api.github.com' }], paths: fix(paths), components: fix(components) }
}

export type Seen = { method: string; path: string; status: number; violations?: string; body: string }

export type GithubMock = {
  url: string
  seen: Seen[]
  /** requests for which this answers true are held open and never forwarded */
  hold: ((method: string, path: string) => boolean) | undefined
  held: number
  /** when set, a request with another token is refused as GitHub refuses one: 401 "Bad credentials" */
  acceptedToken: string | undefined
  close(): Promise<void>
}

const freePort = () => new Promise<number>((resolve) => {
  const server = createServer()
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resolve(port))
  })
})

async function waitFor(url: string, child: ChildProcess) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}`)
    try {
      await fetch(url)
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  throw new Error('prism did not start')
}

const readBody = (stream: IncomingMessage) => new Promise<Buffer>((resolve) => {
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  stream.on('end', () => resolve(Buffer.concat(chunks)))
})

export async function startGithubMock(): Promise<GithubMock> {
  const file = path.join(tempDir('github-mock-'), 'github.json')
  writeFileSync(file, JSON.stringify(trimmedGithubDescription()))
  const prismPort = await freePort()
  const prism = spawn(path.resolve('node_modules/.bin/prism'), ['mock', file, '--errors', '-h', '127.0.0.1', '-p', String(prismPort)], { stdio: 'ignore' })
  await waitFor(`http://127.0.0.1:${prismPort}/`, prism)
  const held: IncomingMessage[] = []
  const mock: GithubMock = {
    url: '', seen: [], hold: undefined, acceptedToken: undefined, get held() { return held.length },
    async close() {
      for (const request of held) request.socket.destroy()
      await new Promise<void>((resolve) => { proxy.close(() => resolve()); proxy.closeAllConnections() })
      prism.kill('SIGTERM')
    },
  }
  const proxy: Server = createServer(async (incoming, outgoing) => {
    const body = await readBody(incoming)
    if (mock.hold?.(incoming.method!, incoming.url!)) {
      held.push(incoming)
      return
    }
    const token = (incoming.headers.authorization ?? '').replace(/^(token|bearer)\s+/i, '')
    if (mock.acceptedToken !== undefined && token !== mock.acceptedToken) {
      // GitHub's documented answer to a token it does not accept (REST "Troubleshooting": 401 Bad credentials).
      mock.seen.push({ method: incoming.method!, path: incoming.url!, status: 401, body: body.toString('utf8') })
      outgoing.writeHead(401, { 'content-type': 'application/json; charset=utf-8' })
      outgoing.end(JSON.stringify({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' }))
      return
    }
    const forwarded = httpRequest({ host: '127.0.0.1', port: prismPort, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: `127.0.0.1:${prismPort}` } }, async (answer) => {
      const answerBody = await readBody(answer)
      const violations = answer.headers['sl-violations']
      mock.seen.push({ method: incoming.method!, path: incoming.url!, status: answer.statusCode!, body: body.toString('utf8'), ...(typeof violations === 'string' ? { violations } : {}) })
      outgoing.writeHead(answer.statusCode!, answer.headers)
      outgoing.end(answerBody)
    })
    forwarded.on('error', () => outgoing.destroy())
    forwarded.end(body)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()))
  mock.url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  return mock
}
