// A realtime stream (docs/realtime.md): connects, keeps the highest `seq` it has seen and
// reconnects with `afterSeq` after any drop, so each logged event is handled exactly once.
export type RealtimeEvent = { type: string; seq?: number; at?: string; data: any }

export type StreamOptions = {
  /** path under /api, e.g. /v1/conversations/cnv_1/events?channel=work */
  path: string
  afterSeq?: number
  onEvent: (event: RealtimeEvent) => void
  onStatus?: (connected: boolean) => void
}

export function socketUrl(path: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${location.host}/api${path}`
}

export function openStream(options: StreamOptions): () => void {
  let lastSeq = options.afterSeq ?? 0
  let socket: WebSocket | undefined
  let closed = false
  let attempt = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  const connect = () => {
    if (closed) return
    const separator = options.path.includes('?') ? '&' : '?'
    socket = new WebSocket(socketUrl(`${options.path}${separator}afterSeq=${lastSeq}`))
    socket.onopen = () => { attempt = 0; options.onStatus?.(true) }
    socket.onmessage = (message) => {
      let event: RealtimeEvent
      try { event = JSON.parse(String(message.data)) as RealtimeEvent } catch { return }
      if (event.seq !== undefined) {
        if (event.seq <= lastSeq) return
        lastSeq = event.seq
      }
      options.onEvent(event)
    }
    socket.onclose = (close) => {
      options.onStatus?.(false)
      if (closed || close.code === 1008) return
      attempt += 1
      timer = setTimeout(connect, Math.min(10_000, 250 * 2 ** Math.min(attempt, 6)))
    }
  }
  const reconnectNow = () => { if (socket?.readyState === WebSocket.CLOSED) { clearTimeout(timer); connect() } }
  window.addEventListener('online', reconnectNow)
  connect()
  return () => {
    closed = true
    clearTimeout(timer)
    window.removeEventListener('online', reconnectNow)
    socket?.close()
  }
}
