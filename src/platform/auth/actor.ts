// The actor of a request: the signed-in account and its membership of the active workspace.
// The session cookie is better-auth's signed cookie (`<token>.<base64 HMAC-SHA256>`); verifying it
// here and reading session, account and membership in one query keeps the hot path to one round
// trip. When a session is due for its sliding refresh, better-auth's own getSession renews it and
// its Set-Cookie is passed on. Resolved actors are kept per signed cookie for ACTOR_CACHE_TTL_MS at
// most and forgotten at once when this process commits a change to access (docs/decisions.md).
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyReply } from 'fastify'
import { ACTOR_CACHE_TTL_MS, type AccessCaches } from './access-cache.ts'
import type { Auth } from './auth.ts'
import { SESSION_UPDATE_AGE_SECONDS, sessionCookieName } from './auth.ts'
import type { Db } from '../db/index.ts'
import { prepared } from '../db/prepared.ts'

/** 'socket': a WebSocket route that authenticates in its handler and closes with 1008 on failure */
export type Access = 'public' | 'socket' | 'signedIn' | 'view' | 'edit' | 'manage'

/** Read-only: a resolved actor is shared by the requests its cache entry serves (frozen). */
export type Membership = {
  readonly workspaceId: string
  readonly accessRole: 'owner' | 'admin' | 'member'
  readonly contentPermission: 'edit' | 'view'
  readonly jobRole: string | null
}

export type Actor = {
  readonly accountId: string
  readonly email: string
  readonly name: string
  readonly sessionId: string
  readonly membership: Membership | null
}

/**
 * The longest another process keeps a revoked session, a removed member or a changed permission
 * working; within this process the change takes effect before its own answer is sent.
 */
export { ACTOR_CACHE_TTL_MS }

type RequestHeaders = Record<string, string | string[] | undefined>

export type ActorResolver = {
  resolve(headers: RequestHeaders, reply?: FastifyReply): Promise<Actor | null>
  /** What resolve would answer, without a promise, when the cache decides it; undefined when it cannot (resolve then). */
  cached(headers: RequestHeaders): Actor | null | undefined
}

type Resolved = { actor: Actor; expiresAt: number; updatedAt: number }

const actorRows = prepared((db: Db, token: string) => db.selectFrom('auth_session as s')
  .innerJoin('auth_user as u', 'u.id', 's.userId')
  .leftJoin('account_settings as st', 'st.account_id', 'u.id')
  .leftJoin('workspace_members as m', (join) => join
    .onRef('m.workspace_id', '=', 'st.active_workspace_id')
    .onRef('m.account_id', '=', 'u.id'))
  .select(['s.id as sessionId', 's.expiresAt', 's.updatedAt', 'u.id as accountId', 'u.email', 'u.name',
    'm.workspace_id', 'm.access_role', 'm.content_permission', 'm.job_role'])
  .where('s.token', '=', token))

export function createActorResolver(deps: { auth: Auth; db: Db; secret: string; secureCookies: boolean; caches: AccessCaches }): ActorResolver {
  const cookieName = sessionCookieName(deps.secureCookies)
  // Keyed by the signed cookie value itself, so a hit needs no HMAC; emptied with every access cache.
  const cache = deps.caches.create<Resolved>()

  const lookup = (cookie: string) => cache.remember(cookie, async (): Promise<Resolved | undefined> => {
    const token = verifiedToken(cookie, deps.secret)
    if (!token) return undefined
    const [row] = await actorRows(deps.db, token)
    if (!row) return undefined
    const resolved: Resolved = {
      expiresAt: new Date(row.expiresAt as string).getTime(),
      updatedAt: new Date(row.updatedAt as string).getTime(),
      // Frozen and shared by the requests it serves: a route may not change what others are served.
      actor: Object.freeze({
        accountId: row.accountId,
        email: row.email,
        name: row.name,
        sessionId: row.sessionId,
        membership: row.workspace_id && row.access_role && row.content_permission
          ? Object.freeze({ workspaceId: row.workspace_id, accessRole: row.access_role, contentPermission: row.content_permission, jobRole: row.job_role })
          : null,
      }),
    }
    return resolved
  })

  return {
    async resolve(headers, reply) {
      const cookie = readCookie(headers.cookie, cookieName)
      if (!cookie) return null
      const resolved = await lookup(cookie)
      if (!resolved) return null
      const now = Date.now()
      if (resolved.expiresAt <= now) return null
      if (reply && dueForRefresh(resolved, now)) {
        await refreshSession(deps.auth, headers, reply)
        cache.delete(cookie)
      }
      return resolved.actor
    },
    cached(headers) {
      const cookie = readCookie(headers.cookie, cookieName)
      if (!cookie) return null
      const resolved = cache.get(cookie)
      if (!resolved) return undefined
      const now = Date.now()
      if (resolved.expiresAt <= now) return null
      return dueForRefresh(resolved, now) ? undefined : resolved.actor
    },
  }
}

const dueForRefresh = (resolved: Resolved, now: number) => resolved.updatedAt + SESSION_UPDATE_AGE_SECONDS * 1000 <= now


async function refreshSession(auth: Auth, headers: Record<string, string | string[] | undefined>, reply: FastifyReply) {
  const result = await auth.api.getSession({ headers: new Headers({ cookie: String(headers.cookie) }), returnHeaders: true })
  const cookies = result.headers?.getSetCookie() ?? []
  if (cookies.length > 0) reply.header('set-cookie', cookies)
}

/** The first value of cookie `name` in a Cookie header (scanned in place: no array of its parts). */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  if (typeof header !== 'string') return undefined
  let start = 0
  while (start < header.length) {
    let end = header.indexOf(';', start)
    if (end === -1) end = header.length
    const separator = header.indexOf('=', start)
    if (separator > start && separator < end && header.slice(start, separator).trim() === name) {
      return header.slice(separator + 1, end).trim()
    }
    start = end + 1
  }
  return undefined
}

/** The session token when the cookie's signature is ours, else undefined. */
function verifiedToken(raw: string | undefined, secret: string): string | undefined {
  if (!raw) return undefined
  let value: string
  try {
    value = decodeURIComponent(raw)
  } catch {
    return undefined
  }
  const dot = value.lastIndexOf('.')
  if (dot < 1) return undefined
  const token = value.slice(0, dot)
  const given = Buffer.from(value.slice(dot + 1), 'base64')
  const expected = createHmac('sha256', secret).update(token).digest()
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : undefined
}
