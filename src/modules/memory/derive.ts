// Derivation of a project's memory (pure): from accepted work, bound external items and indexed
// codebases to entries with validity and status, and the conflicts a person must settle. Earlier
// resolutions of a conflict are applied again, so a refresh never reopens what a person settled.
import type { MemoryEntryKind, MemoryEntryStatus } from '../../platform/db/tables.ts'
import { relate, subjectOf } from './subjects.ts'

export type MemorySource =
  | { kind: 'segment'; id: string; sessionId: string; quote: string; startMs: number }
  | { kind: 'work-object'; id: string; sessionId: string; quote: string }
  | { kind: 'external-item'; id: string; quote: string; url: string; provider: string; title: string }
  | { kind: 'file'; id: string; quote: string; path: string; line: number }

export type Candidate = {
  key: string
  kind: MemoryEntryKind
  statement: string
  validFrom: string
  sources: MemorySource[]
  /** entry keys this one replaces by a person's word (confirmed `supersedes` relation) */
  supersedes: string[]
}

export type Resolution = { conflictKey: string; status: 'open' | 'resolved' | 'dismissed'; resolution: 'keep-one' | 'keep-both' | 'dismiss' | null; keptEntryKey: string | null; note: string | null; resolvedAt: string | null }

export type DerivedEntry = Candidate & { subject: string; status: MemoryEntryStatus; validTo: string | null; supersededBy: string | null; note: string | null }
export type DerivedConflict = { conflictKey: string; subject: string; entryKeys: [string, string] }

export const conflictKeyOf = (a: string, b: string) => [a, b].sort().join('|')

const DECISION_KINDS = new Set<MemoryEntryKind>(['decision', 'rule'])
const FIGURE_KINDS = new Set<MemoryEntryKind>(['outcome', 'metric'])
const family = (kind: MemoryEntryKind) => (DECISION_KINDS.has(kind) ? 'decision' : FIGURE_KINDS.has(kind) ? 'figure' : kind)

export function deriveMemory(candidates: Candidate[], resolutions: Map<string, Resolution>): { entries: DerivedEntry[]; conflicts: DerivedConflict[] } {
  const ordered = [...candidates].sort((a, b) => a.validFrom.localeCompare(b.validFrom) || a.key.localeCompare(b.key))
  const entries: DerivedEntry[] = []
  const byKey = new Map<string, DerivedEntry>()
  const conflicts: DerivedConflict[] = []
  for (const candidate of ordered) {
    const entry: DerivedEntry = { ...candidate, subject: subjectOf(candidate.statement) || candidate.statement.slice(0, 60), status: 'current', validTo: null, supersededBy: null, note: null }
    for (const earlier of entries) {
      if (earlier.status === 'superseded') continue
      const explicit = candidate.supersedes.includes(earlier.key)
      if (!explicit && (family(earlier.kind) !== family(candidate.kind) || (family(candidate.kind) !== 'decision' && family(candidate.kind) !== 'figure'))) continue
      const relation = relate(earlier, { statement: candidate.statement, kind: candidate.kind, supersedesExplicitly: explicit })
      if (relation === 'unrelated') continue
      if (relation === 'supersedes') {
        supersede(earlier, entry)
        continue
      }
      const conflictKey = conflictKeyOf(earlier.key, entry.key)
      const settled = resolutions.get(conflictKey)
      if (settled?.status === 'dismissed' || settled?.resolution === 'dismiss') continue
      if (settled?.status === 'resolved' && settled.resolution === 'keep-both') {
        earlier.note = settled.note
        entry.note = settled.note
        continue
      }
      if (settled?.status === 'resolved' && settled.resolution === 'keep-one') {
        const kept = settled.keptEntryKey === earlier.key ? earlier : entry
        const dropped = kept === earlier ? entry : earlier
        supersede(dropped, kept, settled.resolvedAt ?? kept.validFrom)
        continue
      }
      conflicts.push({ conflictKey, subject: earlier.subject, entryKeys: [earlier.key, entry.key] })
      earlier.status = 'in-conflict'
      entry.status = 'in-conflict'
    }
    entries.push(entry)
    byKey.set(entry.key, entry)
  }
  // A conflict whose side was later replaced is no longer open: the later entry settled it.
  const live = conflicts.filter((conflict) => conflict.entryKeys.every((key) => byKey.get(key)?.status !== 'superseded'))
  const stillInConflict = new Set(live.flatMap((conflict) => conflict.entryKeys))
  for (const entry of entries) if (entry.status === 'in-conflict' && !stillInConflict.has(entry.key)) entry.status = 'current'
  return { entries, conflicts: live }
}

function supersede(earlier: DerivedEntry, later: DerivedEntry, at = later.validFrom) {
  earlier.status = 'superseded'
  earlier.validTo = at
  earlier.supersededBy = later.key
}
