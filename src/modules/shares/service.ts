// Share links of a session: one live link per session (created on first read, 30 days, `read`),
// changed or revoked by edit members; read and commented on by anyone holding the token.
import type { AppDeps } from '../../platform/deps.ts'
import type { Membership } from '../../platform/auth/actor.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { findSessionRow, presentSession } from '../sessions/index.ts'
import { listSegments, listSpeakers, presentSegment, presentSpeaker } from '../transcripts/index.ts'
import { decodeCursor, paginate } from '../../platform/http/pagination.ts'
import { addComment, listSessionComments, listSessionWorkObjects } from '../work/index.ts'
import * as repo from './repo.ts'
import { shareToken, tokenHash } from './token.ts'
import type { SharePermission } from '../../platform/db/tables.ts'

export const DEFAULT_SHARE_DAYS = 30
export const MAX_SHARE_DAYS = 365
const DAY_MS = 86_400_000

export function presentShare(deps: AppDeps, row: repo.ShareRow) {
  const token = shareToken(deps.secret, row.id)
  return { shareToken: token, shareURL: `${deps.config.publicBase}/share/${token}`, permission: row.permission, expiresAt: row.expires_at }
}

async function sessionOf(deps: AppDeps, membership: Membership, sessionId: string) {
  return await findSessionRow(deps.database.db, membership.workspaceId, sessionId) ?? notFound('session', sessionId)
}

const isLive = (row: repo.ShareRow, now = Date.now()) => row.revoked_at === null && Date.parse(row.expires_at) > now

/** The session's live link; a new one (read, 30 days) when there is none or it has expired. */
async function liveShare(deps: AppDeps, membership: Membership, sessionId: string, accountId: string) {
  const db = deps.database.db
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const existing = await repo.findLiveShare(db, sessionId)
    if (existing && isLive(existing)) return existing
    const now = nowIso()
    // An expired link stays dead: it is retired and a fresh token issued.
    if (existing) await repo.updateShare(db, existing.id, { revoked_at: now, updated_at: now })
    const id = newId('shr')
    const row = {
      id, session_id: sessionId, workspace_id: membership.workspaceId, token_hash: tokenHash(shareToken(deps.secret, id)),
      permission: 'read' as const, expires_at: new Date(Date.now() + DEFAULT_SHARE_DAYS * DAY_MS).toISOString(),
      revoked_at: null, created_by: accountId, created_at: now, updated_at: now,
    }
    // Two first reads at once: the partial unique index keeps one, the loser reads the winner's.
    if (await repo.insertShare(db, row)) return row
  }
  throw new AppError('conflict', 'The share link changed while it was being read; try again.')
}

/** The live link, made when there is none; with `create` false only read (undefined when there is none). */
export async function getShareLink(deps: AppDeps, membership: Membership, accountId: string, sessionId: string, create = true) {
  await sessionOf(deps, membership, sessionId)
  if (!create) {
    const existing = await repo.findLiveShare(deps.database.db, sessionId)
    return existing && isLive(existing) ? presentShare(deps, existing) : undefined
  }
  return presentShare(deps, await liveShare(deps, membership, sessionId, accountId))
}

export type UpdateShareInput = { permission?: SharePermission; expiresAt?: string; expiresInDays?: number }

export async function updateShareLink(deps: AppDeps, membership: Membership, accountId: string, sessionId: string, input: UpdateShareInput) {
  await sessionOf(deps, membership, sessionId)
  if (input.expiresAt !== undefined && input.expiresInDays !== undefined) {
    throw badRequest('expiresAt', 'exclusive', 'give expiresAt or expiresInDays, not both')
  }
  let expiresAt: string | undefined
  if (input.expiresInDays !== undefined) expiresAt = new Date(Date.now() + input.expiresInDays * DAY_MS).toISOString()
  if (input.expiresAt !== undefined) {
    const at = Date.parse(input.expiresAt)
    if (!Number.isFinite(at) || at <= Date.now()) throw badRequest('expiresAt', 'in_past', 'must be a time in the future')
    if (at > Date.now() + MAX_SHARE_DAYS * DAY_MS) throw badRequest('expiresAt', 'too_far', `must be within ${MAX_SHARE_DAYS} days`)
    expiresAt = new Date(at).toISOString()
  }
  const share = await liveShare(deps, membership, sessionId, accountId)
  const changes = { ...(input.permission ? { permission: input.permission } : {}), ...(expiresAt ? { expires_at: expiresAt } : {}) }
  const updated = { ...share, ...changes, updated_at: nowIso() }
  await repo.updateShare(deps.database.db, share.id, { ...changes, updated_at: updated.updated_at })
  return presentShare(deps, updated)
}

/** Revokes the live link: its token answers 404 from now on; the next read issues a new one. */
export async function revokeShareLink(deps: AppDeps, membership: Membership, sessionId: string) {
  await sessionOf(deps, membership, sessionId)
  const existing = await repo.findLiveShare(deps.database.db, sessionId)
  const now = nowIso()
  if (existing) await repo.updateShare(deps.database.db, existing.id, { revoked_at: now, updated_at: now })
  return { revoked: existing !== undefined }
}

/** The share behind a token, or the same 404 for unknown, revoked and expired tokens. */
export async function resolveShare(deps: AppDeps, token: string) {
  const share = await repo.findShareByTokenHash(deps.database.db, tokenHash(token))
  if (!share || !isLive(share)) throw new AppError('not_found', 'No such share link.')
  const session = await findSessionRow(deps.database.db, share.workspace_id, share.session_id)
  if (!session) throw new AppError('not_found', 'No such share link.')
  return { share, session }
}

export const SHARE_TRANSCRIPT_PAGE = 500

export async function shareTranscriptPage(deps: AppDeps, sessionId: string, cursor: string | undefined, limit = SHARE_TRANSCRIPT_PAGE) {
  const rows = await listSegments(deps.database.db, sessionId, { after: decodeCursor(cursor, ['integer', 'string']), limit, status: 'final' })
  const page = paginate(rows, limit, (row) => [row.start_ms, row.id])
  return { segments: page.items.map(presentSegment), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }
}

/** What a viewer of the link sees: the session, its speakers, the first page of its transcript. */
export async function viewShare(deps: AppDeps, token: string) {
  const { share, session } = await resolveShare(deps, token)
  const [speakers, transcript, workObjects, comments] = await Promise.all([
    listSpeakers(deps.database.db, session.id),
    shareTranscriptPage(deps, session.id, undefined),
    listSessionWorkObjects(deps, session.id),
    listSessionComments(deps, session.id),
  ])
  return {
    session: presentSession(session),
    permission: share.permission,
    expiresAt: share.expires_at,
    // Only what was said through share links: members' own discussion stays inside the workspace.
    comments: comments.filter((comment) => comment.viaShare).map(presentShareComment),
    workObjects,
    speakers: speakers.map(presentSpeaker),
    transcript,
  }
}

type Comment = Awaited<ReturnType<typeof listSessionComments>>[number]
const presentShareComment = (comment: Comment) => ({
  id: comment.id, workObjectId: comment.workObjectId, body: comment.body, authorName: comment.authorName, createdAt: comment.createdAt,
})

export type ShareCommentInput = { workObjectId: string; body: string; authorName?: string }

/** A comment through a `comment` link, on one of the shared session's work objects. */
export async function commentThroughShare(deps: AppDeps, token: string, input: ShareCommentInput) {
  const { share, session } = await resolveShare(deps, token)
  if (share.permission !== 'comment') throw new AppError('forbidden', 'This share link allows reading only; ask for a link that allows comments.')
  const created = await addComment(deps, deps.database.db, {
    workObjectId: input.workObjectId, body: input.body, sessionId: session.id,
    author: { shareId: share.id, displayName: input.authorName?.trim() || 'Guest' },
  })
  return presentShareComment(created)
}
