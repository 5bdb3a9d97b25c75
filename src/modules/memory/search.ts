// What answers read of memory: entries, bound external items and code chunks of the workspace
// that mention any of the words (every project of the workspace: projects grant no permission).
import type { AppDeps } from '../../platform/deps.ts'
import type { MemorySource } from './derive.ts'
import * as repo from './repo.ts'

export type MemoryHit =
  | { kind: 'memory-entry'; id: string; projectId: string; text: string; status: string; entryKind: string; validFrom: string; sources: MemorySource[] }
  | { kind: 'external-item'; id: string; projectId: string; text: string; title: string; url: string; provider: string }
  | { kind: 'file'; id: string; projectId: string; text: string; path: string; line: number; name: string }

export async function searchMemory(deps: AppDeps, workspaceId: string, words: string[]): Promise<MemoryHit[]> {
  const { db } = deps.database
  const [entries, external, chunks] = await Promise.all([
    repo.entriesMentioning(db, workspaceId, words), repo.externalSourcesMentioning(db, workspaceId, words), repo.chunksMentioning(db, workspaceId, words),
  ])
  return [
    ...entries.map((row) => ({ kind: 'memory-entry' as const, id: row.id, projectId: row.project_id, text: row.statement, status: row.status, entryKind: row.kind, validFrom: row.valid_from, sources: JSON.parse(row.sources) as MemorySource[] })),
    ...external.map((row) => ({ kind: 'external-item' as const, id: row.item_id, projectId: row.project_id, text: `${row.title}. ${row.snippet}`, title: row.title, url: row.url, provider: row.provider })),
    ...chunks.map((row) => ({ kind: 'file' as const, id: row.id, projectId: row.project_id, text: row.kind === 'heading' || row.kind === 'paragraph' ? row.text : `${row.name} ${row.text}`, path: row.path, line: row.line, name: row.name })),
  ]
}
