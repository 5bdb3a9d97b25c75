// Ranking of candidate passages for an answer (pure): which words of the question a passage holds
// (itself, around it, in its meeting), whether it says something of the asked kind, and which
// passages make the extractive answer. The engine's final choice is learned (learned.ts); the rule
// choice here (`TUNING`, `chooseExtractive`, calibrated by eval/answers-calibrate.ts) is its baseline.
// Details a question pins down: details.ts; words: lexicon.ts.
import { contentTokens } from '../extraction/index.ts'
import { fitsQuestion, isQuestion, OPENER, sameKind } from './kinds.ts'
import { embed, similarity } from './embedding.ts'
import { keepsDetails, questionDetails } from './details.ts'
import { alternatives, chineseWordsIn, LIGHT } from './lexicon.ts'
import { chineseWords } from './chinese-words.ts'

export type AnswerInput = { query: string; mode?: 'extractive' | 'grounded-ai'; locale?: 'en' | 'zh-Hans'; projectId?: string }

export type AnswerSource = {
  kind: 'segment' | 'work-object' | 'memory-entry' | 'external-item' | 'file'
  id: string
  quote: string
  sessionId?: string
  startMs?: number
  projectId?: string
  status?: string
  url?: string
  title?: string
  path?: string
  line?: number
}

export type SearchAnswer = {
  query: string
  status: 'answered' | 'no-evidence'
  answer: string
  sentences: { text: string; sourceIndexes: number[] }[]
  sources: AnswerSource[]
  generatedBy: 'extractive' | 'grounded-ai'
  /** no-evidence only: the question is in a language none of the workspace's meetings are in (language.ts) */
  reason?: 'language-mismatch'
  /** …and what that means for the asker, in the question's language */
  notice?: string
}

export type Unit = {
  text: string; source: AnswerSource; extra: AnswerSource[]; boost: number; coverage: number; score: number
  /** a memory entry: the ids of the work objects and segments it rests on (not cited twice) */
  covers?: Set<string>
  /** rests on a superseded memory entry: never the answer */
  outdated?: boolean
  /** what the passage is read with: the words of the segments around it and of its meeting's title */
  context?: Set<string>
  /** a reply: the words of the question it answers (the segment before it, ending in a question mark) */
  asked?: Set<string>
  /** the words of the segment before it, and that segment as said */
  before?: Set<string>
  beforeText?: string
  /** its meeting as the search read it (title, the passage's neighbours, the meeting's hits): details are looked for there */
  meetingText?: string
  /** …and that question as said */
  askedText?: string
  /** the words of everything the search found in the same meeting */
  meeting?: Set<string>
  /** the words of its meeting's title */
  title?: Set<string>
  /** lacks a detail the question pins down (a month, a platform, a name): never the answer */
  mismatch?: boolean
  /** the text its learned vector is of: its segment, read with the question it replies to */
  vectorText?: string
  /** cosine of the learned vectors of the question and of the passage's segment (a reply: with its question) */
  semantic?: number
  /** a segment: the turn after it, and when that turn asks a question, the reply to it (settle) */
  followedBy?: string[]
  /** a segment: later turns of its meeting that settle a decision on its subject (settled.ts; ranking: decide) */
  decidedBy?: string[]
  /** the score before the learned similarity's share (rescore) */
  lexicalScore?: number
  /** what rank() read of it, for the learned ranker and no-evidence gate (learned.ts) */
  signals?: Signals
}

/** Per-passage measures rank() computes on the way (learned.ts turns them into features). */
export type Signals = {
  /** share of the question's slots in the passage itself; in the turn it replies to or the turn before; anywhere around it (context, meeting) */
  own: number; near: number; around: number
  similarity: number; novelty: number; fit: number; opener: boolean; question: boolean
  /** its meeting's share of the question, and how far below the best meeting's */
  meetingShare: number; meetingGap: number
  /** lifted above its setup by settle (the next turn) or decide (the extraction engine's decision) */
  settled: boolean; decided: boolean
}

/** Words that frame a question rather than say what it is about: they count a little. */
const META = new Set(['decid', 'decis', 'agre', 'discuss', 'meet', 'talk', 'said', 'say', 'plan', 'team', 'know', 'tell', 'happen', 'latest', 'current', 'project',
  'caus', 'mean', 'use', 'get', 'new', 'now',
  '决定', '讨论', '会议', '什么', '怎么', '哪些', '知道', '关于', '最新', '目前', '项目', '时候', '我们', '多少', '是什', '为什', '哪个', '是否',
  // how a discussion ended (最后选了…, 定了多少): framing, as "end up" / "decide" are in English
  '最后', '最终', '定'])
/**
 * Chinese interrogatives and question frames, removed before a Chinese question is read for its content
 * (as English stopwords are). Thirteenth pass: 哪 / 哪家 / 哪几个, 几点 / 几号, 多少钱, 多久 / 多长时间,
 * 要不要 / 是不是 / 能不能, 还是 were left in and counted as content no answer says (a slot of weight 1 for
 * 哪家, 0.5 for 钱, 点, 不), lowering the right passage's coverage under the gate.
 */
export const QUESTION_WORDS = /什么时候|什么|怎么样|怎么|为什么|哪些|哪个|哪里|哪天|哪几个|哪几|哪家|哪位|哪儿|哪|是否|有没有|要不要|是不是|能不能|还是|多少钱|多少|多久|多长时间|几个|几点|几号|几|谁|吗|呢|关于|我们|决定|讨论/g
const FUNCTION_CHARACTERS = /[的了吗呢吧啊是在就都也还我你他她它们这那个一有和与及把被给要会能对说很太更再又让并或而但，。？！、：；\s]+/

/** Search words for the full-text index: word prefixes shared by inflections, Chinese trigrams. */
export function queryWords(question: string): string[] {
  const words = new Set<string>()
  const lower = question.normalize('NFKC').toLowerCase()
  for (const token of contentTokens(lower.replace(/\p{Script=Han}+/gu, ' '))) {
    if (META.has(token) || token.length < 3) continue
    words.add(token)
  }
  for (const run of lower.match(/\p{Script=Han}+/gu) ?? []) {
    for (const piece of run.replace(QUESTION_WORDS, ' ').split(FUNCTION_CHARACTERS)) {
      if ([...piece].length === 2) words.add(piece)
      for (let index = 0; index + 3 <= piece.length; index += 1) words.add(piece.slice(index, index + 3))
    }
  }
  return [...words].slice(0, 12)
}

/** Prefix matching needs the stem to be a prefix of the word as written ("pric" finds pricing and price). */
export function lexicalWords(question: string): string[] {
  const raw = new Set((question.toLowerCase().match(/[a-z0-9]+/g) ?? []))
  return queryWords(question).map((word) => {
    if (!/^[a-z0-9]+$/.test(word)) return word
    const written = [...raw].find((candidate) => candidate.startsWith(word.slice(0, 3)) && candidate.length >= word.length)
    if (!written) return word
    let common = 0
    while (common < word.length && word[common] === written[common]) common += 1
    return common >= 3 ? word.slice(0, common) : word
  })
}

const weightOf = (token: string) => (META.has(token) || LIGHT.has(token) ? 0.25 : 1)
/** A question word found only around the passage (its neighbours, its meeting's title) counts this much. */
const CONTEXT_CREDIT = 0.6
const MEETING_CREDIT = 0.4
/** …or in the question a reply answers. */
const ASKED_CREDIT = 0.9
/**
 * …or in the turn just before (a dialogue continues its subject: "Cloud bill for April." /
 * "Ninety-two thousand dollars…"). 0.7, 0.8 and 0.9 were measured on the seen splits; 0.9 (as much as
 * a reply) answered unanswerable questions, 0.7 gained less.
 */
const BEFORE_CREDIT = 0.8

/** Stems of one word may differ in their ending (deliveri / deliv): a shared beginning of five letters is the same word. */
function has(tokens: Set<string>, token: string): boolean {
  if (tokens.has(token)) return true
  if (/^\p{Script=Han}$/u.test(token)) return characters(tokens).has(token)
  if (!/^[a-z]{5,}$/.test(token)) return false
  const start = token.slice(0, 5)
  for (const candidate of tokens) if (candidate.startsWith(start)) return true
  return false
}

const characterCache = new WeakMap<Set<string>, Set<string>>()
/** The Chinese characters of a token set (a one-character question word is found inside any word). */
function characters(tokens: Set<string>): Set<string> {
  let found = characterCache.get(tokens)
  if (!found) {
    found = new Set()
    for (const token of tokens) if (/\p{Script=Han}/u.test(token)) for (const character of token) found.add(character)
    characterCache.set(tokens, found)
  }
  return found
}

/**
 * What a passage must hold to answer: English content words, and for Chinese the words of the
 * question's content as jieba cuts them (chineseSlots; so a bigram straddling two words, 仓迁 in
 * 数仓迁移, costs nothing while a missing word, 年会, still counts against the passage).
 */
type Slot = { weight: number; tokens: string[] }

/** In how many segments of the workspace a question word is, up to this many (search's bounded count). */
export type Frequencies = { counts: Map<string, number>; cap: number }

/** A rare word says more about where the answer is than a common one: 2 when unseen, 0.5 at the cap. */
function rarity(token: string, frequencies: Frequencies | undefined): number {
  const count = frequencies?.counts.get(token)
  if (count === undefined) return 1
  return 0.5 + 1.5 * (1 - Math.log1p(Math.min(count, frequencies!.cap)) / Math.log1p(frequencies!.cap))
}

export function questionSlots(question: string, frequencies?: Frequencies): Slot[] {
  const lower = question.normalize('NFKC').toLowerCase()
  // A word is found as itself or as a word that stands for it in meetings (lexicon.ts).
  const slots: Slot[] = [...new Set(contentTokens(lower.replace(/\p{Script=Han}+/gu, ' ')))].map((token) => ({ weight: weightOf(token) * rarity(token, frequencies), tokens: alternatives(token) }))
  for (const run of lower.match(/\p{Script=Han}+/gu) ?? []) {
    for (const piece of run.replace(QUESTION_WORDS, ' ').split(FUNCTION_CHARACTERS)) {
      slots.push(...chineseSlots(piece))
    }
  }
  return slots
}

/**
 * Slots of a piece of a Chinese question, by its words (jieba, chinese-words.ts): a word of two
 * characters is one slot (weight 1, as an English word; a light or framing word 0.3), a longer word
 * one slot per bigram (羽绒服: 羽绒, 绒服; 2/n each), a word of one character 0.5, found inside any
 * word of the passage. Before the seventh pass every character was a slot of 0.5 found through either
 * bigram it is part of, so 不提供晚饭 asked 不提 / 提供 / 供晚 of a passage saying 晚饭先不做了.
 */
function chineseSlots(piece: string): Slot[] {
  const slots: Slot[] = []
  for (const word of chineseWords(piece)) {
    const characters = [...word]
    if (!/\p{Script=Han}/u.test(word)) continue
    const light = LIGHT.has(word) || META.has(word)
    if (characters.length === 1) {
      slots.push({ weight: light ? 0.25 : 0.5, tokens: [word] })
      continue
    }
    if (characters.length === 2) {
      slots.push({ weight: light ? 0.3 : 1, tokens: alternatives(word) })
      continue
    }
    const known = chineseWordsIn(word).flatMap(alternatives)
    for (let index = 0; index + 1 < characters.length; index += 1) slots.push({ weight: ((light ? 0.3 : 1) * 2) / characters.length, tokens: [characters[index]! + characters[index + 1]!, ...known] })
  }
  return slots
}

/** Weighted share of the question's slots found in the passage (1), around it (0.6) or in its meeting (0.4). */
function coverage(slots: Slot[], tokens: Set<string>, context: Set<string> | undefined, meeting: Set<string> | undefined, asked?: Set<string>, before?: Set<string>): number {
  return coverageParts(slots, tokens, context, meeting, asked, before).coverage
}

/** …and the shares found in the passage alone, in the turn it replies to or follows, and anywhere around it (one pass). */
function coverageParts(slots: Slot[], tokens: Set<string>, context: Set<string> | undefined, meeting: Set<string> | undefined, asked?: Set<string>, before?: Set<string>) {
  let total = 0
  let found = 0
  let own = 0
  let near = 0
  let around = 0
  for (const slot of slots) {
    total += slot.weight
    const credit = (words: Set<string> | undefined) => (words && slot.tokens.some((token) => has(words, token)) ? 1 : 0)
    const [inOwn, inAsked, inBefore, inContext, inMeeting] = [credit(tokens), credit(asked), credit(before), credit(context), credit(meeting)]
    found += slot.weight * Math.max(inOwn, ASKED_CREDIT * inAsked, BEFORE_CREDIT * inBefore, CONTEXT_CREDIT * inContext, MEETING_CREDIT * inMeeting)
    own += slot.weight * inOwn
    near += slot.weight * Math.max(inOwn, inAsked, inBefore)
    around += slot.weight * Math.max(inOwn, inAsked, inBefore, inContext, inMeeting)
  }
  const share = (part: number) => (total === 0 ? 0 : part / total)
  return { coverage: share(found), own: share(own), near: share(near), around: share(around) }
}

/**
 * How scores are combined and when the best passage is no evidence. `minCoverage`/`minScore`: below
 * these the best passage is no evidence. The learned similarity (semantic.ts, only when the
 * sentence model is on) counts in the score with `semanticWeight` and in the coverage gate with
 * `semanticGate`, both around `SEMANTIC_PIVOT` (a cosine most unrelated passages stay under).
 * Calibrated by leave-one-split-out over the seen splits (eval/answers-calibrate.ts).
 */
export type Tuning = { minCoverage: number; minScore: number; semanticWeight: number; semanticGate: number }
export const TUNING: Tuning = { minCoverage: 0.55, minScore: 0.45, semanticWeight: 0, semanticGate: 0.3 }
const SEMANTIC_PIVOT = 0.3
const semanticPart = (unit: Unit, weight: number) => (unit.semantic === undefined ? 0 : weight * (unit.semantic - SEMANTIC_PIVOT))
/** Coverage of the question's words, lifted or lowered by the learned similarity when there is one. */
const relevance = (unit: Unit, tuning: Tuning) => unit.coverage + semanticPart(unit, tuning.semanticGate)
const KEEP_RELATIVE = 0.85
const MAX_SENTENCES = 3
/** how many of the best-ranked segments are read with their neighbours */
export const NEIGHBOURHOODS = 24

/** contentTokens with a memory: one answer reads the same text several times (its meeting, its context, itself). */
export function tokenizer(): (text: string) => string[] {
  const known = new Map<string, string[]>()
  return (text) => {
    let tokens = known.get(text)
    if (!tokens) known.set(text, (tokens = contentTokens(text)))
    return tokens
  }
}

/** A passage of the asked kind, or a reply to a question asking the same kind of thing ("由谁来写？" / "孙浩写吧"). */
function fits(question: string, unit: Unit): number {
  const own = fitsQuestion(question, unit.text)
  return unit.askedText && sameKind(question, unit.askedText) ? Math.max(own, 0.25) : own
}

export function rank(question: string, units: Unit[], frequencies?: Frequencies, tokenize = tokenizer(), tuning: Tuning = TUNING): Unit[] {
  const questionTokens = new Set(contentTokens(question))
  const slots = questionSlots(question, frequencies)
  const questionVector = embed(question)
  const details = questionDetails(question)
  for (const unit of units) {
    const words = tokenize(unit.text)
    const tokens = new Set(words)
    const parts = coverageParts(slots, tokens, unit.context, unit.meeting, unit.asked, unit.before)
    unit.coverage = parts.coverage
    unit.mismatch = !keepsDetails(details, { tokens, asked: unit.asked, before: unit.before, title: unit.title, context: unit.context, meeting: unit.meeting, text: unit.text, askedText: unit.askedText, beforeText: unit.beforeText, meetingText: unit.meetingText })
    // An answer says something the question did not: a passage that only restates it is no answer.
    const novel = [...tokens].filter((token) => !questionTokens.has(token)).length
    const novelty = Math.min(1, novel / 3)
    const close = Math.max(0, similarity(questionVector, embed(unit.text, words)))
    const fit = fits(question, unit)
    unit.lexicalScore = 0.6 * unit.coverage + 0.2 * close + 0.1 * novelty + fit + unit.boost
    if (novel === 0) unit.lexicalScore -= 0.3
    // An opener restates the agenda in the question's words: it says least of all.
    const opener = OPENER.test(unit.text)
    if (opener) unit.lexicalScore -= 0.3
    else if (isQuestion(unit.text)) unit.lexicalScore -= 0.15
    unit.signals = { own: parts.own, near: parts.near, around: parts.around, similarity: close, novelty, fit, opener, question: isQuestion(unit.text), meetingShare: 1, meetingGap: 0, settled: false, decided: false }
  }
  subjectMeeting(slots, units)
  settle(question, units)
  decide(question, units)
  return rescore(units, tuning)
}

/** A meeting whose found passages and title hold this much less of the question than the best meeting's… */
const MEETING_GAP = 0.15
/** …costs its passages this much per share of the question it lacks beyond the gap. */
const MEETING_PENALTY = 0.5
const MEETING_FLOOR = 0.8
/**
 * The answer comes from one meeting: the one whose passages (everything the search found in it) and
 * title jointly hold the question's subject. A passage of another meeting that shares a few of the
 * question's words ("Let's go with CityShift then." for a printing question) ranks lower. One
 * coverage per meeting; units outside meetings (work objects, memory) are left as ranked.
 */
function subjectMeeting(slots: Slot[], units: Unit[]): void {
  const shares = new Map<string, number>()
  for (const unit of units) {
    const session = unit.source.kind === 'segment' ? unit.source.sessionId : undefined
    if (!session || shares.has(session) || !unit.meeting) continue
    shares.set(session, coverage(slots, new Set([...unit.meeting, ...(unit.title ?? [])]), undefined, undefined))
  }
  const best = Math.max(0, ...shares.values())
  for (const unit of units) {
    const share = unit.source.kind === 'segment' && unit.source.sessionId ? shares.get(unit.source.sessionId) : undefined
    if (share !== undefined && unit.signals) Object.assign(unit.signals, { meetingShare: share, meetingGap: best - share })
  }
  if (shares.size < 2 || best < MEETING_FLOOR) return
  for (const unit of units) {
    const share = unit.source.kind === 'segment' && unit.source.sessionId ? shares.get(unit.source.sessionId) : undefined
    if (share !== undefined && share < best - MEETING_GAP) {
      unit.lexicalScore! -= MEETING_PENALTY * (best - MEETING_GAP - share)
      unit.coverage -= MEETING_PENALTY * (best - MEETING_GAP - share)
    }
  }
}

/** A following turn still speaks of the subject when its coverage is this share of the setup's or more. */
const SETTLE_SHARE = 0.75
/** …and then ranks just above the setup, with this share of its coverage (0.9: as a reply reads its question). */
const SETTLE_COVERAGE = 0.9
const SETTLE_MARGIN = 0.01
/** Questions asking how a discussion ended: its last word on the subject answers them. */
const OUTCOME = /\b(end up|ended up|in the end|finally|settle|settled|decide|decided|go with|went with)\b|最后|最终|定了/i
/**
 * A turn that sets a subject up is often followed by the turn that settles it ("They proposed
 * Delaware, we usually do New York." / "Does it matter much?" / "Not really. I'd rather give them
 * Delaware…"): it holds the question's words, the answer holds the new information. When the turn
 * after a passage (or the reply to a question asked right after it) still speaks of its subject and
 * says what the question asks for better than it does (or as well, when the question asks how it
 * ended), that turn ranks just above the passage. One step, from the scores as ranked: a chain of
 * turns does not pass a score along.
 */
function settle(question: string, units: Unit[]): void {
  const bySegment = new Map<string, Unit[]>()
  for (const unit of units) if (unit.source.kind === 'segment') bySegment.set(unit.source.id, [...(bySegment.get(unit.source.id) ?? []), unit])
  const fit = new Map(units.map((unit) => [unit, fits(question, unit)]))
  const ranked = new Map(units.map((unit) => [unit, { score: unit.lexicalScore!, coverage: unit.coverage }]))
  const outcome = OUTCOME.test(question)
  for (const unit of units) {
    if (!unit.followedBy?.length || unit.mismatch) continue
    const setup = ranked.get(unit)!
    for (const next of unit.followedBy.flatMap((id) => bySegment.get(id) ?? [])) {
      if (next.mismatch || isQuestion(next.text) || ranked.get(next)!.coverage < SETTLE_SHARE * setup.coverage) continue
      const better = fit.get(next)! > fit.get(unit)! || (outcome && fit.get(next)! >= fit.get(unit)!)
      if (!better || next.lexicalScore! >= setup.score + SETTLE_MARGIN) continue
      next.lexicalScore = setup.score + SETTLE_MARGIN
      next.coverage = Math.max(next.coverage, SETTLE_COVERAGE * setup.coverage)
      if (next.signals) next.signals.settled = true
    }
  }
}

/** A settling turn still speaks of the passage's subject when its coverage is this share of the passage's or more. */
const DECIDE_SHARE = 0.5
/**
 * The turn that settles a decision on a passage's subject (settled.ts: the extraction engine found
 * it a few turns later) ranks just above the passage, with its coverage: the passage names the
 * subject, the turn says how it ended. One step, from the scores as ranked.
 */
function decide(question: string, units: Unit[]): void {
  const bySegment = new Map<string, Unit[]>()
  for (const unit of units) if (unit.source.kind === 'segment') bySegment.set(unit.source.id, [...(bySegment.get(unit.source.id) ?? []), unit])
  const ranked = new Map(units.map((unit) => [unit, { score: unit.lexicalScore!, coverage: unit.coverage }]))
  for (const unit of units) {
    if (!unit.decidedBy?.length || unit.mismatch) continue
    const setup = ranked.get(unit)!
    for (const id of unit.decidedBy) {
      // Of a turn of several sentences, the one that ranks best on its own.
      const turn = (bySegment.get(id) ?? []).filter((next) => !next.mismatch && !isQuestion(next.text)).sort((a, b) => ranked.get(b)!.score - ranked.get(a)!.score)[0]
      // …when it says what the question asks for as well as the passage does (a how-much question wants the number, not the verdict).
      if (!turn || ranked.get(turn)!.coverage < DECIDE_SHARE * setup.coverage || fits(question, turn) < fits(question, unit) || turn.lexicalScore! >= setup.score + SETTLE_MARGIN) continue
      turn.lexicalScore = setup.score + SETTLE_MARGIN
      turn.coverage = Math.max(turn.coverage, setup.coverage)
      if (turn.signals) turn.signals.decided = true
    }
  }
}

/** The final score (lexical, plus the learned similarity's share), best first. */
export function rescore(units: Unit[], tuning: Tuning = TUNING): Unit[] {
  for (const unit of units) unit.score = (unit.lexicalScore ?? unit.score) + semanticPart(unit, tuning.semanticWeight)
  return units.sort((a, b) => b.score - a.score)
}

export function chooseExtractive(all: Unit[], tuning: Tuning = TUNING): Unit[] {
  const ranked = all.filter((unit) => !unit.mismatch)
  const best = ranked[0]
  if (!best || relevance(best, tuning) < tuning.minCoverage || best.score < tuning.minScore) return []
  const close = ranked.filter((unit) => unit.score >= best.score * KEEP_RELATIVE)
  return quoted(close.filter((unit) => relevance(unit, tuning) >= tuning.minCoverage))
}

/**
 * The passages an answer quotes, in the order given: up to three, each said once (a sentence read
 * with the one before it holds that one: never both), none outdated nor already covered by a quoted
 * memory entry.
 */
export function quoted(ordered: Unit[]): Unit[] {
  const chosen: Unit[] = []
  const seen = new Set<string>()
  for (const unit of ordered) {
    if (chosen.length === MAX_SENTENCES) break
    // Letters and digits of any script (\W once made every Chinese sentence the same key: a Chinese answer cited one passage).
    const key = unit.text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')
    if (seen.has(key) || chosen.some((known) => known.source.id === unit.source.id && (known.text.includes(unit.text) || unit.text.includes(known.text)))) continue
    if (unit.outdated || chosen.some((known) => known.covers?.has(unit.source.id))) continue
    // A work object whose turns are all quoted or covered already (a proposal found again from a turn a memory entry rests on) adds nothing.
    const cited = unit.source.kind === 'work-object' ? unit.extra.filter((source) => source.kind === 'segment').map((source) => source.id) : []
    if (cited.length > 0 && cited.every((id) => chosen.some((known) => known.source.id === id || known.covers?.has(id) || known.extra.some((source) => source.id === id)))) continue
    seen.add(key)
    chosen.push(unit)
  }
  return chosen
}
