// The protocol of one realtime socket (docs/realtime.md): hello on connect, log events as
// {type, seq, at, data}, ping/pong, client messages dispatched to handlers, `error` for bad
// messages without closing, and a close (1008) when bad messages keep coming.
import type { WebSocket } from 'ws'
import type { Actor, Membership } from '../auth/actor.ts'
import type { Hub } from './hub.ts'
import type { EventChannel, RealtimeEvent } from './types.ts'

export const CLOSE_POLICY = 1008
export const MAX_MESSAGE_BYTES = 64 * 1024
const MALFORMED_LIMIT = 20
const MALFORMED_WINDOW_MS = 10_000
const HEARTBEAT_MS = 30_000

export type ClientMessage = { type: string; id?: string; data?: unknown }

/** Handles one client message type; throw a SocketError to answer with an `error` message. */
export type MessageHandler = (message: ClientMessage) => Promise<void> | void

export class SocketError extends Error {
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.code = code
  }
}

/**
 * The member behind a socket upgrade, or undefined after closing it with 1008: an untrusted
 * `Origin` (cross-site WebSocket hijacking), no session, or no active workspace.
 */
export function socketMember(socket: WebSocket, origin: string | undefined, trusted: Set<string>, actor: Actor | null | undefined) {
  if (origin && !trusted.has(origin)) return void socket.close(CLOSE_POLICY, 'untrusted origin')
  if (!actor?.membership) return void socket.close(CLOSE_POLICY, actor ? 'no active workspace' : 'authentication required')
  return actor as Actor & { membership: Membership }
}

// The hub hands the same event object to every subscriber: its envelope is serialized once, not
// once per socket (1,000 sockets on a conversation would otherwise stringify it 1,000 times).
const envelopes = new WeakMap<RealtimeEvent, string>()
const envelopeOf = (event: RealtimeEvent) => {
  let text = envelopes.get(event)
  if (text === undefined) {
    text = JSON.stringify({ type: event.type, seq: event.seq, at: event.at, data: event.data })
    envelopes.set(event, text)
  }
  return text
}

export type SocketSession = {
  conversationId: string
  afterSeq: number
  channel: EventChannel | 'all'
  handlers: Record<string, MessageHandler>
  onClose?: () => void
}

export async function runSocket(socket: WebSocket, hub: Hub, session: SocketSession) {
  const sendJson = (message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message))
  }
  const malformed: number[] = []
  const reject = (code: string, message: string, id?: string) => {
    sendJson({ type: 'error', at: new Date().toISOString(), data: { code, message, ...(id ? { replyTo: id } : {}) } })
  }
  const countMalformed = () => {
    const now = Date.now()
    malformed.push(now)
    while (malformed.length > 0 && malformed[0]! < now - MALFORMED_WINDOW_MS) malformed.shift()
    if (malformed.length > MALFORMED_LIMIT) socket.close(CLOSE_POLICY, 'too many malformed messages')
  }

  // Messages that arrive during replay are handled in order after it.
  let ready: Promise<void> = Promise.resolve()
  socket.on('message', (raw, isBinary) => {
    ready = ready.then(() => handle(raw.toString(), isBinary))
  })

  const handle = async (text: string, isBinary: boolean) => {
    let message: ClientMessage
    try {
      const parsed: unknown = isBinary ? undefined : JSON.parse(text)
      if (!parsed || typeof parsed !== 'object' || typeof (parsed as ClientMessage).type !== 'string') throw new Error('shape')
      message = parsed as ClientMessage
    } catch {
      countMalformed()
      return reject('malformed_message', 'Messages are JSON objects with a string `type`.')
    }
    if (message.type === 'ping') return sendJson({ type: 'pong', at: new Date().toISOString(), ...(message.id ? { data: { replyTo: message.id } } : {}) })
    const handler = session.handlers[message.type]
    if (!handler) {
      countMalformed()
      return reject('unknown_message_type', `Unknown message type ${message.type}.`, message.id)
    }
    try {
      await handler(message)
    } catch (error) {
      if (error instanceof SocketError) return reject(error.code, error.message, message.id)
      const status = (error as { statusCode?: number }).statusCode
      const code = (error as { code?: string }).code
      if (status && status < 500 && code) return reject(code, (error as Error).message, message.id)
      return reject('internal_error', 'The server failed to handle this message.', message.id)
    }
  }

  let alive = true
  socket.on('pong', () => {
    alive = true
  })
  const heartbeat = setInterval(() => {
    if (!alive) return socket.terminate()
    alive = false
    socket.ping()
  }, HEARTBEAT_MS)
  heartbeat.unref()

  let unsubscribe: (() => void) | undefined
  let closed = false
  socket.on('close', () => {
    closed = true
    clearInterval(heartbeat)
    unsubscribe?.()
    session.onClose?.()
  })

  sendJson({
    type: 'hello',
    at: new Date().toISOString(),
    data: { conversationId: session.conversationId, channel: session.channel, afterSeq: session.afterSeq },
  })
  let replay!: () => void
  const replayed = new Promise<void>((resolve) => {
    replay = resolve
  })
  ready = ready.then(() => replayed)
  const stop = await hub.subscribe(session.conversationId, session.afterSeq, {
    channel: session.channel,
    send: (event: RealtimeEvent) => {
      if (socket.readyState === socket.OPEN) socket.send(envelopeOf(event))
    },
  })
  replay()
  if (closed) stop()
  else unsubscribe = stop
}
