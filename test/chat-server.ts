// A chat completions server speaking OpenAI's protocol (POST /v1/chat/completions with
// response_format json_schema) for tests of grounded-ai features; each test sets `reply`.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ChatRequest = { model: string; messages: { role: string; content: string }[]; response_format: { type: string; json_schema?: { name: string } } }
export type ChatReply = { status: number; content?: string }

export function chatServer() {
  let reply: (request: ChatRequest) => ChatReply | Promise<ChatReply> = () => ({ status: 500 })
  const requests: ChatRequest[] = []
  const server = createServer(async (request, response) => {
    let body = ''
    for await (const chunk of request) body += chunk
    const parsed = JSON.parse(body) as ChatRequest
    requests.push(parsed)
    const answer = request.url === '/v1/chat/completions' && parsed.response_format.type === 'json_schema' ? await reply(parsed) : { status: 404 }
    response.writeHead(answer.status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(answer.content === undefined ? { error: { message: 'no' } } : {
      id: 'chatcmpl-1', object: 'chat.completion', model: parsed.model,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer.content } }],
    }))
  })
  return {
    requests,
    set reply(next: (request: ChatRequest) => ChatReply | Promise<ChatReply>) { reply = next },
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  }
}
