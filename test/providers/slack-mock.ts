// A Slack Web API mock that validates each call against a hand-written description of the methods
// Confer uses (test/providers/slack-api.ts, written from Slack's Web API reference): the method must
// be described, every required argument present, every argument described and of its type and
// allowed values, and the token sent as `Authorization: Bearer`. Methods the reference lists as GET
// accept the SDK's form-encoded POST, as Slack does. Like real Slack it answers failures as HTTP 200
// `{ok: false, error}`, and 429 with Retry-After when told to.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { slackApi, type SlackMethod } from './slack-api.ts'

export type SlackCall = { method: string; params: Record<string, string>; ok: boolean; error?: string }

export type SlackMock = {
  url: string
  token: string
  calls: SlackCall[]
  channels: { id: string; name: string }[]
  /** the next calls of a method answer 429 */
  rateLimit: Map<string, number>
  close(): Promise<void>
}

function violations(description: SlackMethod, params: Record<string, string>): string[] {
  const problems: string[] = []
  for (const [name, argument] of Object.entries(description.arguments)) {
    const value = params[name]
    if (value === undefined) {
      if (argument.required) problems.push(`missing ${name}`)
      continue
    }
    if (argument.type === 'boolean' && !['true', 'false', '1', '0'].includes(value)) problems.push(`${name} must be boolean`)
    if (argument.type === 'integer' && !/^-?\d+$/.test(value)) problems.push(`${name} must be integer`)
    if (argument.maximum !== undefined && Number(value) > argument.maximum) problems.push(`${name} must be at most ${argument.maximum}`)
    if (argument.listOf) for (const item of value.split(',')) if (!argument.listOf.includes(item.trim())) problems.push(`${name}: unknown value ${item}`)
  }
  if (description.oneOf && !description.oneOf.some((name) => params[name] !== undefined)) problems.push(`one of ${description.oneOf.join(', ')} is required`)
  for (const name of Object.keys(params)) if (!(name in description.arguments)) problems.push(`unknown ${name}`)
  return problems
}

export async function startSlackMock(): Promise<SlackMock> {
  const mock: SlackMock = {
    url: '', token: 'xoxb-test-token', calls: [], rateLimit: new Map(),
    channels: Array.from({ length: 250 }, (_, index) => ({ id: `C${String(index).padStart(8, '0')}`, name: index === 7 ? 'launch-decisions' : `channel-${index}` })),
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections() }),
  }
  const server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => { body += chunk.toString() })
    request.on('end', () => {
      const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0]!
      const url = new URL(request.url ?? '/', 'http://mock')
      const params: Record<string, string> = Object.fromEntries(url.searchParams)
      const type = request.headers['content-type'] ?? ''
      if (type.startsWith('application/json')) Object.assign(params, Object.fromEntries(Object.entries(JSON.parse(body || '{}')).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])))
      else Object.assign(params, Object.fromEntries(new URLSearchParams(body)))
      const reply = (json: Record<string, unknown>, status = 200, headers: Record<string, string> = {}) => {
        mock.calls.push({ method, params, ok: json.ok === true, ...(typeof json.error === 'string' ? { error: json.error } : {}) })
        response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(json))
      }
      const description = Object.hasOwn(slackApi, method) ? slackApi[method] : undefined
      if (!description) return reply({ ok: false, error: 'unknown_method' })
      if (request.headers.authorization !== `Bearer ${mock.token}`) return reply({ ok: false, error: 'invalid_auth' })
      const limited = mock.rateLimit.get(method) ?? 0
      if (limited > 0) {
        mock.rateLimit.set(method, limited - 1)
        return reply({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': '1' })
      }
      const problems = violations(description, params)
      if (problems.length > 0) return reply({ ok: false, error: 'invalid_arguments', response_metadata: { messages: problems } })
      if (method === 'auth.test') {
        return reply({ ok: true, url: 'https://confer-test.slack.com/', team: 'Confer Test', user: 'confer', team_id: 'T00000001', user_id: 'U00000001', bot_id: 'B00000001' })
      }
      if (method === 'chat.postMessage') {
        return reply({ ok: true, channel: params.channel, ts: `${Math.floor(Date.now() / 1000)}.${String(mock.calls.length).padStart(6, '0')}`, message: { text: params.text, type: 'message' } })
      }
      const limit = Number(params.limit ?? 100)
      const start = params.cursor ? Number(Buffer.from(params.cursor, 'base64').toString()) : 0
      const page = mock.channels.slice(start, start + limit)
      const next = start + limit < mock.channels.length ? Buffer.from(String(start + limit)).toString('base64') : ''
      return reply({ ok: true, channels: page.map((channel) => ({ ...channel, is_channel: true, is_archived: false })), response_metadata: { next_cursor: next } })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return mock
}
