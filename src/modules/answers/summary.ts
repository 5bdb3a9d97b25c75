// Transcript summaries (DESIGN §8): what the transcript says about one work item, anchored on the
// segment it came from. `extractive` (default): the sentences nearest the anchor and most like the
// item's text, each citing its segment. `grounded-ai` (LLM configured): the model writes the
// summary from numbered segments and must cite them; an answer citing anything else is rejected
// and the extractive summary is given instead. `no-evidence` when the transcript says nothing of it.
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import type { Membership } from '../../platform/auth/actor.ts'
import { notFound } from '../../platform/http/errors.ts'
import { LlmError, type ChatClient } from '../../platform/llm/chat.ts'
import { contentTokens, cosine, splitSentences, termVector } from '../extraction/index.ts'
import { findSessionRow } from '../sessions/index.ts'
import { finalSegments, type SegmentRow } from '../transcripts/index.ts'

export type SummaryLocale = 'en' | 'zh-Hans'
export type SummaryInput = { segmentId: string; itemText: string; locale: SummaryLocale }
export type SummaryPoint = { text: string; sourceSegmentIds: string[] }
export type TranscriptSummary = {
  status: 'answered' | 'no-evidence'
  summary: { text: string; points: SummaryPoint[]; sourceSegmentIds: string[] }
  generatedBy: 'extractive' | 'grounded-ai'
}

/** segments either side of the anchor that count as its context */
const NEIGHBOURS = 4
const MAX_POINTS = 3
/** below this likeness to the item, a sentence is not evidence (unless it is in the anchor segment) */
const RELEVANT = 0.08

type Sentence = { text: string; segmentId: string; position: number; relevance: number; score: number }

const HAN = /\p{Script=Han}/u
const isChinese = (text: string) => HAN.test(text)

/**
 * The summary text in the asked language. Extractive quotes the transcript as it was said; asked
 * in zh-Hans about an English (or mixed) transcript, the text frames the quotes in Chinese rather
 * than answering in English.
 */
function joinFor(locale: SummaryLocale, parts: string[]): string {
  if (locale !== 'zh-Hans') return parts.join(' ')
  if (parts.every(isChinese)) return parts.join('')
  return `会议中提到：${parts.map((part) => (isChinese(part) ? part : `“${part}”`)).join('；')}`
}
const empty = (generatedBy: TranscriptSummary['generatedBy']): TranscriptSummary =>
  ({ status: 'no-evidence', summary: { text: '', points: [], sourceSegmentIds: [] }, generatedBy })

function candidates(segments: SegmentRow[], anchorIndex: number, itemText: string): Sentence[] {
  const item = termVector(contentTokens(itemText))
  const sentences: Sentence[] = []
  segments.forEach((segment, position) => {
    const distance = Math.abs(position - anchorIndex)
    for (const text of splitSentences(segment.text)) {
      const relevance = cosine(item, termVector(contentTokens(text)))
      const proximity = distance === 0 ? 0.3 : distance <= NEIGHBOURS ? 0.15 / distance : 0
      sentences.push({ text, segmentId: segment.id, position, relevance, score: relevance + proximity })
    }
  })
  return sentences
}

export function extractiveSummary(segments: SegmentRow[], anchorId: string, input: SummaryInput): TranscriptSummary {
  const anchorIndex = segments.findIndex((segment) => segment.id === anchorId)
  const sentences = candidates(segments, anchorIndex, input.itemText)
  const evidence = sentences.filter((sentence) => sentence.relevance >= RELEVANT)
  if (evidence.length === 0) return empty('extractive')
  const chosen = sentences
    .filter((sentence) => sentence.relevance >= RELEVANT || (sentence.position === anchorIndex && sentence.relevance > 0))
    .sort((a, b) => b.score - a.score).slice(0, MAX_POINTS)
    .sort((a, b) => a.position - b.position)
  const points = chosen.map((sentence) => ({ text: sentence.text, sourceSegmentIds: [sentence.segmentId] }))
  return {
    status: 'answered',
    summary: { text: joinFor(input.locale, chosen.map((sentence) => sentence.text)), points, sourceSegmentIds: [...new Set(chosen.map((sentence) => sentence.segmentId))] },
    generatedBy: 'extractive',
  }
}

const GroundedAnswer = Type.Object({
  status: Type.Union([Type.Literal('answered'), Type.Literal('no-evidence')]),
  text: Type.String(),
  points: Type.Array(Type.Object({ text: Type.String(), sourceSegmentIds: Type.Array(Type.String()) }, { additionalProperties: false })),
}, { additionalProperties: false })

/** The model's summary, or undefined when it failed or cited anything but the given segments. */
async function groundedSummary(llm: ChatClient, segments: SegmentRow[], anchorIndex: number, input: SummaryInput): Promise<TranscriptSummary | undefined> {
  const sentences = candidates(segments, anchorIndex, input.itemText)
  const wanted = new Set<number>()
  for (let position = anchorIndex - NEIGHBOURS; position <= anchorIndex + NEIGHBOURS; position += 1) if (segments[position]) wanted.add(position)
  for (const sentence of [...sentences].sort((a, b) => b.relevance - a.relevance).slice(0, 8)) if (sentence.relevance > 0) wanted.add(sentence.position)
  const given = [...wanted].sort((a, b) => a - b).map((position) => segments[position]!)
  const language = input.locale === 'zh-Hans' ? 'Simplified Chinese' : 'English'
  try {
    const answer = await llm.json([
      { role: 'system', content: `You summarize what a meeting transcript says about one work item, in ${language}. Use only the numbered transcript segments given. Every point must cite the ids of the segments it rests on. If the segments say nothing about the item, answer status "no-evidence" with empty text and no points.` },
      { role: 'user', content: `Work item: ${input.itemText}\nIt was raised in segment ${segments[anchorIndex]!.id}.\n\nTranscript segments:\n${given.map((segment) => `[${segment.id}] ${segment.speaker_id ?? 'speaker'}: ${segment.text}`).join('\n')}` },
    ], GroundedAnswer, 'transcript_summary')
    if (answer.status === 'no-evidence') return empty('grounded-ai')
    const allowed = new Set(given.map((segment) => segment.id))
    const cited = answer.points.flatMap((point) => point.sourceSegmentIds)
    // Grounding: no point without a citation, no citation outside the transcript given.
    if (answer.points.length === 0 || answer.points.some((point) => point.sourceSegmentIds.length === 0) || cited.some((id) => !allowed.has(id))) return undefined
    // Asked in zh-Hans, a summary with no Chinese in it is in the wrong language.
    if (input.locale === 'zh-Hans' && !isChinese(answer.text)) return undefined
    return { status: 'answered', summary: { text: answer.text, points: answer.points, sourceSegmentIds: [...new Set(cited)] }, generatedBy: 'grounded-ai' }
  } catch (error) {
    if (error instanceof LlmError) return undefined
    throw error
  }
}

export async function summarizeForItem(deps: AppDeps, membership: Membership, sessionId: string, input: SummaryInput): Promise<TranscriptSummary> {
  const session = await findSessionRow(deps.database.db, membership.workspaceId, sessionId) ?? notFound('session', sessionId)
  const segments = await finalSegments(deps.database.db, session.id)
  const anchorIndex = segments.findIndex((segment) => segment.id === input.segmentId)
  if (anchorIndex === -1) return notFound('transcript segment of this session', input.segmentId)
  if (deps.llm) {
    const grounded = await groundedSummary(deps.llm, segments, anchorIndex, input)
    if (grounded) return grounded
  }
  return extractiveSummary(segments, input.segmentId, input)
}
