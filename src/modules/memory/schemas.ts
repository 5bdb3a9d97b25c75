// TypeBox schemas of the memory routes (Projects and memory).
import { Type, type Static } from 'typebox'

const literals = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
const Id = Type.String({ minLength: 1, maxLength: 80 })

export const ProjectParams = Type.Object({ projectId: Id })
export const ConflictParams = Type.Object({ projectId: Id, conflictId: Id })

export const MemorySource = Type.Object({
  kind: literals(['segment', 'work-object', 'external-item', 'file'] as const),
  id: Type.String(),
  quote: Type.String({ description: 'The words of the source the entry rests on.' }),
  sessionId: Type.Optional(Type.String({ description: 'segment, work-object: the session to open.' })),
  startMs: Type.Optional(Type.Number({ description: 'segment: where in the recording.' })),
  url: Type.Optional(Type.String({ description: 'external-item: where the item lives in its tool.' })),
  provider: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  path: Type.Optional(Type.String({ description: 'file: path in the codebase.' })),
  line: Type.Optional(Type.Integer({ description: 'file: 1-based line.' })),
}, { $id: 'MemorySource' })

export const ProjectMemoryEntry = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  kind: literals(['decision', 'rule', 'outcome', 'metric', 'reference', 'external', 'code'] as const),
  statement: Type.String(),
  subject: Type.String(),
  status: literals(['current', 'superseded', 'in-conflict'] as const),
  validFrom: Type.String({ format: 'date-time' }),
  validTo: Type.Optional(Type.String({ format: 'date-time', description: 'When a later entry (or a resolution) replaced it.' })),
  supersededById: Type.Optional(Type.String()),
  conflictIds: Type.Array(Type.String(), { description: 'Open conflicts this entry is a side of.' }),
  note: Type.Optional(Type.String({ description: 'The note a person left keeping both sides of a conflict.' })),
  sources: Type.Array(Type.Ref('MemorySource')),
  updatedAt: Type.String({ format: 'date-time' }),
}, { $id: 'ProjectMemoryEntry' })

export const MemoryConflictSide = Type.Object({
  entryId: Type.String(), statement: Type.String(), validFrom: Type.String({ format: 'date-time' }), sources: Type.Array(Type.Ref('MemorySource')),
})

export const MemoryConflict = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  subject: Type.String(),
  status: literals(['open', 'resolved', 'dismissed'] as const),
  sides: Type.Array(MemoryConflictSide),
  resolution: Type.Optional(literals(['keep-one', 'keep-both', 'dismiss'] as const)),
  keptEntryId: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
  resolvedBy: Type.Optional(Type.String()),
  resolvedAt: Type.Optional(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
}, { $id: 'MemoryConflict' })

export const Codebase = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  source: Type.String(),
  state: literals(['indexing', 'ready', 'failed'] as const),
  commitSha: Type.Optional(Type.String()),
  fileCount: Type.Integer(),
  symbolCount: Type.Integer(),
  errorCode: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  indexedAt: Type.Optional(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
}, { $id: 'MemoryCodebase' })

export const ProjectMemory = Type.Object({
  projectId: Type.String(),
  entries: Type.Array(Type.Ref('ProjectMemoryEntry')),
  conflicts: Type.Array(Type.Ref('MemoryConflict'), { description: 'Open conflicts first, then settled ones.' }),
  codebases: Type.Array(Type.Ref('MemoryCodebase')),
  lastRefreshedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null before the first refresh.' }),
}, { $id: 'ProjectMemory' })

export const ResolveConflictBody = Type.Object({
  resolution: literals(['keep-one', 'keep-both', 'dismiss'] as const),
  keepEntryId: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'keep-one: the side that stays current.' })),
  note: Type.Optional(Type.String({ maxLength: 2000, description: 'keep-both: why both hold (required there).' })),
}, { additionalProperties: false })

export const ExternalContextQueryBody = Type.Object({
  query: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  workObjectId: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'Ask about this work object (its title and summary) instead of, or besides, a query.' })),
  connectionIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 20 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
}, { additionalProperties: false })

export const ExternalItem = Type.Object({
  itemId: Type.String(), connectionId: Type.String(), provider: Type.String(), kind: Type.String(),
  title: Type.String(), snippet: Type.String(), url: Type.String(), updatedAt: Type.Optional(Type.String()),
}, { $id: 'ExternalContextItem' })

export const ExternalContextResult = Type.Object({
  observationId: Type.String(),
  projectId: Type.String(),
  query: Type.String(),
  items: Type.Array(Type.Ref('ExternalContextItem')),
  connectionIds: Type.Array(Type.String(), { description: 'The connections that were asked.' }),
  reason: Type.Optional(literals(['no-connector', 'no-permitted-connection'] as const, { description: 'Why no items came back: no connector is installed, or the project may use no connection.' })),
  observedAt: Type.String({ format: 'date-time' }),
})

export const ExternalSourcesBody = Type.Object({
  observationId: Type.String({ minLength: 1, maxLength: 80 }),
  itemIds: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { minItems: 1, maxItems: 50 }),
  confirmSourceBound: Type.Literal(true),
}, { additionalProperties: false })

export const ExternalMemorySource = Type.Object({
  id: Type.String(), projectId: Type.String(), observationId: Type.String(), itemId: Type.String(), connectionId: Type.String(),
  provider: Type.String(), kind: Type.String(), title: Type.String(), snippet: Type.String(), url: Type.String(),
  boundBy: Type.String(), boundAt: Type.String({ format: 'date-time' }),
}, { $id: 'ExternalMemorySource' })

export const CodebaseBody = Type.Object({
  source: Type.String({ minLength: 1, maxLength: 1000, description: 'An absolute local path of a git working tree or repository, or a file:// git URL the server clones.' }),
  reindex: Type.Optional(Type.Boolean({ default: false, description: 'Index again a codebase already registered.' })),
}, { additionalProperties: false })

export type ResolveConflictInput = Static<typeof ResolveConflictBody>
export type ExternalContextQueryInput = Static<typeof ExternalContextQueryBody>
export type ExternalSourcesInput = Static<typeof ExternalSourcesBody>
export type CodebaseInput = Static<typeof CodebaseBody>

export const memorySchemas = [MemorySource, ProjectMemoryEntry, MemoryConflict, Codebase, ProjectMemory, ExternalItem, ExternalMemorySource]
