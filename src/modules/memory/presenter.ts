// Rows of the memory tables → API shapes.
import type { MemorySource } from './derive.ts'
import type { CodebaseRow, ConflictRow, EntryRow, ExternalSourceRow } from './repo.ts'

export function presentEntry(row: EntryRow, openConflictIds: string[], idOfKey: (key: string) => string | undefined) {
  const supersededById = row.superseded_by ? idOfKey(row.superseded_by) : undefined
  return {
    id: row.id, projectId: row.project_id, kind: row.kind, statement: row.statement, subject: row.subject, status: row.status,
    validFrom: row.valid_from, ...(row.valid_to ? { validTo: row.valid_to } : {}), ...(supersededById ? { supersededById } : {}),
    conflictIds: openConflictIds, ...(row.note ? { note: row.note } : {}), sources: JSON.parse(row.sources) as MemorySource[], updatedAt: row.updated_at,
  }
}

export function presentConflict(row: ConflictRow, entriesByKey: Map<string, EntryRow>) {
  const keys = JSON.parse(row.entry_keys) as string[]
  const sides = keys.flatMap((key) => {
    const entry = entriesByKey.get(key)
    return entry ? [{ entryId: entry.id, statement: entry.statement, validFrom: entry.valid_from, sources: JSON.parse(entry.sources) as MemorySource[] }] : []
  })
  const kept = row.kept_entry_key ? entriesByKey.get(row.kept_entry_key)?.id : undefined
  return {
    id: row.id, projectId: row.project_id, subject: row.subject, status: row.status, sides,
    ...(row.resolution ? { resolution: row.resolution } : {}), ...(kept ? { keptEntryId: kept } : {}), ...(row.note ? { note: row.note } : {}),
    ...(row.resolved_by ? { resolvedBy: row.resolved_by } : {}), ...(row.resolved_at ? { resolvedAt: row.resolved_at } : {}),
    createdAt: row.created_at, updatedAt: row.updated_at,
  }
}

export const presentCodebase = (row: CodebaseRow) => ({
  id: row.id, projectId: row.project_id, source: row.source, state: row.state, ...(row.commit_sha ? { commitSha: row.commit_sha } : {}),
  fileCount: row.file_count, symbolCount: row.symbol_count, ...(row.error_code ? { errorCode: row.error_code } : {}), ...(row.error ? { error: row.error } : {}),
  ...(row.indexed_at ? { indexedAt: row.indexed_at } : {}), createdAt: row.created_at, updatedAt: row.updated_at,
})

export const presentExternalSource = (row: ExternalSourceRow) => ({
  id: row.id, projectId: row.project_id, observationId: row.observation_id, itemId: row.item_id, connectionId: row.connection_id,
  provider: row.provider, kind: row.kind, title: row.title, snippet: row.snippet, url: row.url, boundBy: row.bound_by, boundAt: row.bound_at,
})
