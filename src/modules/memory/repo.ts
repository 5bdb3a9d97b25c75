// Kysely queries of the memory module's tables only.
import { sql, type Insertable, type Selectable } from 'kysely'
import { forUpdate } from '../../platform/db/dialect.ts'
import type { DialectName } from '../../platform/db/index.ts'
import type {
  ExternalObservationTable, MemoryCodeChunkTable, MemoryCodebaseTable, MemoryConflictTable, MemoryEntryTable, MemoryExternalSourceTable, MemoryProjectTable,
} from '../../platform/db/tables.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { newId } from '../../platform/ids.ts'
import type { DerivedConflict, DerivedEntry } from './derive.ts'

export type EntryRow = Selectable<MemoryEntryTable>
export type ConflictRow = Selectable<MemoryConflictTable>
export type ObservationRow = Selectable<ExternalObservationTable>
export type ExternalSourceRow = Selectable<MemoryExternalSourceTable>
export type CodebaseRow = Selectable<MemoryCodebaseTable>
export type ChunkRow = Selectable<MemoryCodeChunkTable>

const toCodebase = (row: CodebaseRow): CodebaseRow => ({ ...row, file_count: Number(row.file_count), symbol_count: Number(row.symbol_count) })
const toChunk = (row: ChunkRow): ChunkRow => ({ ...row, line: Number(row.line), end_line: Number(row.end_line) })

// ---- project state ----

export const lockMemoryProject = (db: Executor, dialect: DialectName, projectId: string) =>
  forUpdate(dialect, db.selectFrom('memory_projects').selectAll().where('project_id', '=', projectId)).executeTakeFirst()

export const findMemoryProject = (db: Executor, workspaceId: string, projectId: string) =>
  db.selectFrom('memory_projects').selectAll().where('project_id', '=', projectId).where('workspace_id', '=', workspaceId).executeTakeFirst()

export async function saveMemoryProject(db: Executor, row: Insertable<MemoryProjectTable>) {
  await db.insertInto('memory_projects').values(row)
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ fingerprint: row.fingerprint, last_refreshed_at: row.last_refreshed_at })).execute()
}

// ---- entries ----

export const listEntries = (db: Executor, workspaceId: string, projectId: string) =>
  db.selectFrom('memory_entries').selectAll().where('workspace_id', '=', workspaceId).where('project_id', '=', projectId)
    .orderBy('valid_from', 'asc').orderBy('id', 'asc').execute()

export const findEntriesByKeys = (db: Executor, projectId: string, keys: string[]) =>
  keys.length === 0 ? Promise.resolve([] as EntryRow[]) : db.selectFrom('memory_entries').selectAll().where('project_id', '=', projectId).where('entry_key', 'in', keys).execute()

/** Stores the derived entries (ids kept by entry key) and removes those no longer derived. */
export async function replaceEntries(db: Executor, workspaceId: string, projectId: string, entries: DerivedEntry[], now: string) {
  const existing = new Map((await listEntries(db, workspaceId, projectId)).map((row) => [row.entry_key, row]))
  const idOf = new Map<string, string>()
  for (const entry of entries) idOf.set(entry.key, existing.get(entry.key)?.id ?? newId('mem'))
  for (const entry of entries) {
    const values = {
      kind: entry.kind, statement: entry.statement, subject: entry.subject, status: entry.status, valid_from: entry.validFrom, valid_to: entry.validTo,
      superseded_by: entry.supersededBy, sources: JSON.stringify(entry.sources), note: entry.note,
    }
    const before = existing.get(entry.key)
    if (before) {
      const changed = (Object.keys(values) as (keyof typeof values)[]).some((field) => before[field] !== values[field])
      if (changed) await db.updateTable('memory_entries').set({ ...values, updated_at: now }).where('id', '=', before.id).execute()
      continue
    }
    await db.insertInto('memory_entries').values({ id: idOf.get(entry.key)!, workspace_id: workspaceId, project_id: projectId, entry_key: entry.key, ...values, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['project_id', 'entry_key']).doUpdateSet({ ...values, updated_at: now })).execute()
  }
  const gone = [...existing.values()].filter((row) => !idOf.has(row.entry_key)).map((row) => row.id)
  if (gone.length > 0) await db.deleteFrom('memory_entries').where('id', 'in', gone).execute()
}

/** Entries of the workspace whose statement or subject holds any of the words. */
export async function entriesMentioning(db: Executor, workspaceId: string, words: string[], limit = 100) {
  if (words.length === 0) return []
  return db.selectFrom('memory_entries').selectAll().where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or(words.map((word) => sql<boolean>`lower(statement) like ${like(word)} escape '\\'`))).limit(limit).execute()
}

const like = (word: string) => `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`

// ---- conflicts ----

export const listConflicts = (db: Executor, workspaceId: string, projectId: string) =>
  db.selectFrom('memory_conflicts').selectAll().where('workspace_id', '=', workspaceId).where('project_id', '=', projectId)
    .orderBy('created_at', 'asc').orderBy('id', 'asc').execute()

export const lockConflict = (db: Executor, dialect: DialectName, workspaceId: string, projectId: string, id: string) =>
  forUpdate(dialect, db.selectFrom('memory_conflicts').selectAll().where('workspace_id', '=', workspaceId).where('project_id', '=', projectId).where('id', '=', id)).executeTakeFirst()

/** Opens the derived conflicts not yet known; drops open ones no longer derived (settled by later work). */
export async function syncOpenConflicts(db: Executor, workspaceId: string, projectId: string, conflicts: DerivedConflict[], now: string, makeId: () => string) {
  const existing = new Map((await listConflicts(db, workspaceId, projectId)).map((row) => [row.conflict_key, row]))
  const derived = new Set(conflicts.map((conflict) => conflict.conflictKey))
  for (const conflict of conflicts) {
    if (existing.has(conflict.conflictKey)) continue
    await db.insertInto('memory_conflicts').values({
      id: makeId(), workspace_id: workspaceId, project_id: projectId, conflict_key: conflict.conflictKey, subject: conflict.subject,
      entry_keys: JSON.stringify(conflict.entryKeys), status: 'open', resolution: null, kept_entry_key: null, note: null,
      resolved_by: null, resolved_at: null, created_at: now, updated_at: now,
    }).onConflict((oc) => oc.columns(['project_id', 'conflict_key']).doNothing()).execute()
  }
  const stale = [...existing.values()].filter((row) => row.status === 'open' && !derived.has(row.conflict_key)).map((row) => row.id)
  if (stale.length > 0) await db.deleteFrom('memory_conflicts').where('id', 'in', stale).execute()
}

export async function settleConflict(db: Executor, id: string, values: Pick<ConflictRow, 'status' | 'resolution' | 'kept_entry_key' | 'note' | 'resolved_by' | 'resolved_at' | 'updated_at'>) {
  return db.updateTable('memory_conflicts').set(values).where('id', '=', id).where('status', '=', 'open').returningAll().executeTakeFirst()
}

// ---- external context ----

export async function insertObservation(db: Executor, row: Insertable<ExternalObservationTable>) {
  await db.insertInto('external_observations').values(row).execute()
}

export const findObservation = (db: Executor, workspaceId: string, projectId: string, id: string) =>
  db.selectFrom('external_observations').selectAll().where('workspace_id', '=', workspaceId).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst()

export const listExternalSources = (db: Executor, workspaceId: string, projectId: string) =>
  db.selectFrom('memory_external_sources').selectAll().where('workspace_id', '=', workspaceId).where('project_id', '=', projectId)
    .orderBy('bound_at', 'asc').orderBy('id', 'asc').execute()

export async function bindExternalSource(db: Executor, row: Insertable<MemoryExternalSourceTable>) {
  await db.insertInto('memory_external_sources').values(row).onConflict((oc) => oc.columns(['project_id', 'item_id']).doNothing()).execute()
  return db.selectFrom('memory_external_sources').selectAll().where('project_id', '=', row.project_id).where('item_id', '=', row.item_id).executeTakeFirstOrThrow()
}

export async function externalSourcesMentioning(db: Executor, workspaceId: string, words: string[], limit = 100) {
  if (words.length === 0) return []
  return db.selectFrom('memory_external_sources').selectAll().where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or(words.flatMap((word) => [sql<boolean>`lower(title) like ${like(word)} escape '\\'`, sql<boolean>`lower(snippet) like ${like(word)} escape '\\'`])))
    .limit(limit).execute()
}

// ---- codebases ----

export const listCodebases = async (db: Executor, workspaceId: string, projectId: string) =>
  (await db.selectFrom('memory_codebases').selectAll().where('workspace_id', '=', workspaceId).where('project_id', '=', projectId).orderBy('created_at', 'asc').execute()).map(toCodebase)

export const findCodebaseBySource = async (db: Executor, projectId: string, source: string) => {
  const row = await db.selectFrom('memory_codebases').selectAll().where('project_id', '=', projectId).where('source', '=', source).executeTakeFirst()
  return row ? toCodebase(row) : undefined
}

export async function insertCodebase(db: Executor, row: Insertable<MemoryCodebaseTable>) {
  await db.insertInto('memory_codebases').values(row).onConflict((oc) => oc.columns(['project_id', 'source']).doNothing()).execute()
}

/** Claims the codebase for indexing; undefined when another request is indexing it (since after `staleBefore`). */
export async function claimCodebase(db: Executor, id: string, now: string, staleBefore: string) {
  const row = await db.updateTable('memory_codebases').set({ state: 'indexing', updated_at: now })
    .where('id', '=', id).where((eb) => eb.or([eb('state', '!=', 'indexing'), eb('updated_at', '<', staleBefore)])).returningAll().executeTakeFirst()
  return row ? toCodebase(row) : undefined
}

export async function finishCodebase(db: Executor, id: string, values: Partial<Pick<CodebaseRow, 'state' | 'commit_sha' | 'file_count' | 'symbol_count' | 'error_code' | 'error' | 'indexed_at' | 'updated_at'>>) {
  const row = await db.updateTable('memory_codebases').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
  return toCodebase(row)
}

export async function replaceChunks(db: Executor, codebaseId: string, chunks: Insertable<MemoryCodeChunkTable>[]) {
  await db.deleteFrom('memory_code_chunks').where('codebase_id', '=', codebaseId).execute()
  for (let start = 0; start < chunks.length; start += 200) await db.insertInto('memory_code_chunks').values(chunks.slice(start, start + 200)).execute()
}

export const firstChunks = async (db: Executor, codebaseId: string, limit: number) =>
  (await db.selectFrom('memory_code_chunks').selectAll().where('codebase_id', '=', codebaseId).where('kind', '=', 'heading')
    .orderBy('path').orderBy('line').limit(limit).execute()).map(toChunk)

export async function chunksMentioning(db: Executor, workspaceId: string, words: string[], limit = 100) {
  if (words.length === 0) return []
  const rows = await db.selectFrom('memory_code_chunks').selectAll().where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or(words.flatMap((word) => [sql<boolean>`lower(name) like ${like(word)} escape '\\'`, sql<boolean>`lower(text) like ${like(word)} escape '\\'`])))
    .limit(limit).execute()
  return rows.map(toChunk)
}
