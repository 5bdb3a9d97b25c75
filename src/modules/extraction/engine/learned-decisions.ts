// Decisions the rules did not find, from the learned detector (decision-model.ts). A sentence whose
// score reaches the model's threshold becomes a decision draft keyed where it was said. Its score may
// use the first sentence of the next turn by someone else (the agreement): the draft then appears
// when that sentence arrives. Once a draft exists on a prefix it exists on every longer one (it is
// kept when either score, without or with the next turn, reached the threshold); what later words
// tell only moves it below the quality gate: the rules found the decision there, a better sentence
// of the same turn or a learned decision just before carries it, or the next turn's reply lowered it.
import { isOnlyADeadline } from './classify.ts'
import type { Draft } from './drafts.ts'
import { decisionUnits, scoreFeatures, unitFeatures, type DecisionModel } from './decision-model.ts'
import { speakerOf, type People } from './owners.ts'
import { contentTokens, detectLanguage, overlapCoefficient, termVector } from './text.ts'
import { truncate } from './titles.ts'
import { DEFAULT_QUALITY_GATE, type TranscriptSegmentInput } from './types.ts'

const HIDDEN = 0.3
const MAX_TITLE = 90
/** Turns on either side within which a decision the rules (or this detector) already hold covers a sentence. */
const COVERED_WITHIN = 1
/** Turns after a sentence within which a rule decision on the same topic covers it. */
const SETTLED_WITHIN = 8

export type LearnedOptions = { model: DecisionModel; mode: 'both' | 'learned' }

export function learnedDecisions(segments: TranscriptSegmentInput[], turnOf: number[], people: People, drafts: Draft[], options: LearnedOptions): Draft[] {
  const { model } = options
  const ruled = options.mode === 'both' ? drafts.filter((draft) => draft.kind === 'decision' && draft.confidence >= DEFAULT_QUALITY_GATE) : []
  // What the rules read as another kind of item (work taken, a question or put-off, a result) is not a decision.
  const otherwise = new Map<string, string[]>()
  for (const draft of drafts) {
    if (draft.kind === 'decision' || draft.confidence < DEFAULT_QUALITY_GATE) continue
    for (const mention of draft.mentions) otherwise.set(mention.segmentId, [...(otherwise.get(mention.segmentId) ?? []), mention.text])
  }
  const readAsOther = (segmentId: string, text: string) => /[?？]\s*$/u.test(text) || isOnlyADeadline(text) || (otherwise.get(segmentId) ?? []).some((clause) => clause.length > 0 && text.includes(clause))
  const scored = decisionUnits(segments, turnOf).map((unit) => {
    const without = scoreFeatures(model, unitFeatures(unit, false))
    const score = unit.after === undefined ? without : scoreFeatures(model, unitFeatures(unit, true))
    return { unit, score, kept: Math.max(without, score) >= model.threshold }
  })
  const bestOfTurn = new Map<number, number>()
  for (const { unit, score } of scored) bestOfTurn.set(unit.turn, Math.max(bestOfTurn.get(unit.turn) ?? 0, score))
  const learned: Draft[] = []
  for (const { unit, score, kept } of scored) {
    if (!kept) continue
    const segment = segments[unit.position]!
    const language = detectLanguage(unit.text, segment.language)
    const topic = termVector(contentTokens(unit.text))
    const near = (draft: Draft) => draft.mentions.some((mention) => Math.abs(mention.segmentIndex - unit.turn) <= COVERED_WITHIN)
    // A proposal the rules find settled a few turns on ("…" — "Fine, Halden for the first five thousand then"): theirs.
    const settledLater = (draft: Draft) => overlapCoefficient(draft.topic, topic) > 0
      && draft.mentions.some((mention) => mention.segmentIndex > unit.turn && mention.segmentIndex - unit.turn <= SETTLED_WITHIN)
    const covered = ruled.some((draft) => near(draft) || settledLater(draft)) || learned.some((draft) => draft.confidence >= DEFAULT_QUALITY_GATE && near(draft))
    const visible = score >= model.threshold && score >= bestOfTurn.get(unit.turn)! && !covered && !readAsOther(segment.id, unit.text)
    const confidence = visible ? Math.round(Math.min(0.9, 0.55 + 0.35 * (score - model.threshold) / Math.max(0.01, 1 - model.threshold)) * 100) / 100 : HIDDEN
    const title = truncate(unit.text.trim().replace(/[\s。.!！?？]+$/u, '').replace(/^./, (first) => first.toUpperCase()), MAX_TITLE)
    learned.push({
      order: drafts.length + learned.length, kind: 'decision', semanticType: 'choice', confidence,
      anchor: `${segment.id}#learned${unit.sentenceIndex}`, language, topic,
      mentions: [{ segmentIndex: unit.turn, segmentId: segment.id, speaker: speakerOf(people, segment), text: unit.text.trim(), title, topicSize: topic.size, referring: false }],
      isAccepted: false, isOpen: false, hasUnresolvedReference: false, isRevision: false, isExplicitlyOpen: false, isProposal: false, asksWhen: false,
      firstSegmentIndex: unit.turn, lastSegmentIndex: unit.turn,
    })
  }
  return learned
}
