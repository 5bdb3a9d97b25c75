// Row types of the tables owned by the extraction module.
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).

export type WorkRefinementTable = {
  session_id: string
  /** idle (nothing run yet) | running | ready | failed */
  state: 'idle' | 'running' | 'ready' | 'failed'
  engine: string
  gate: number
  segments_processed: number
  items_found: number
  items_visible: number
  last_error: string | null
  last_run_at: string | null
  updated_at: string
}

export type ExtractionItemTable = {
  session_id: string
  item_key: string
  kind: string
  confidence: number
  gate: number
  hidden: number
  work_object_id: string | null
  /** JSON of the engine's ExtractedItem */
  payload: string
  created_at: string
}

export type ExtractionTables = {
  work_refinements: WorkRefinementTable
  extraction_items: ExtractionItemTable
}
