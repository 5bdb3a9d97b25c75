// Row types of the tables owned by the memory module (project memory, its conflicts, external
// observations and bound sources, registered codebases and their indexed chunks).
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).

export type MemoryEntryKind = 'decision' | 'rule' | 'outcome' | 'metric' | 'reference' | 'external' | 'code'
export type MemoryEntryStatus = 'current' | 'superseded' | 'in-conflict'

/** One row per project whose memory was derived at least once. */
export type MemoryProjectTable = {
  project_id: string
  workspace_id: string
  /** what the last refresh read (work objects, bound sources, codebases): a changed value means stale */
  fingerprint: string
  last_refreshed_at: string
  created_at: string
}

export type MemoryEntryTable = {
  id: string
  workspace_id: string
  project_id: string
  /** stable key of what the entry comes from: `wo:<workObjectId>`, `ext:<sourceId>`, `code:<codebaseId>` */
  entry_key: string
  kind: MemoryEntryKind
  statement: string
  subject: string
  status: MemoryEntryStatus
  valid_from: string
  valid_to: string | null
  /** the entry key (not id) of the entry that replaced it: stable across concurrent refreshes */
  superseded_by: string | null
  /** JSON text: MemorySource[] */
  sources: string
  /** set when a person kept both sides of a conflict with a note */
  note: string | null
  created_at: string
  updated_at: string
}

export type MemoryConflictStatus = 'open' | 'resolved' | 'dismissed'

export type MemoryConflictTable = {
  id: string
  workspace_id: string
  project_id: string
  /** the two entry keys, sorted and joined: the same pair never opens twice */
  conflict_key: string
  subject: string
  /** JSON text: the two entry keys */
  entry_keys: string
  status: MemoryConflictStatus
  resolution: 'keep-one' | 'keep-both' | 'dismiss' | null
  kept_entry_key: string | null
  note: string | null
  resolved_by: string | null
  resolved_at: string | null
  created_at: string
  updated_at: string
}

export type ExternalObservationTable = {
  id: string
  workspace_id: string
  project_id: string
  query: string
  /** JSON text: the connections asked */
  connection_ids: string
  /** JSON text: ExternalItem[] as they came back */
  items: string
  /** why there are no items (no connector, no permitted connection), when there are none */
  reason: string | null
  created_by: string
  created_at: string
}

export type MemoryExternalSourceTable = {
  id: string
  workspace_id: string
  project_id: string
  observation_id: string
  item_id: string
  connection_id: string
  provider: string
  kind: string
  title: string
  snippet: string
  url: string
  bound_by: string
  bound_at: string
}

export type CodebaseState = 'indexing' | 'ready' | 'failed'

export type MemoryCodebaseTable = {
  id: string
  workspace_id: string
  project_id: string
  /** a local path or a file:// git URL, as registered */
  source: string
  state: CodebaseState
  commit_sha: string | null
  file_count: number
  symbol_count: number
  error_code: string | null
  error: string | null
  indexed_at: string | null
  created_by: string
  created_at: string
  updated_at: string
}

export type MemoryCodeChunkTable = {
  id: string
  codebase_id: string
  workspace_id: string
  project_id: string
  path: string
  line: number
  end_line: number
  /** function | class | method | interface | type | variable | heading | paragraph */
  kind: string
  /** the symbol's name or the heading */
  name: string
  text: string
}

export type MemoryTables = {
  memory_projects: MemoryProjectTable
  memory_entries: MemoryEntryTable
  memory_conflicts: MemoryConflictTable
  external_observations: ExternalObservationTable
  memory_external_sources: MemoryExternalSourceTable
  memory_codebases: MemoryCodebaseTable
  memory_code_chunks: MemoryCodeChunkTable
}
