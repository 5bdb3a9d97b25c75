// The extraction engine contract: transcript segments in, proposed work items, clarify items and
// relations out. Pure data; `extractive` (built in) and `grounded-ai` (an LLM) both implement it.
import { CLARIFICATION_KINDS, RELATION_TYPES, WORK_KINDS, WORK_TAXONOMY, type ClarificationKind, type RelationType, type SemanticType, type SemanticTypeOf, type WorkFamily, type WorkKind } from '../../../domain/vocabulary.ts'

export type TranscriptSegmentInput = {
  id: string
  text: string
  speakerId?: string
  speakerLabel?: string
  startMs: number
  endMs: number
  /** BCP 47 tag of the segment (`en`, `zh-Hans`); guessed from the text when absent. */
  language?: string
  /** The speech recognizer's confidence in the segment's words (0–1); absent for typed text. */
  confidence?: number
}

export type MeetingParticipant = { speakerId?: string; name: string; accountId?: string }

export type ExtractionInput = {
  segments: TranscriptSegmentInput[]
  participants?: MeetingParticipant[]
  /** ISO 8601 instant; relative due dates ("by Friday", "明天") count from its local date. */
  meetingStartedAt: string
  /** IANA time zone of the meeting; UTC when absent or unknown. */
  timezone?: string
  /** Language of generated text (clarify questions); the transcript's when absent. */
  locale?: string
}

// Kinds and their taxonomy are Confer's shared vocabulary (src/domain/vocabulary.ts).
export const itemKinds = WORK_KINDS
export type ItemKind = WorkKind
export const itemTaxonomy = WORK_TAXONOMY
export type ItemFamily = WorkFamily
export type { SemanticType, SemanticTypeOf }

export type ExtractedItem = {
  /** Deterministic: the same transcript (or a longer one) gives the same key to the same item. */
  key: string
  kind: ItemKind
  family: ItemFamily
  semanticType: SemanticType
  title: string
  summary: string
  ownerName?: string
  ownerSpeakerId?: string
  ownerAccountId?: string
  /** ISO date (YYYY-MM-DD), local to the meeting's time zone. */
  dueDate?: string
  /** 0..1; the service hides items below its quality gate. */
  confidence: number
  /** Non-empty; only ids of the input segments, in transcript order. */
  sourceSegmentIds: string[]
}

export const clarificationKinds = CLARIFICATION_KINDS
export type { ClarificationKind }

export type Clarification = {
  key: string
  kind: ClarificationKind
  question: string
  itemKeys: string[]
  sourceSegmentIds: string[]
}

export const relationTypes = RELATION_TYPES
export type { RelationType }

export type Relation = { key: string; type: RelationType; fromKey: string; toKey: string; confidence: number }

export type ExtractionResult = { items: ExtractedItem[]; clarifications: Clarification[]; relations: Relation[] }

export type ExtractionEngineName = 'extractive' | 'grounded-ai'

/** What the service calls, while recording (on the transcript so far) and when the session ends. */
export type ExtractionEngine = {
  name: ExtractionEngineName
  extract(input: ExtractionInput): Promise<ExtractionResult>
}

/** Items below this confidence are stored but hidden (the service may configure its own gate). */
export const DEFAULT_QUALITY_GATE = 0.5
