// A Standard Webhooks receiver for tests: verifies each delivery with the `standardwebhooks`
// library, records it, and answers per path from a script (status and headers, consumed in order;
// then 200), so a test can play a provider that answers 429 with Retry-After.
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export type Delivery = { path: string; id: string; verified: boolean; status: number; at: number; payload?: { type: string; data: Record<string, unknown> } }
export type Answer = { status: number; headers?: Record<string, string> }

export type WebhookReceiver = {
  url: string
  signingSecret: string
  deliveries: Delivery[]
  script: Map<string, Answer[]>
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const signingSecret = `whsec_${randomBytes(32).toString('base64')}`
  const deliveries: Delivery[] = []
  const script = new Map<string, Answer[]>()
  const server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => { body += chunk.toString() })
    request.on('end', () => {
      let payload: Delivery['payload']
      let verified = false
      try {
        payload = new Webhook(signingSecret).verify(body, request.headers as Record<string, string>) as Delivery['payload']
        verified = true
      } catch {
        verified = false
      }
      const answer = verified ? script.get(request.url!)?.shift() ?? { status: 200 } : { status: 401 }
      deliveries.push({ path: request.url!, id: String(request.headers['webhook-id']), verified, status: answer.status, at: Date.now(), ...(payload ? { payload } : {}) })
      response.writeHead(answer.status, answer.headers ?? {}).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    signingSecret, deliveries, script,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
