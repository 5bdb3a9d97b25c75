// Capture session use cases: create (or reuse the open one), list, read, change, end, process.
// Every change emits `session.updated` with the new snapshot in the transaction that makes it.
import type { Insertable, Updateable } from 'kysely'
import type { AppDeps } from '../../platform/deps.ts'
import type { Actor, Membership } from '../../platform/auth/actor.ts'
import { isUniqueViolation } from '../../platform/db/dialect.ts'
import type { CaptureSessionTable } from '../../platform/db/tables.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { decodeCursor, paginate } from '../../platform/http/pagination.ts'
import { requiredText } from '../../platform/http/validators.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { findProject } from '../projects/index.ts'
import { canArchive, canMoveSession } from './policy.ts'
import { presentSession, websocketUrls } from './presenter.ts'
import * as repo from './repo.ts'
import type { CreateSessionInput, ListSessionsInput, UpdateSessionInput } from './schemas.ts'
import { JOBS } from '../../domain/jobs.ts'

const PROCESS_SESSION_JOB = JOBS.processSession

const MAX_CREATE_ATTEMPTS = 3

/** Appends `session.updated` with the snapshot of `row` to its conversation's log, in `executor`. */
export async function emitSessionUpdated(deps: AppDeps, executor: Executor, row: repo.SessionRow) {
  await deps.events.append(executor, row.conversation_id, 'session.updated', presentSession(row))
}

const membershipOf = (actor: Actor): Membership => {
  if (!actor.membership) throw new AppError('no_workspace', 'No active workspace: call POST /v1/account/bootstrap first.')
  return actor.membership
}

const defaultTitle = (at: string) => `Meeting on ${at.slice(0, 10)} ${at.slice(11, 16)} UTC`

/** Updated timestamps strictly increase, so an `expectedUpdatedAt` guard always sees a change. */
const nextUpdatedAt = (previous: string) => {
  const now = Date.now()
  const floor = new Date(previous).getTime() + 1
  return new Date(Math.max(now, floor)).toISOString()
}

/**
 * A session's project must be one of the caller's workspace (as a work object's targetProjectId), and
 * active: an archived project is kept as it was, so no meeting joins it until it is restored.
 */
async function assertProjectOf(executor: Executor, workspaceId: string, projectId: string | null | undefined) {
  if (typeof projectId !== 'string') return
  const project = await findProject(executor, workspaceId, projectId)
  if (!project) throw badRequest('projectId', 'unknown_project', 'projectId must be a project of this workspace')
  if (project.status === 'archived') {
    throw badRequest('projectId', 'project_archived', 'projectId names an archived project: restore it (PATCH /v1/projects/{projectId} with status active) before adding meetings to it')
  }
}

/** Sessions as listed and read: each with how far its transcript reaches (the transcripts module's port). */
async function presentWithReach(deps: Pick<AppDeps, 'ports'>, executor: Executor, rows: repo.SessionRow[]) {
  const reach = await deps.ports.transcriptReach?.(executor, rows.map((row) => row.id)) ?? new Map<string, number>()
  return rows.map((row) => presentSession(row, reach.get(row.id)))
}

/** A project's sessions, newest first, archived ones left out (the project detail view; a port of the projects module). */
export async function listProjectSessions(deps: Pick<AppDeps, 'ports'>, executor: Executor, workspaceId: string, projectId: string) {
  const rows = await repo.listSessions(executor, workspaceId, { projectId, archived: false, after: undefined, limit: PROJECT_SESSIONS_SHOWN })
  return presentWithReach(deps, executor, rows.slice(0, PROJECT_SESSIONS_SHOWN))
}

/** At most this many sessions in a project's detail; GET /v1/sessions?projectId= pages through all of them. */
const PROJECT_SESSIONS_SHOWN = 200

export async function createSession(deps: AppDeps, actor: Actor, input: CreateSessionInput) {
  const { workspaceId } = membershipOf(actor)
  const title = input.title === undefined ? undefined : requiredText('title', input.title)
  const { db } = deps.database
  await assertProjectOf(db, workspaceId, input.projectId)
  for (let attempt = 1; ; attempt += 1) {
    try {
      const outcome = await db.transaction().execute(async (trx) => {
        const open = await repo.findRecordingSessionOf(trx, actor.accountId)
        if (open) return { row: open, reusedExisting: true }
        // The plan may hold new recordings back (billing); what was recorded stays either way.
        await deps.ports.entitlements?.assertCanRecord(trx, workspaceId)
        const now = nowIso()
        const row: Insertable<CaptureSessionTable> = {
          id: newId('ses'), workspace_id: workspaceId, account_id: actor.accountId, conversation_id: newId('cnv'),
          project_id: input.projectId ?? null, title: title ?? defaultTitle(now), capture_mode: input.captureMode, transcription_engine: deps.speech.mode,
          state: 'recording', failure_reason: null, archived_at: null, started_at: now, ended_at: null,
          chunk_count: 0, audio_bytes: 0, last_sequence: -1, progress_event_at: null, created_at: now, updated_at: now,
        }
        await repo.insertSession(trx, row, now)
        const created = (await repo.findSession(trx, workspaceId, row.id))!
        await emitSessionUpdated(deps, trx, created)
        return { row: created, reusedExisting: false }
      })
      if (outcome.row.workspace_id !== workspaceId) {
        throw new AppError('conflict', 'You are recording in another workspace; end that session before starting one here.', {
          extra: { sessionId: outcome.row.id, workspaceId: outcome.row.workspace_id },
        })
      }
      return { ...presentSession(outcome.row), ...websocketUrls(deps.config, outcome.row.conversation_id), reusedExisting: outcome.reusedExisting }
    } catch (error) {
      // A concurrent create won the one-recording-session index: the next attempt reuses its session.
      if (!isUniqueViolation(error) || attempt >= MAX_CREATE_ATTEMPTS) throw error
    }
  }
}

export async function listSessions(deps: AppDeps, actor: Actor, query: ListSessionsInput) {
  const { workspaceId } = membershipOf(actor)
  const limit = query.limit ?? 50
  const rows = await repo.listSessions(deps.database.db, workspaceId, {
    projectId: query.projectId, archived: query.archived ?? false, after: decodeCursor(query.cursor, ['string', 'string']), limit,
  })
  const page = paginate(rows, limit, (row) => [row.created_at, row.id])
  return { sessions: await presentWithReach(deps, deps.database.db, page.items), nextCursor: page.nextCursor }
}

export async function getSession(deps: AppDeps, actor: Actor, sessionId: string) {
  const row = await repo.findSession(deps.database.db, membershipOf(actor).workspaceId, sessionId)
  return row ? (await presentWithReach(deps, deps.database.db, [row]))[0]! : notFound('session', sessionId)
}

/** The session, locked for the rest of the transaction, or a 404. */
async function lockSession(deps: AppDeps, trx: Executor, workspaceId: string, sessionId: string) {
  return await repo.lockSession(trx, deps.database.dialect, sessionId, workspaceId) ?? notFound('session', sessionId)
}

export async function updateSession(deps: AppDeps, actor: Actor, sessionId: string, input: UpdateSessionInput) {
  const { workspaceId } = membershipOf(actor)
  const title = input.title === undefined ? undefined : requiredText('title', input.title)
  const row = await deps.database.db.transaction().execute(async (trx) => {
    const current = await lockSession(deps, trx, workspaceId, sessionId)
    if (input.expectedUpdatedAt !== undefined && new Date(input.expectedUpdatedAt).getTime() !== new Date(current.updated_at).getTime()) {
      throw new AppError('conflict', 'The session changed since expectedUpdatedAt; re-read it and retry.', { extra: { updatedAt: current.updated_at } })
    }
    const changes: Updateable<CaptureSessionTable> = {}
    if (title !== undefined && title !== current.title) changes.title = title
    if (input.projectId !== undefined && input.projectId !== current.project_id) {
      await assertProjectOf(trx, workspaceId, input.projectId)
      changes.project_id = input.projectId
    }
    if (input.archived !== undefined && input.archived !== (current.archived_at !== null)) {
      if (input.archived && !canArchive(current.state)) {
        throw new AppError('conflict', 'End the session before archiving it.', { extra: { state: current.state } })
      }
      changes.archived_at = input.archived ? nowIso() : null
    }
    if (Object.keys(changes).length === 0) return current
    const updated = await repo.updateSession(trx, sessionId, { ...changes, updated_at: nextUpdatedAt(current.updated_at) })
    await emitSessionUpdated(deps, trx, updated)
    return updated
  })
  return presentSession(row)
}

/**
 * Ends a recording: the session moves to `processing` and its processing job is enqueued in the
 * same transaction. Also reached through the realtime message `session.end`.
 */
export async function endSession(deps: AppDeps, actor: Actor, sessionId: string) {
  const { workspaceId } = membershipOf(actor)
  const row = await deps.database.db.transaction().execute(async (trx) => {
    const current = await lockSession(deps, trx, workspaceId, sessionId)
    if (!canMoveSession(current.state, 'processing')) {
      throw new AppError('conflict', `The session is not recording (it is ${current.state}).`, { extra: { state: current.state } })
    }
    const now = nowIso()
    const ended = await repo.updateSession(trx, sessionId, { state: 'processing', ended_at: now, updated_at: nextUpdatedAt(current.updated_at) })
    await emitSessionUpdated(deps, trx, ended)
    await enqueue(trx, PROCESS_SESSION_JOB, { sessionId }, { dedupeKey: sessionId })
    return ended
  })
  return presentSession(row)
}

/** A failed session back to `processing`, its processing job enqueued again. */
export async function retryProcessing(deps: AppDeps, actor: Actor, sessionId: string) {
  const { workspaceId } = membershipOf(actor)
  const row = await deps.database.db.transaction().execute(async (trx) => {
    const current = await lockSession(deps, trx, workspaceId, sessionId)
    if (current.state !== 'failed') {
      throw new AppError('conflict', `Only a failed session is processed again (this one is ${current.state}).`, { extra: { state: current.state } })
    }
    const retried = await repo.updateSession(trx, sessionId, { state: 'processing', failure_reason: null, updated_at: nextUpdatedAt(current.updated_at) })
    await emitSessionUpdated(deps, trx, retried)
    await enqueue(trx, PROCESS_SESSION_JOB, { sessionId }, { dedupeKey: sessionId })
    return retried
  })
  return presentSession(row)
}

/** Moves a processing session on to `ready` or `failed`; a session in any other state is left alone. */
export async function finishProcessing(deps: AppDeps, executor: Executor, sessionId: string, outcome: { failureReason?: string }) {
  const run = async (trx: Executor) => {
    const current = await repo.lockSession(trx, deps.database.dialect, sessionId)
    const target = outcome.failureReason === undefined ? 'ready' : 'failed'
    if (!current || !canMoveSession(current.state, target)) return
    const finished = await repo.updateSession(trx, sessionId, {
      state: target, failure_reason: outcome.failureReason ?? null, updated_at: nextUpdatedAt(current.updated_at),
    })
    await emitSessionUpdated(deps, trx, finished)
  }
  if (executor.isTransaction) return run(executor)
  return deps.database.db.transaction().execute(run)
}

export const findConversationInWorkspace = (db: Executor, workspaceId: string, conversationId: string) =>
  repo.findConversation(db, workspaceId, conversationId)
