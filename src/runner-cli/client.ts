// The runner's HTTP calls to the Confer server (fetch, JSON, `Authorization: Bearer`). The server
// URL may carry a path (a web origin's `/api`): routes are appended to it.
export type Answer = { status: number; body: Record<string, any> }

export class ServerUnreachable extends Error {}

export async function call(server: string, method: string, route: string, token: string | undefined, body?: unknown, timeoutMs = 60_000, signal?: AbortSignal): Promise<Answer> {
  let response: Response
  try {
    response = await fetch(`${server.replace(/\/+$/, '')}${route}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    throw new ServerUnreachable(`${method} ${route}: ${(error as Error).message}`)
  }
  const text = await response.text()
  let parsed: Record<string, any> = {}
  try {
    parsed = text ? JSON.parse(text) : {}
  } catch {
    parsed = { detail: text }
  }
  return { status: response.status, body: parsed }
}
