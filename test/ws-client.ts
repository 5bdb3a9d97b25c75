// A WebSocket test client that records every message and can wait for one.
import WebSocket from 'ws'

export type Message = { type: string; seq?: number; at?: string; data?: any }

export type TestSocket = {
  socket: WebSocket
  messages: Message[]
  /** resolves with the close code and reason */
  closed: Promise<{ code: number; reason: string }>
  waitFor(predicate: (message: Message) => boolean, timeoutMs?: number): Promise<Message>
  send(message: unknown): void
  close(): Promise<void>
}

export function connectSocket(url: string, headers: Record<string, string> = {}): TestSocket {
  const socket = new WebSocket(url, { headers })
  const messages: Message[] = []
  const waiters = new Set<() => void>()
  socket.on('message', (raw) => {
    messages.push(JSON.parse(raw.toString()) as Message)
    for (const wake of waiters) wake()
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() })
      for (const wake of waiters) wake()
    })
    socket.on('error', () => {})
  })
  return {
    socket,
    messages,
    closed,
    waitFor(predicate, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate)
          if (found) {
            cleanup()
            resolve(found)
          } else if (socket.readyState === WebSocket.CLOSED) {
            cleanup()
            reject(new Error(`socket closed before the expected message; got ${JSON.stringify(messages.map((m) => m.type))}`))
          }
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`timed out; got ${JSON.stringify(messages.map((m) => [m.type, m.seq]))}`))
        }, timeoutMs)
        const cleanup = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        check()
      })
    },
    send(message) {
      socket.send(typeof message === 'string' ? message : JSON.stringify(message))
    },
    async close() {
      if (socket.readyState !== WebSocket.CLOSED) {
        socket.close()
        await closed
      }
    },
  }
}
