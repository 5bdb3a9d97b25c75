// Kysely queries of the work module. Every read that starts from an id filters by workspace.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely'
import { forUpdate } from '../../platform/db/dialect.ts'
import type { Db, DialectName } from '../../platform/db/index.ts'
import { prepared } from '../../platform/db/prepared.ts'
import type {
  ReviewTaskTable, Tables, WorkActivityTable, WorkCommentTable, WorkObjectTable, WorkRevisionTable, WorkSetTable,
} from '../../platform/db/tables.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { sessionStateColumn, sessionStates } from '../sessions/index.ts'
import { accountSettings } from '../workspace/index.ts'

export type WorkSetRow = Selectable<WorkSetTable> & { session_state: string }
export type WorkObjectRow = Selectable<WorkObjectTable>
export type RevisionRow = Selectable<WorkRevisionTable>
export type ReviewRow = Selectable<ReviewTaskTable>
export type CommentRow = Selectable<WorkCommentTable>
export type ActivityRow = Selectable<WorkActivityTable>

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value))

const toObject = (row: WorkObjectRow): WorkObjectRow => ({
  ...row, revision_number: Number(row.revision_number), confidence: num(row.confidence),
})
const toRevision = (row: RevisionRow): RevisionRow => ({ ...row, number: Number(row.number), confidence: num(row.confidence) })
const toSet = (row: WorkSetRow): WorkSetRow => ({ ...row, revision: Number(row.revision), needs_rebuild: Number(row.needs_rebuild) })

// ---- work sets ----

// With its session's state in the same statement (the sessions module's subquery): one round trip.
const setById = prepared((db: Db, workspaceId: string, id: string) =>
  db.selectFrom('work_sets').selectAll('work_sets').select(sessionStateColumn('work_sets.session_id').as('session_state'))
    .where('id', '=', id).where('workspace_id', '=', workspaceId))

/** Each set with its session's state (the sessions module's), which the takeover view depends on. */
async function withSessionState(db: Executor, rows: Selectable<WorkSetTable>[]): Promise<WorkSetRow[]> {
  if (rows.length === 0) return []
  const states = await sessionStates(db, [...new Set(rows.map((row) => row.session_id))])
  return rows.map((row) => toSet({ ...row, session_state: states.get(row.session_id) ?? 'ready' }))
}

export async function findWorkSet(db: Executor, workspaceId: string, id: string): Promise<WorkSetRow | undefined> {
  const [row] = await setById(db as Db, workspaceId, id)
  return row ? toSet({ ...row, session_state: row.session_state ?? 'ready' }) : undefined
}

export async function findWorkSetOfSession(db: Executor, sessionId: string) {
  const row = await db.selectFrom('work_sets').selectAll().where('session_id', '=', sessionId).executeTakeFirst()
  return row ? (await withSessionState(db, [row]))[0] : undefined
}

export async function listConversationWorkSets(db: Executor, workspaceId: string, conversationId: string) {
  const rows = await db.selectFrom('work_sets').selectAll().where('conversation_id', '=', conversationId).where('workspace_id', '=', workspaceId)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
  return withSessionState(db, rows)
}

/** The session's work set with its row locked until the transaction ends (PostgreSQL; SQLite serialises writers). */
export async function lockWorkSetOfSession(db: Executor, dialect: DialectName, sessionId: string) {
  const locked = await forUpdate(dialect, db.selectFrom('work_sets').select('id').where('session_id', '=', sessionId)).executeTakeFirst()
  return locked ? findWorkSetOfSession(db, sessionId) : undefined
}

/** Inserts the session's work set unless it exists (two first captures at once keep one). */
export async function insertWorkSet(db: Executor, row: Insertable<WorkSetTable>) {
  await db.insertInto('work_sets').values(row).onConflict((oc) => oc.column('session_id').doNothing()).execute()
}

/**
 * Bumps the set's revision (this also locks its row until the transaction ends); answers the new
 * revision, the set's stored takeover state and its session.
 */
/** Raises the set's revision by `by` (one per change); answers the new revision. */
export async function bumpWorkSet(db: Executor, id: string, now: string, by = 1) {
  const row = await db.updateTable('work_sets').set({ revision: sql<number>`revision + ${by}`, updated_at: now })
    .where('id', '=', id).returning(['revision', 'takeover_state', 'session_id', 'workspace_id']).executeTakeFirstOrThrow()
  return { ...row, revision: Number(row.revision) }
}

// ---- work objects ----

export async function findObject(db: Executor, workspaceId: string, id: string) {
  const row = await db.selectFrom('work_objects').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst()
  return row ? toObject(row) : undefined
}

/** The object, its row locked until the transaction ends (PostgreSQL; SQLite's write lock already serialises). */
export async function lockObject(db: Executor, dialect: DialectName, id: string, workspaceId?: string) {
  let query = db.selectFrom('work_objects').selectAll().where('id', '=', id)
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId)
  const row = await forUpdate(dialect, query).executeTakeFirst()
  return row ? toObject(row) : undefined
}

/** The conversation a work object belongs to (it never changes), if the object is in the workspace. */
export async function objectConversation(db: Executor, workspaceId: string, id: string) {
  const row = await db.selectFrom('work_objects').select('conversation_id').where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst()
  return row?.conversation_id
}

export async function insertObject(db: Executor, row: Insertable<WorkObjectTable>) {
  await db.insertInto('work_objects').values(row).execute()
}

export async function updateObject(db: Executor, id: string, values: Updateable<WorkObjectTable>) {
  const row = await db.updateTable('work_objects').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
  return toObject(row)
}

const objectsOfSet = prepared((db: Db, workSetId: string) => db.selectFrom('work_objects').selectAll()
  .where('work_set_id', '=', workSetId).where((eb) => eb.or([eb('proposal_state', 'is', null), eb('proposal_state', '!=', 'rejected')]))
  .orderBy('created_at', 'asc').orderBy('id', 'asc'))

export async function listSetObjects(db: Executor, workSetId: string) {
  return (await objectsOfSet(db as Db, workSetId)).map(toObject)
}

/** The objects of the workspace's sessions named, as listSetObjects lists a set's, oldest first. */
export async function listSessionsObjects(db: Executor, workspaceId: string, sessionIds: string[]) {
  if (sessionIds.length === 0) return []
  // Through the sessions' work sets (one per session, found by its unique session_id; objects by their set's index).
  const sets = db.selectFrom('work_sets').select('id').where('workspace_id', '=', workspaceId).where('session_id', 'in', sessionIds)
  const rows = await db.selectFrom('work_objects').selectAll().where('work_set_id', 'in', sets)
    .where((eb) => eb.or([eb('proposal_state', 'is', null), eb('proposal_state', '!=', 'rejected')]))
    .orderBy('created_at', 'asc').orderBy('id', 'asc').execute()
  return rows.map(toObject)
}

// ---- revisions ----

export async function insertRevision(db: Executor, row: Insertable<WorkRevisionTable>) {
  await db.insertInto('work_revisions').values(row).execute()
}

export async function nextRevisionNumber(db: Executor, workObjectId: string) {
  const row = await db.selectFrom('work_revisions').select((eb) => eb.fn.max('number').as('top'))
    .where('work_object_id', '=', workObjectId).executeTakeFirst()
  return Number(row?.top ?? 0) + 1
}

export async function findRevision(db: Executor, workObjectId: string, id: string) {
  const row = await db.selectFrom('work_revisions').selectAll().where('id', '=', id).where('work_object_id', '=', workObjectId).executeTakeFirst()
  return row ? toRevision(row) : undefined
}

export async function setRevisionProposalState(db: Executor, id: string, state: RevisionRow['proposal_state']) {
  await db.updateTable('work_revisions').set({ proposal_state: state }).where('id', '=', id).execute()
}

export async function listRevisions(db: Executor, workObjectId: string) {
  const rows = await db.selectFrom('work_revisions').selectAll().where('work_object_id', '=', workObjectId).orderBy('number', 'asc').execute()
  return rows.map(toRevision)
}

const revisionsOfSet = prepared((db: Db, workSetId: string) => db.selectFrom('work_revisions').selectAll()
  .where('work_set_id', '=', workSetId).orderBy('work_object_id', 'asc').orderBy('number', 'asc'))

export async function listSetRevisions(db: Executor, workSetId: string) {
  return (await revisionsOfSet(db as Db, workSetId)).map(toRevision)
}

// ---- review tasks ----

export async function insertReview(db: Executor, row: Insertable<ReviewTaskTable>) {
  await db.insertInto('review_tasks').values(row).execute()
}

export async function lockReview(db: Executor, dialect: DialectName, id: string, workspaceId: string) {
  return forUpdate(dialect, db.selectFrom('review_tasks').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId))
    .executeTakeFirst()
}

export async function updateReview(db: Executor, id: string, values: Updateable<ReviewTaskTable>) {
  return db.updateTable('review_tasks').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

/** Whether the object has an approved review of this revision. */
export async function hasApprovedReview(db: Executor, workObjectId: string, revisionId: string) {
  const row = await db.selectFrom('review_tasks').select('id').where('work_object_id', '=', workObjectId)
    .where('revision_id', '=', revisionId).where('state', '=', 'approved').executeTakeFirst()
  return row !== undefined
}

const reviewsOfSet = prepared((db: Db, workSetId: string) => db.selectFrom('review_tasks').selectAll()
  .where('work_set_id', '=', workSetId).orderBy('created_at', 'asc').orderBy('id', 'asc'))

export const listSetReviews = (db: Executor, workSetId: string) => reviewsOfSet(db as Db, workSetId)

// ---- comments ----

export async function insertComment(db: Executor, row: Insertable<WorkCommentTable>) {
  await db.insertInto('work_comments').values(row).execute()
}

export const listComments = (db: Executor, workObjectId: string) =>
  db.selectFrom('work_comments').selectAll().where('work_object_id', '=', workObjectId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute()

/** Comments on any work object of a session, oldest first (the share view). */
export const listSessionComments = (db: Executor, sessionId: string) =>
  db.selectFrom('work_comments').selectAll().where('session_id', '=', sessionId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute()

export const lockComment = (db: Executor, dialect: DialectName, workObjectId: string, id: string) =>
  forUpdate(dialect, db.selectFrom('work_comments').selectAll().where('id', '=', id).where('work_object_id', '=', workObjectId)).executeTakeFirst()

/** Changes the body only while updated_at is still `expected`: the affected-row count decides the race. */
export async function updateCommentIf(db: Executor, id: string, expectedUpdatedAt: string, values: Updateable<WorkCommentTable>) {
  return db.updateTable('work_comments').set(values).where('id', '=', id).where('updated_at', '=', expectedUpdatedAt)
    .returningAll().executeTakeFirst()
}

export async function deleteComment(db: Executor, id: string) {
  await db.deleteFrom('work_comments').where('id', '=', id).execute()
}

/** Accounts that commented on the object (they hear about new comments). */
export async function commenterIds(db: Executor, workObjectId: string): Promise<string[]> {
  const rows = await db.selectFrom('work_comments').select('author_account_id').distinct()
    .where('work_object_id', '=', workObjectId).where('author_account_id', 'is not', null).execute()
  return rows.map((row) => row.author_account_id!)
}

// ---- activity ----

export async function insertActivity(db: Executor, rows: Insertable<WorkActivityTable>[]) {
  if (rows.length > 0) await db.insertInto('work_activity').values(rows).execute()
}

export const listActivity = (db: Executor, workObjectId: string) =>
  db.selectFrom('work_activity').selectAll().where('work_object_id', '=', workObjectId).orderBy('id', 'asc').execute()

// ---- members ----

/** The member's content permission in the workspace, or undefined for someone who is not a member. */
export async function memberPermission(db: Executor, workspaceId: string, accountId: string) {
  return accountSettings.findMembership(db, accountId, workspaceId)
}

export async function accountName(db: Executor, accountId: string) {
  const row = await db.selectFrom('auth_user').select(['name', 'email']).where('id', '=', accountId).executeTakeFirst()
  return row ? (row.name || row.email) : 'Someone'
}

/** Action items per set that are not rejected or withdrawn proposals. */
export async function countRealActions(db: Executor, workSetIds: string[]): Promise<Map<string, number>> {
  if (workSetIds.length === 0) return new Map()
  const rows = await db.selectFrom('work_objects').select((eb) => ['work_set_id', eb.fn.countAll<number>().as('n')])
    .where('work_set_id', 'in', workSetIds).where('kind', '=', 'action')
    .where((eb) => eb.or([eb('proposal_state', 'is', null), eb('proposal_state', 'not in', ['rejected', 'superseded'])]))
    .groupBy('work_set_id').execute()
  return new Map(rows.map((row) => [row.work_set_id, Number(row.n)]))
}

/** Display names (name, else email) of accounts by id. */
export async function accountNames(db: Executor, accountIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(accountIds)]
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('auth_user').select(['id', 'name', 'email']).where('id', 'in', ids).execute()
  return new Map(rows.map((row) => [row.id, row.name || row.email]))
}

export type { Tables }

/** Flags (or clears) `needsRebuild` on the work sets of these sessions (the extraction module's gate changed). */
export async function setNeedsRebuild(db: Executor, sessionIds: string[], needsRebuild: boolean) {
  if (sessionIds.length === 0) return
  await db.updateTable('work_sets').set({ needs_rebuild: needsRebuild ? 1 : 0 }).where('session_id', 'in', sessionIds).execute()
}

/** Titles of work objects aimed at a project, for ranking a meeting's project suggestions. */
export const listTargetedWorkTitles = (db: Executor, workspaceId: string) =>
  db.selectFrom('work_objects').select(['target_project_id', 'title'])
    .where('workspace_id', '=', workspaceId).where('target_project_id', 'is not', null).limit(5000).execute()

/** Titles of the workspace's open work (not accepted, proposal not rejected or superseded) from other sessions, newest first. */
export const listOpenWorkTitles = async (db: Executor, workspaceId: string, { exceptSessionId, limit }: { exceptSessionId: string; limit: number }) =>
  (await db.selectFrom('work_objects').select('title')
    .where('workspace_id', '=', workspaceId).where('session_id', '!=', exceptSessionId).where('stage', '!=', 'accepted')
    .where((eb) => eb.or([eb('proposal_state', 'is', null), eb('proposal_state', 'in', ['pending', 'accepted'])]))
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()).map((row) => row.title)
