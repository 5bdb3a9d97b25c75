// The one place the client talks HTTP: same-origin requests under /api (the session cookie goes
// with them; client code never reads it), problem+json turned into an ApiError whose message is a
// sentence a person understands, and a small cache that pages subscribe to.
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import { translate, type MessageKey } from './i18n.ts'

type Problem = { status?: number; code?: string; detail?: string; message?: string }

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly problem: Problem
  constructor(status: number, problem: Problem) {
    super(sentenceFor(status, problem))
    this.status = status
    this.code = problem.code ?? (status === 0 ? 'offline' : 'error')
    this.problem = problem
  }
}

/** A sentence for a problem: a translated one for the codes people meet, else the server's detail. */
export function sentenceFor(status: number, problem: Problem): string {
  const code = problem.code ?? ''
  const detail = problem.detail ?? problem.message ?? ''
  // No answer at all: the browser's connection is down, or it is up and the server is not answering (restarting).
  if (status === 0) return translate(typeof navigator !== 'undefined' && navigator.onLine === false ? 'error.offline' : 'error.unreachable')
  const known: Record<string, MessageKey> = {
    unauthenticated: 'error.unauthenticated', forbidden: 'error.forbidden', no_workspace: 'error.forbidden',
    not_found: 'error.not_found', stale_revision: 'error.stale', stale_timestamp: 'error.stale', stage_conflict: 'error.stale',
    rate_limited: 'error.rate_limited', OTP_SEND_LIMIT: 'error.OTP_SEND_LIMIT', INVALID_OTP: 'error.INVALID_OTP',
    OTP_EXPIRED: 'error.OTP_EXPIRED', TOO_MANY_ATTEMPTS: 'error.TOO_MANY_ATTEMPTS', invitation_used: 'error.invitation_used',
    invitation_revoked: 'error.invitation_revoked', invitation_pending: 'error.invitation_pending', invitation_expired: 'error.invitation_expired',
    invitation_email_mismatch: 'error.invitation_email_mismatch', transition_not_allowed: 'error.transition_not_allowed',
    proposal_pending: 'error.proposal_pending', billing_disabled: 'error.billing_disabled', already_subscribed: 'error.already_subscribed',
    no_subscription: 'error.no_subscription', oauth_not_configured: 'error.oauth_not_configured', credential_refused: 'error.credential_refused', seat_limit_reached: 'error.seat_limit_reached',
    plan_inactive: 'error.plan_inactive', seat_limit_exceeded: 'error.seat_limit_exceeded', service_unavailable: 'error.service_unavailable', last_owner: 'error.last_owner',
  }
  // The sign-in routes' codes come lowercased (invalid_otp, platform/auth/mount.ts); the keys keep better-auth's spelling.
  const key = known[code] ?? known[code.toUpperCase()]
  if (key) return translate(key, { detail })
  if (status >= 500) return translate('error.server')
  if (status === 401) return translate('error.unauthenticated')
  if (detail) return translate('error.generic', { detail: /[.!?。]$/.test(detail) ? detail : `${detail}.` })
  return translate('error.server')
}

export type RequestOptions = { body?: unknown; headers?: Record<string, string>; raw?: BodyInit; signal?: AbortSignal }

/** `path` starts with /v1/ (the API, served under /api/v1 on the web origin) or /api/auth/. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const url = path.startsWith('/v1/') ? `/api${path}` : path
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  let body: BodyInit | undefined = options.raw
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  let response: Response
  try {
    response = await fetch(url, { method, headers, body, credentials: 'same-origin', signal: options.signal })
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error
    throw new ApiError(0, { code: 'offline' })
  }
  const text = await response.text()
  const parsed = text ? safeJson(text) : undefined
  if (!response.ok) {
    // A session that ended elsewhere: the shell asks who is signed in again (not for that question itself).
    if (response.status === 401 && !path.startsWith('/api/auth/') && path !== '/v1/account/current') signedOut.emit()
    throw new ApiError(response.status, (parsed ?? {}) as Problem)
  }
  return parsed as T
}

function safeJson(text: string): unknown {
  try { return JSON.parse(text) } catch { return { detail: text } }
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body: unknown = {}, headers?: Record<string, string>) => request<T>('POST', path, { body, headers }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  delete: <T>(path: string) => request<T>('DELETE', path),
}

function emitter() {
  const listeners = new Set<() => void>()
  return {
    on(listener: () => void) { listeners.add(listener); return () => { listeners.delete(listener) } },
    emit() { for (const listener of listeners) listener() },
  }
}
export const signedOut = emitter()
/** Everything cached was dropped (signing out or in as someone else): state kept outside the cache goes with it. */
export const cacheCleared = emitter()

// ---- cache: one entry per GET path; invalidate(prefix) refetches what pages show ----

type Entry = { data?: unknown; error?: ApiError; loading: boolean; version: number; promise?: Promise<void> }
const cache = new Map<string, Entry>()
const changed = emitter()

function load(path: string) {
  const entry = cache.get(path) ?? { loading: true, version: 0 }
  cache.set(path, entry)
  entry.loading = true
  entry.promise = api.get<unknown>(path).then((data) => {
    cache.set(path, { data, loading: false, version: entry.version + 1 })
  }, (error: unknown) => {
    cache.set(path, { data: entry.data, error: error instanceof ApiError ? error : new ApiError(0, {}), loading: false, version: entry.version + 1 })
  }).finally(() => changed.emit())
}

/** Refetch every cached GET whose path starts with one of the prefixes. */
export function invalidate(...prefixes: string[]) {
  for (const path of cache.keys()) if (prefixes.some((prefix) => path.startsWith(prefix))) load(path)
}

/** Put a value in the cache without a request (a mutation's answer, a realtime event). */
export function setCached<T>(path: string, update: (current: T | undefined) => T) {
  const entry = cache.get(path)
  cache.set(path, { data: update(entry?.data as T | undefined), loading: false, version: (entry?.version ?? 0) + 1 })
  changed.emit()
}

/** Put an error in the cache without a request (what the page already knows will fail). */
export function setCachedError(path: string, error: ApiError) {
  cache.set(path, { error, loading: false, version: (cache.get(path)?.version ?? 0) + 1 })
  changed.emit()
}

export function useResource<T>(path: string | null): { data?: T; error?: ApiError; loading: boolean; reload: () => void } {
  const entry = useSyncExternalStore(changed.on, () => (path ? cache.get(path) : undefined))
  // Also after clearCache() (sign-out, joining a workspace) dropped the entry.
  const missing = entry === undefined
  useEffect(() => { if (path && missing && !cache.has(path)) load(path) }, [path, missing])
  const reload = useCallback(() => { if (path) load(path) }, [path])
  return { data: entry?.data as T | undefined, error: entry?.error, loading: !entry || entry.loading, reload }
}

export function clearCache() { cache.clear(); early.clear(); changed.emit(); cacheCleared.emit() }

/** Ask again for every cached GET that failed (the connection came back). */
export function retryFailed() {
  for (const [path, entry] of cache) if (entry.error && !entry.loading) load(path)
}

// The browser's idea of the connection: said on every page while it is down (pages waiting on a
// request would otherwise say "Loading…" for good), and what failed meanwhile is asked again once
// it is back.
const connectivity = emitter()
if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => connectivity.emit())
  window.addEventListener('online', () => { connectivity.emit(); retryFailed() })
}
export const useOnline = () => useSyncExternalStore(connectivity.on, () => navigator.onLine)

/** What the cache holds for a path now, without subscribing or loading. */
export function peek<T>(path: string): { data?: T; error?: ApiError; loading: boolean } | undefined {
  const entry = cache.get(path)
  return entry ? { data: entry.data as T | undefined, error: entry.error, loading: entry.loading } : undefined
}

/**
 * Starts a cached GET before a page asks for it (the page being opened, while the shell still asks
 * who is signed in); answers its data. A failure is not kept: the page asks again (after signing in).
 */
export function prefetch<T>(path: string): Promise<T | undefined> {
  if (!cache.has(path)) load(path)
  return cache.get(path)!.promise!.then(() => {
    const entry = cache.get(path)
    if (entry?.error) { cache.delete(path); return undefined }
    return entry?.data as T | undefined
  })
}

// ---- one-time early GETs (not cached): started at boot, taken by the first getEarly of that path ----

const early = new Map<string, Promise<unknown>>()

export function startEarly(path: string) {
  if (early.has(path)) return
  const promise = api.get<unknown>(path)
  promise.catch(() => early.delete(path))
  early.set(path, promise)
}

/** The early request of `path` if one was started (once), else a new GET. */
export function getEarly<T>(path: string): Promise<T> {
  const started = early.get(path)
  early.delete(path)
  return (started as Promise<T> | undefined) ?? api.get<T>(path)
}

/** A mutation's pending state and error sentence. */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true)
    setError(undefined)
    try {
      return await action()
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught))
      return undefined
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, error, run, setError }
}

export function idempotencyKey() { return crypto.randomUUID() }
