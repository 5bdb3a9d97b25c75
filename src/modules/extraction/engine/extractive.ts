// The built-in engine: deterministic rules over the transcript, no network. English and Chinese.
// assemble() reads the transcript once, looking only back; this file adds what later words tell
// (a question answered, an item repeated), relations, clarify items and the stable keys.
import { sha256Hex } from '../../../platform/ids.ts'
import { assemble } from './assemble.ts'
import { cuesFor, titleOf, type Draft } from './drafts.ts'
import { clarifyDrafts } from './clarifications.ts'
import { meetingLocalDate } from './due-dates.ts'
import { buildPeople, isKnown, samePerson, speakerOf, type People } from './owners.ts'
import { relateDrafts } from './relations.ts'
import { inferSpeakerNames, type SpeakerNames } from './speaker-names.ts'
import { detectLanguage, splitSentences } from './text.ts'
import { truncate } from './titles.ts'
import { joinCutSentences, turnIndexes } from './turns.ts'
import { learnedDrafts, PROPOSES, type LearnedKind, type LearnedOptions } from './learned-kinds.ts'
import { shippedDecisionModel } from './decision-model.ts'
import { OTHER_LEARNED_KINDS, SHIPPED_KINDS, shippedKindModels, type OtherLearnedKind } from './kind-models.ts'
import { itemTaxonomy, type ExtractedItem, type ExtractionEngine, type ExtractionInput, type ExtractionResult, type TranscriptSegmentInput } from './types.ts'

const ANSWERED_CONFIDENCE = 0.3
const MAX_SUMMARY = 600
/**
 * Below this recognizer confidence in every cited segment (speech only), an item is taken as
 * misheard. Low on purpose: on the spoken development meetings, spurious items' segments were heard
 * at 0.15–0.78 (median ≈ 0.6) and matched ones at 0.23–0.94; only the lowest separate.
 */
export const MISHEARD = 0.2
const MISHEARD_CONFIDENCE = 0.4

/**
 * `decisions`: how decisions are found — the rules and the learned detector together (the default,
 * with the shipped model), `rules` alone, or a given model (`learned`: the detector alone; evaluation).
 * `kinds`: the same for outcomes and questions; by default a kind's shipped detector runs only when
 * it is in `SHIPPED_KINDS` (kind-models.ts).
 */
export type ExtractOptions = { decisions?: 'rules' | LearnedOptions; kinds?: Partial<Record<OtherLearnedKind, 'rules' | LearnedOptions>> }

export function extractItems(input: ExtractionInput, options: ExtractOptions = {}): ExtractionResult {
  const segments = joinCutSentences([...input.segments].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs))
  const people = buildPeople(input)
  const turnOf = turnIndexes(segments)
  // Voices known as no one ("Speaker 2") named from how the others address them: their actions' owner hint.
  const speakerNames = inferSpeakerNames(segments, input.participants, people, turnOf)
  const { drafts, nearDuplicates } = assemble(segments, people, meetingLocalDate(input.meetingStartedAt, input.timezone), turnOf)
  // The learned detectors, decisions first (the others' guards read the decisions found): each adds what the rules missed.
  const detectors: [LearnedKind, 'rules' | LearnedOptions][] = [
    ['decision', options.decisions ?? { model: shippedDecisionModel, mode: 'both' }],
    ...OTHER_LEARNED_KINDS.map((kind): [LearnedKind, 'rules' | LearnedOptions] => [kind, options.kinds?.[kind] ?? (SHIPPED_KINDS.includes(kind) ? { model: shippedKindModels[kind], mode: 'both' } : 'rules')]),
  ]
  for (const [kind, chosen] of detectors) {
    if (chosen === 'rules') continue
    const found = learnedDrafts(kind, segments, turnOf, people, drafts, chosen)
    if (chosen.mode === 'learned') for (const draft of drafts) if (draft.kind === kind) draft.confidence = 0
    drafts.push(...found)
  }
  // Each turn as one segment (its first one's id, speaker and language; all its words): mentions count turns.
  const turns: TranscriptSegmentInput[] = []
  segments.forEach((segment, index) => {
    if (index > 0 && turnOf[index] === turnOf[index - 1]) turns[turns.length - 1]!.text += ` ${segment.text}`
    else turns.push({ ...segment })
  })
  drafts.push(...drafts.filter((draft) => isUnansweredSolicitation(draft, turns, people)).map(reopenAsQuestion))
  const keyOf = new Map(drafts.map((draft) => [draft, itemKey(draft)]))
  const heardIn = heardBySegment(segments)
  const items = [...drafts]
    .sort((a, b) => a.firstSegmentIndex - b.firstSegmentIndex || a.order - b.order)
    .map((draft) => toItem(draft, keyOf.get(draft)!, confidenceOf(draft, turns, heardIn, people), speakerNames))
  const draftRelations = relateDrafts(drafts, nearDuplicates)
  const relations = draftRelations.map((relation) => {
    const fromKey = keyOf.get(relation.from)!
    const toKey = keyOf.get(relation.to)!
    return { key: hashKey('rel', `${relation.type}|${fromKey}|${toKey}`), type: relation.type, fromKey, toKey, confidence: relation.confidence }
  })
  const clarifications = clarifyDrafts(drafts, draftRelations, input.locale).map((clarification) => {
    const itemKeys = clarification.drafts.map((draft) => keyOf.get(draft)!)
    return {
      key: hashKey('clr', `${clarification.kind}|${itemKeys.join('|')}`),
      kind: clarification.kind,
      question: clarification.question,
      itemKeys,
      sourceSegmentIds: unique(clarification.drafts.flatMap((draft) => draft.mentions.map((mention) => mention.segmentId))),
    }
  })
  return { items, clarifications, relations }
}

export const extractiveEngine: ExtractionEngine = {
  name: 'extractive',
  extract: async (input) => extractItems(input),
}

function hashKey(prefix: string, value: string): string {
  return `${prefix}_${sha256Hex(value).slice(0, 24)}`
}

/** From where the item was first said: the same words give the same key on every run. */
function itemKey(draft: Draft): string {
  return hashKey(draft.kind, draft.anchor)
}

function toItem(draft: Draft, key: string, confidence: number, speakerNames: SpeakerNames): ExtractedItem {
  const taxonomy = itemTaxonomy[draft.kind]
  const said = draft.kind === 'action' ? draft.owner : undefined
  const inferred = said?.speakerId ? speakerNames.get(said.speakerId) : undefined
  const owner = said && inferred ? { ...said, name: inferred.name, ...(inferred.accountId ? { accountId: inferred.accountId } : {}) } : said
  return {
    key,
    kind: draft.kind,
    family: taxonomy.family,
    semanticType: draft.semanticType,
    title: titleOf(draft),
    summary: summaryOf(draft),
    ...(owner?.name ? { ownerName: owner.name } : {}),
    ...(owner?.speakerId ? { ownerSpeakerId: owner.speakerId } : {}),
    ...(owner?.accountId ? { ownerAccountId: owner.accountId } : {}),
    ...(draft.kind === 'action' && draft.dueDate ? { dueDate: draft.dueDate } : {}),
    confidence,
    sourceSegmentIds: unique([...draft.mentions].sort((a, b) => a.segmentIndex - b.segmentIndex).map((mention) => mention.segmentId)),
  }
}

function summaryOf(draft: Draft): string {
  const lines: string[] = []
  for (const mention of draft.mentions) {
    const who = mention.speaker.name ?? mention.speaker.speakerId
    const line = who ? `${who}: ${mention.text}` : mention.text
    if (!lines.includes(line)) lines.push(line)
  }
  return truncate(lines.join('\n'), MAX_SUMMARY)
}

function heardBySegment(segments: TranscriptSegmentInput[]): Map<string, number> {
  return new Map(segments.flatMap((segment) => typeof segment.confidence === 'number' ? [[segment.id, segment.confidence] as const] : []))
}

const FRAGMENT_CONFIDENCE = 0.3
const BARE_COMMITMENT = /\b(?:i|we)(?:'ll| will)\s+[a-z]+[.!?]*$/i
const BACKCHANNEL = /^(?:right|okay|ok|really|sorry|what|yeah|yes|no|sure|honestly|seriously|and|so|well)$/i

/** Said once, one English word left of it, and that word a bare verb after "I'll" or a backchannel asked. */
function isFragment(draft: Draft): boolean {
  const title = titleOf(draft).trim()
  if (draft.mentions.length !== 1 || !/^[A-Za-z']+$/.test(title)) return false
  const said = draft.mentions[0]!.text.trim()
  // "Not.", "No." heard on their own: a word cut from its sentence, no decision.
  return BARE_COMMITMENT.test(said) || (draft.kind === 'question' && BACKCHANNEL.test(title)) || (draft.kind === 'decision' && /^(?:not|no|nope|never|yes|yeah|maybe|okay|ok|right|so|and|but)$/i.test(title))
}

function confidenceOf(draft: Draft, turns: TranscriptSegmentInput[], heardIn: Map<string, number>, people: People): number {
  let confidence = draft.confidence
  const mentionedIn = new Set(draft.mentions.map((mention) => mention.segmentIndex)).size
  confidence += 0.05 * Math.min(2, mentionedIn - 1)
  if (draft.kind === 'action') confidence += (draft.owner ? 0.03 : 0) + (draft.dueDate ? 0.03 : 0)
  if (draft.kind === 'question' && isAnswered(draft, turns, people)) confidence = Math.min(confidence, ANSWERED_CONFIDENCE)
  if (draft.hasUnresolvedReference) confidence -= 0.15
  if (draft.kind === 'decision' && recalledRightAfter(draft, turns)) confidence = Math.min(confidence, RECALLED_CONFIDENCE)
  // "What if we take Unit 2 down to half load from today…?": every mention proposes; the choice, if any, comes in a reply.
  if (draft.kind === 'decision' && draft.language === 'en' && draft.mentions.every((mention) => PROPOSES.test(mention.text.trim()))) confidence = Math.min(confidence, PROPOSED_CONFIDENCE)
  // Words the recognizer was unsure of throughout: most likely misheard, so kept below the gate.
  const heard = draft.mentions.map((mention) => heardIn.get(mention.segmentId) ?? 1)
  if (Math.max(...heard) < MISHEARD) confidence = Math.min(confidence, MISHEARD_CONFIDENCE)
  // One English word left once fillers and cues are gone ("We'll do.", "I'll use.", "Right?"): a fragment, most often a
  // sentence the recognizer cut, says no work of its own.
  if (isFragment(draft)) confidence = Math.min(confidence, FRAGMENT_CONFIDENCE)
  return Math.round(Math.max(0.05, Math.min(0.98, confidence)) * 100) / 100
}

const RECALLED_CONFIDENCE = 0.25
const PROPOSED_CONFIDENCE = 0.3
/** "we settled that with the platform last month", "we agreed that with the airline in June": the choice said just before was made earlier. */
const SETTLED_EARLIER = /^(?:and |so |but )?we (?:settled|agreed|decided|signed off on|sorted) (?:that|it|this)\b[^.?!]*\b(?:last (?:week|month|year|time|meeting|quarter|season)|(?:weeks?|months?|years?) ago|back in|(?:in|back in) (?:january|february|march|april|may|june|july|august|september|october|november|december|the (?:spring|summer|autumn|fall|winter)))\b/

/** The words of its turn right after a decision (a later clause of its sentence, or the next sentence) say it was settled earlier. */
function recalledRightAfter(draft: Draft, turns: TranscriptSegmentInput[]): boolean {
  if (draft.language !== 'en') return false
  const said = draft.mentions[draft.mentions.length - 1]!
  // a clause of its own sentence after a comma (clauses are joined without the space), or the next sentence
  const clauses = [...said.text.split(/,\s*/).slice(1), sentenceAfter(draft, turns) ?? '']
  return clauses.some((clause) => SETTLED_EARLIER.test(clause.replace(/[’‘]/g, "'").toLowerCase()))
}

/** The sentence its turn says right after a draft's last mention ('' when none; `undefined` when the mention is not found in the turn). */
function sentenceAfter(draft: Draft, turns: TranscriptSegmentInput[]): string | undefined {
  const said = draft.mentions[draft.mentions.length - 1]!
  const turn = turns[said.segmentIndex]
  const at = turn ? turn.text.indexOf(said.text) : -1
  if (!turn || at < 0) return undefined
  const [next = ''] = splitSentences(turn.text.slice(at + said.text.length).replace(/^[\s,;:.!-]+/, '')).filter((sentence) => /[\p{L}\p{N}]/u.test(sentence))
  return next
}

/** A question the next other speaker answers on the spot is not open work; "good question, no idea" is. */
function isAnswered(draft: Draft, turns: TranscriptSegmentInput[], people: People): boolean {
  if (draft.semanticType === 'risk' || draft.isExplicitlyOpen || defersInOwnTurn(draft, turns)) return false
  return replyTo(draft, turns, people)?.defers === false
}

/** "Do we keep events? Legal hasn't told us yet.": the turn that asks (or two voices heard as one) says nobody knows yet. */
function defersInOwnTurn(draft: Draft, turns: TranscriptSegmentInput[]): boolean {
  const next = sentenceAfter(draft, turns)
  if (next === undefined) return false
  const cues = cuesFor(detectLanguage(next, turns[draft.mentions[draft.mentions.length - 1]!.segmentIndex]!.language))
  return cues.deferral.test(cues.language === 'en' ? next.replace(/[’‘]/g, "'").toLowerCase() : next)
}

/** "Who's going to be on call for it?" — "Good question, I don't know yet.": nobody can take it yet; it is an open question. */
function isUnansweredSolicitation(draft: Draft, turns: TranscriptSegmentInput[], people: People): boolean {
  if (draft.kind !== 'action' || !draft.isOpen || draft.owner || draft.mentions.length > 1) return false
  // Asked with a mark, or by its wording alone (speech, typed without "?": "who is going to…").
  const asked = draft.mentions[0]!.text
  if (!/[?？]\s*$/.test(asked) && !/^(?:(?:so|okay|ok|and|um|uh|well),?\s+)*(?:who|can (?:anyone|someone|somebody)|could (?:anyone|someone))\b|谁/i.test(asked.trim())) return false
  return replyTo(draft, turns, people)?.defers === true
}

/** The open action stays (its key was already shown while recording) but sinks below the gate; the question takes its place. */
function reopenAsQuestion(draft: Draft): Draft {
  const question: Draft = { ...draft, order: draft.order + 0.5, kind: 'question', semanticType: 'open-question', anchor: `${draft.anchor}#unanswered`,
    mentions: [...draft.mentions], topic: new Map(draft.topic), isExplicitlyOpen: true, isOpen: false, confidence: Math.max(draft.confidence, 0.65) }
  draft.confidence = ANSWERED_CONFIDENCE
  return question
}

/** A question whether anyone knows or has done something ("do we know yet if…", "has anyone actually tested it", "any word from…"): a no leaves it open. */
const ASKS_WHO_KNOWS = /\b(?:do (?:we|you|they) (?:know|have any idea)|does (?:anyone|anybody|someone) know|(?:anyone|anybody) know|any (?:word|news) (?:yet|on|from|about)|(?:has|have) (?:anyone|anybody) (?:actually )?(?:tested|checked|looked at)|(?:have|has) (?:we|you) heard (?:yet|anything|whether|if))\b/

/** A reply that leaves the question open ("that one stays open", "let's flag it", "we'll keep an eye on it", 先放着). */
const KEPT_OPEN = /\b(?:(?:stays?|remains?|is still|leave (?:it|that|this)|keep (?:it|that|this)) open|(?:let's |we'll |i'll )?flag (?:it|that|this)|(?:we'll |let's )?keep an eye on (?:it|that|this)|(?:i )?don't have an answer)\b|先放着|待定/

/** The first sentences the next other speaker says after the item was raised, and whether it puts the answer off (`turns`: each turn's first segment). */
function replyTo(draft: Draft, turns: TranscriptSegmentInput[], people: People): { defers: boolean } | undefined {
  const asked = draft.mentions[0]!
  for (let index = asked.segmentIndex + 1; index < Math.min(turns.length, asked.segmentIndex + 4); index += 1) {
    const segment = turns[index]!
    const speaker = speakerOf(people, segment)
    if (!isKnown(speaker) || samePerson(speaker, asked.speaker)) continue
    // "Mm. Good question. I don't know yet.": short first sentences are read with the one after them.
    const sentences = splitSentences(segment.text)
    let reply = ''
    for (const sentence of sentences.slice(0, 3)) {
      reply = `${reply} ${sentence}`.trim()
      if (sentence.split(/\s+/).length > 3) break
    }
    const cues = cuesFor(detectLanguage(reply, segment.language))
    const lower = (text: string) => (cues.language === 'en' ? text.replace(/[’‘]/g, "'").toLowerCase() : text)
    // "No. I don't think so either. Okay, that one stays open.": the reply leaves it open, wherever in the turn it says so.
    // "Has anyone tested it?" — "No.": nobody knows; the question stays open.
    const nobodyKnows = cues.language === 'en' && ASKS_WHO_KNOWS.test(lower(asked.text)) && /^(?:no|nope|nah|not yet|nobody|no one)\b/.test(lower(reply))
    return { defers: nobodyKnows || cues.deferral.test(lower(reply)) || KEPT_OPEN.test(lower(segment.text)) }
  }
  return undefined
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)]
}
