// Items of one kind the rules did not find, from a learned detector of that kind (decision-model.ts:
// the same sentence units, features and training for every kind; twelfth pass, docs/extraction.md).
// A sentence whose score reaches the model's threshold becomes a draft of that kind keyed where it
// was said. Its score may use the first sentence of the next turn by someone else: the draft then
// appears when that sentence arrives. Once a draft exists on a prefix it exists on every longer one
// (it is kept when either score, without or with the next turn, reached the threshold); what later
// words tell only moves it below the quality gate: the rules found an item of that kind there, a
// better sentence of the same turn or a learned item just before carries it, the rules read the
// sentence as another kind of item, or the next turn's reply lowered it.
import { isOnlyADeadline, keepsWatching, othersConfirmed, runsTheMeeting } from './classify.ts'
import { englishCues } from './cues-en.ts'
import { chineseCues } from './cues-zh.ts'
import type { Draft } from './drafts.ts'
import { decisionUnits, scoreFeatures, unitFeatures, wordsOf, type DecisionModel } from './decision-model.ts'
import { speakerOf, type People } from './owners.ts'
import { contentTokens, detectLanguage, overlapCoefficient, termVector } from './text.ts'
import { truncate } from './titles.ts'
import { DEFAULT_QUALITY_GATE, type SemanticType, type TranscriptSegmentInput } from './types.ts'

/** The kinds a learned detector exists for. */
export type LearnedKind = 'decision' | 'outcome' | 'question'
/**
 * `both`: the rules and the detector; `learned`: the detector alone (evaluation). `veto`: an English
 * rule item of the kind whose cited segments all score below it sinks below the gate (measured in the
 * fourteenth pass, docs/extraction.md, and not shipped: it drops rule decisions the engine tests hold).
 */
export type LearnedOptions = { model: DecisionModel; mode: 'both' | 'learned'; veto?: number }

const HIDDEN = 0.3
/** Content words a sentence needs before the decision detector alone may call it a decision. */
const MIN_DECISION_WORDS = 3
/** The same for a result the outcome detector alone finds ("For and", "Five didn't", "A lot of calls": misheard fragments; sixteenth pass). */
const MIN_OUTCOME_WORDS = 3
const MAX_TITLE = 90
/** Turns on either side within which an item of the kind the rules (or this detector) already hold covers a sentence. */
const COVERED_WITHIN = 1

type KindRules = {
  semanticType: (text: string) => SemanticType
  /** A sentence that is no item of this kind whatever its score. */
  never: (text: string) => boolean
  /** Turns after a sentence within which a rule item on the same topic covers it (a proposal settled later). */
  settledWithin: number
  /** Turns before a sentence within which an item of the kind already found on the same topic covers it (the choice said again). */
  restatedWithin: number
  /** A sentence in the turn that answers a question is that question's reply, not a second item (the question is the item). */
  notInReplies?: boolean
}

/** "Keep an eye on it", "Let's flag it then": watching a question, not deciding it. */
const WATCHES = /\b(?:keep an eye on|keep watching|flag (?:it|that|this))\b/i
const recalled = (text: string) => englishCues.decisionRecalled.test(text.toLowerCase()) || chineseCues.decisionRecalled.test(text)
const asks = (text: string) => /[?？]\s*$/u.test(text)
/** A proposal or question heard without its question mark ("What if we put a Saturday shift on line three."): no decision yet. */
export const PROPOSES = /^(?:[\w'-]+,?\s+){0,2}?(?:what if|how about|what about|could we|can we|should we|shall we|why don't we|why not|we could|we might|maybe we|i was thinking|i was wondering|i'm wondering)\b/i
const RISK = /\b(?:risk|risky|worr(?:y|ied|ies)|concern(?:ed)?|afraid|might not|could slip|tight)\b|风险|担心/u

const KINDS: Record<LearnedKind, KindRules> = {
  // A question, a bare deadline ("let's say by the ninth") or a decision recalled from an earlier
  // meeting ("we decided last quarter to…", "上次已经定了…") is no decision of this meeting.
  // Fewer than three content words ("Monday.", "Not keep.", "Eleven and a half.") is left to the rules, which read
  // a short reply with the proposal it answers: alone, in speech, it is mostly a misheard fragment (fifteenth pass).
  // A sentence restating a choice found up to 4 turns before ("Every week, yeah", "Then yes, convert the
  // aviary") is not a second decision (fourteenth pass).
  decision: { semanticType: () => 'choice', never: (text) => asks(text) || PROPOSES.test(text) || isOnlyADeadline(text) || runsTheMeeting(text) || othersConfirmed(text) || recalled(text) || WATCHES.test(text) || keepsWatching(text) || contentTokens(text).length < MIN_DECISION_WORDS, settledWithin: 8, restatedWithin: 4 },
  outcome: { semanticType: (text) => (wordsOf(text).includes('#') ? 'metric' : 'outcome'), never: (text) => asks(text) || recalled(text) || contentTokens(text).length < MIN_OUTCOME_WORDS, settledWithin: 0, restatedWithin: 0 },
  question: { semanticType: (text) => (!asks(text) && RISK.test(text.toLowerCase()) ? 'risk' : 'open-question'), never: () => false, settledWithin: 0, restatedWithin: 0, notInReplies: true },
}

export function learnedDrafts(kind: LearnedKind, segments: TranscriptSegmentInput[], turnOf: number[], people: People, drafts: Draft[], options: LearnedOptions): Draft[] {
  const { model } = options
  const rules = KINDS[kind]
  const units = decisionUnits(segments, turnOf)
  const { veto = 0 } = options
  if (veto > 0 && options.mode === 'both') {
    // The rules' items of the kind the model reads as none where they are cited (each segment's best sentence, with the reply once it arrived).
    const bySegment = new Map<string, number>()
    for (const unit of units) bySegment.set(unit.segmentId, Math.max(bySegment.get(unit.segmentId) ?? 0, scoreFeatures(model, unitFeatures(unit, unit.after !== undefined))))
    for (const draft of drafts) {
      // English only: the model has seen few Chinese decisions and scores most of them near its bias.
      if (draft.kind !== kind || draft.confidence < DEFAULT_QUALITY_GATE || draft.language !== 'en') continue
      if (Math.max(...draft.mentions.map((mention) => bySegment.get(mention.segmentId) ?? 1)) < veto) draft.confidence = HIDDEN
    }
  }
  const ruled = options.mode === 'both' ? drafts.filter((draft) => draft.kind === kind && draft.confidence >= DEFAULT_QUALITY_GATE) : []
  // The turns that answer a question asked in the turn before them.
  const replies = new Set<number>()
  if (rules.notInReplies) segments.forEach((segment, index) => { if (asks(segment.text) && turnOf[index + 1] === turnOf[index]! + 1) replies.add(turnOf[index]! + 1) })
  // What the rules read as another kind of item (work taken, a question or put-off, a result, a choice) is not this kind;
  // a result may name its record ("the reset failed again, same bug, live 2291"), so a reference does not rule out an outcome.
  const otherwise = new Map<string, string[]>()
  for (const draft of drafts) {
    if (draft.kind === kind || draft.confidence < DEFAULT_QUALITY_GATE || (kind === 'outcome' && draft.kind === 'reference')) continue
    for (const mention of draft.mentions) otherwise.set(mention.segmentId, [...(otherwise.get(mention.segmentId) ?? []), mention.text])
  }
  // Compared by their words: a clause joined with its condition ("once X, Maria will…") loses the comma the sentence has.
  const plain = (text: string) => ` ${wordsOf(text).join(' ')} `
  const readAsOther = (segmentId: string, text: string) => {
    if (rules.never(text)) return true
    const sentence = plain(text)
    return (otherwise.get(segmentId) ?? []).map(plain).some((clause) => clause.trim().length > 0 && sentence.includes(clause))
  }
  const scored = units.map((unit) => {
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
    // An item on the same topic mentioned between `from` and `to` turns away (negative: before the sentence).
    const onTopicWithin = (draft: Draft, from: number, to: number) => from <= to && overlapCoefficient(draft.topic, topic) > 0
      && draft.mentions.some((mention) => mention.segmentIndex - unit.turn >= from && mention.segmentIndex - unit.turn <= to)
    const settledLater = (draft: Draft) => onTopicWithin(draft, 1, rules.settledWithin)
    const restated = (draft: Draft) => onTopicWithin(draft, -rules.restatedWithin, -1)
    const covered = ruled.some((draft) => near(draft) || settledLater(draft) || restated(draft)) || replies.has(unit.turn) || learned.some((draft) => draft.confidence >= DEFAULT_QUALITY_GATE && (near(draft) || restated(draft)))
    const visible = score >= model.threshold && score >= bestOfTurn.get(unit.turn)! && !covered && !readAsOther(segment.id, unit.text)
    const confidence = visible ? Math.round(Math.min(0.9, 0.55 + 0.35 * (score - model.threshold) / Math.max(0.01, 1 - model.threshold)) * 100) / 100 : HIDDEN
    const title = truncate(unit.text.trim().replace(/[\s。.!！?？]+$/u, '').replace(/^./, (first) => first.toUpperCase()), MAX_TITLE)
    learned.push({
      order: drafts.length + learned.length, kind, semanticType: rules.semanticType(unit.text), confidence,
      // Decisions keep the anchor they had before other kinds were learned (their keys do not move).
      anchor: `${segment.id}#learned${kind === 'decision' ? '' : `-${kind}-`}${unit.sentenceIndex}`, language, topic,
      mentions: [{ segmentIndex: unit.turn, segmentId: segment.id, speaker: speakerOf(people, segment), text: unit.text.trim(), title, topicSize: topic.size, referring: false }],
      isAccepted: false, isOpen: false, hasUnresolvedReference: false, isRevision: false, isExplicitlyOpen: false, isProposal: false, asksWhen: false,
      firstSegmentIndex: unit.turn, lastSegmentIndex: unit.turn,
    })
  }
  return learned
}
