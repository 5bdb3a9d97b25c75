// The `grounded-ai` extraction engine: an OpenAI-compatible chat model reads the numbered transcript
// and answers with structured items, clarify items and relations (validated against a JSON schema
// by the chat client). Every item must cite segments that exist — anything else is dropped with
// what pointed at it (validateResultCitations). Keys derive from what an item cites, so a later
// run over a longer transcript keeps the key of an item it finds again.
import { Type, type Static } from 'typebox'
import { sha256Hex } from '../../platform/ids.ts'
import type { ChatClient } from '../../platform/llm/chat.ts'
import {
  clarificationKinds, itemKinds, itemTaxonomy, relationTypes, validateResultCitations,
  type Clarification, type ExtractedItem, type ExtractionEngine, type ExtractionInput, type ExtractionResult, type Relation, type SemanticType,
} from './engine/index.ts'

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()])
const strict = { additionalProperties: false } as const
const oneOf = <const T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values] })

const Answer = Type.Object({
  items: Type.Array(Type.Object({
    kind: oneOf(itemKinds),
    semanticType: Type.String(),
    title: Type.String({ minLength: 1 }),
    summary: Type.String(),
    ownerName: Nullable(Type.String()),
    dueDate: Nullable(Type.String()),
    confidence: Type.Number(),
    sourceSegmentIds: Type.Array(Type.String()),
  }, strict)),
  clarifications: Type.Array(Type.Object({
    kind: oneOf(clarificationKinds),
    question: Type.String({ minLength: 1 }),
    itemIndexes: Type.Array(Type.Integer({ minimum: 0 })),
    sourceSegmentIds: Type.Array(Type.String()),
  }, strict)),
  relations: Type.Array(Type.Object({
    type: oneOf(relationTypes),
    fromIndex: Type.Integer({ minimum: 0 }),
    toIndex: Type.Integer({ minimum: 0 }),
    confidence: Type.Number(),
  }, strict)),
}, strict)
type Answer = Static<typeof Answer>

const SYSTEM = `You turn a meeting transcript into tracked work. Find:
- action: an explicit commitment or accepted request (semanticType task, follow-up or request), with the owner's name as said and a due date (YYYY-MM-DD) when one is said;
- decision: a choice or rule made in this meeting (choice or policy), not one recalled from earlier;
- question: a work question left open, or a risk raised (open-question or risk);
- outcome: a result or metric reported (outcome or metric);
- reference: a specific artifact pointed to (link or document).
Every item cites the ids of the transcript segments it rests on; never invent ids. Confidence is 0 to 1.
Raise clarifications for an action without an owner (missing-owner), a decision contradicting an earlier one (contradiction) or an unclear reference (ambiguous-reference), naming items by their index in your items array.
Propose relations between items by index: duplicate-of, depends-on, supersedes (a later decision replacing an earlier one).
Write titles and questions in the transcript's language.`

const keyOf = (...parts: string[]) => `ai:${sha256Hex(parts.join('|')).slice(0, 24)}`
const clamp = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 100) / 100
const DATE = /^\d{4}-\d{2}-\d{2}$/

export function groundedAiEngine(llm: ChatClient): ExtractionEngine {
  return {
    name: 'grounded-ai',
    async extract(input: ExtractionInput): Promise<ExtractionResult> {
      const transcript = input.segments.map((segment) => `[${segment.id}] ${segment.speakerLabel ?? segment.speakerId ?? 'Speaker'}: ${segment.text}`).join('\n')
      const answer = await llm.json([
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `The meeting started at ${input.meetingStartedAt}${input.timezone ? ` (${input.timezone})` : ''}.\n\nTranscript:\n${transcript}` },
      ], Answer, 'meeting_work')
      return validateResultCitations(toResult(answer), input.segments.map((segment) => segment.id))
    },
  }
}

function toResult(answer: Answer): ExtractionResult {
  const items: ExtractedItem[] = answer.items.map((raw) => {
    const taxonomy = itemTaxonomy[raw.kind]
    const semanticType = ((taxonomy.semanticTypes as readonly string[]).includes(raw.semanticType) ? raw.semanticType : taxonomy.semanticTypes[0]) as SemanticType
    return {
      key: keyOf(raw.kind, ...raw.sourceSegmentIds), kind: raw.kind, family: taxonomy.family, semanticType,
      title: raw.title.trim().slice(0, 500), summary: raw.summary.trim(),
      ...(raw.ownerName?.trim() ? { ownerName: raw.ownerName.trim() } : {}),
      ...(raw.dueDate && DATE.test(raw.dueDate) ? { dueDate: raw.dueDate } : {}),
      confidence: clamp(raw.confidence), sourceSegmentIds: [...new Set(raw.sourceSegmentIds)],
    }
  })
  const keyAt = (index: number) => items[index]?.key
  const clarifications: Clarification[] = answer.clarifications.flatMap((raw) => {
    const itemKeys = raw.itemIndexes.map(keyAt)
    if (itemKeys.length === 0 || itemKeys.some((key) => key === undefined)) return []
    return [{ key: keyOf('clarify', raw.kind, ...itemKeys as string[]), kind: raw.kind, question: raw.question.trim(), itemKeys: itemKeys as string[], sourceSegmentIds: raw.sourceSegmentIds }]
  })
  const relations: Relation[] = answer.relations.flatMap((raw) => {
    const [fromKey, toKey] = [keyAt(raw.fromIndex), keyAt(raw.toIndex)]
    if (!fromKey || !toKey || fromKey === toKey) return []
    return [{ key: keyOf('relation', raw.type, fromKey, toKey), type: raw.type, fromKey, toKey, confidence: clamp(raw.confidence) }]
  })
  return { items, clarifications, relations }
}
