// POST /v1/search/answer: a question answered over everything the asker may see in the workspace
// (transcripts, work objects, project memory, bound external items, indexed codebases), every
// sentence citing a source, or `no-evidence`. Retrieval is lexical (the search module's full-text
// index; LIKE over the smaller tables) then ranked by coverage of the question's content words and
// an offline embedding (embedding.ts). `extractive` (default) answers with the best passages as
// they are; `grounded-ai` lets a chat model write from numbered passages and drops any sentence
// that cites none of them.
import { Type } from 'typebox'
import type { Membership } from '../../platform/auth/actor.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { LlmError } from '../../platform/llm/chat.ts'
import { contentTokens, detectLanguage, splitSentences } from '../extraction/index.ts'
import { searchMemory, type MemorySource } from '../memory/index.ts'
import { anySegmentHits } from '../search/index.ts'
import { findSessionBriefs } from '../sessions/index.ts'
import { findWorkspaceSegments, segmentNeighbourhoods } from '../transcripts/index.ts'
import { findWorkObjectsMentioning } from '../work/index.ts'
import { embed, similarity } from './embedding.ts'

export type AnswerInput = { query: string; mode?: 'extractive' | 'grounded-ai'; locale?: 'en' | 'zh-Hans' }

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
}

type Unit = {
  text: string; source: AnswerSource; extra: AnswerSource[]; boost: number; coverage: number; score: number
  /** a memory entry: the ids of the work objects and segments it rests on (not cited twice) */
  covers?: Set<string>
  /** rests on a superseded memory entry: never the answer */
  outdated?: boolean
  /** what the passage is read with: the words of the segments around it and of its meeting's title */
  context?: Set<string>
  /** the words of everything the search found in the same meeting */
  meeting?: Set<string>
}

/** Words that frame a question rather than say what it is about: they count a little. */
const META = new Set(['decid', 'decis', 'agre', 'discuss', 'meet', 'talk', 'said', 'say', 'plan', 'team', 'know', 'tell', 'happen', 'latest', 'current', 'project',
  'caus', 'mean', 'use', 'get', 'new', 'now',
  '决定', '讨论', '会议', '什么', '怎么', '哪些', '知道', '关于', '最新', '目前', '项目', '时候', '我们', '多少', '是什', '为什', '哪个', '是否'])
const QUESTION_WORDS = /什么时候|什么|怎么样|怎么|为什么|哪些|哪个|哪里|是否|有没有|多少|谁|吗|呢|关于|我们|决定|讨论/g
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
function lexicalWords(question: string): string[] {
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

const weightOf = (token: string) => (META.has(token) ? 0.25 : 1)
/** A question word found only around the passage (its neighbours, its meeting's title) counts this much. */
const CONTEXT_CREDIT = 0.6
const MEETING_CREDIT = 0.4

/** Stems of one word may differ in their ending (deliveri / deliv): a shared beginning of five letters is the same word. */
function has(tokens: Set<string>, token: string): boolean {
  if (tokens.has(token)) return true
  if (!/^[a-z]{5,}$/.test(token)) return false
  const start = token.slice(0, 5)
  for (const candidate of tokens) if (candidate.startsWith(start)) return true
  return false
}

/**
 * What a passage must hold to answer: English content words, and for Chinese every character of the
 * question's content, found through either bigram it is part of (so a bigram straddling two words,
 * 仓迁 in 数仓迁移, costs nothing while a missing word, 年会, still counts against the passage).
 */
type Slot = { weight: number; tokens: string[] }

export function questionSlots(question: string): Slot[] {
  const lower = question.normalize('NFKC').toLowerCase()
  const slots: Slot[] = [...new Set(contentTokens(lower.replace(/\p{Script=Han}+/gu, ' ')))].map((token) => ({ weight: weightOf(token), tokens: [token] }))
  for (const run of lower.match(/\p{Script=Han}+/gu) ?? []) {
    for (const piece of run.replace(QUESTION_WORDS, ' ').split(FUNCTION_CHARACTERS)) {
      const characters = [...piece]
      if (characters.length === 1) slots.push({ weight: 0.5, tokens: [piece] })
      if (characters.length < 2) continue
      characters.forEach((character, index) => {
        const tokens = []
        if (index > 0) tokens.push(characters[index - 1]! + character)
        if (index < characters.length - 1) tokens.push(character + characters[index + 1]!)
        slots.push({ weight: 0.5, tokens })
      })
    }
  }
  return slots
}

/** Weighted share of the question's slots found in the passage (1), around it (0.6) or in its meeting (0.4). */
function coverage(slots: Slot[], tokens: Set<string>, context: Set<string> | undefined, meeting: Set<string> | undefined): number {
  let total = 0
  let found = 0
  for (const slot of slots) {
    total += slot.weight
    const credit = (words: Set<string> | undefined) => (words && slot.tokens.some((token) => has(words, token)) ? 1 : 0)
    found += slot.weight * Math.max(credit(tokens), CONTEXT_CREDIT * credit(context), MEETING_CREDIT * credit(meeting))
  }
  return total === 0 ? 0 : found / total
}

/** Openers restate the agenda ("this is the review of…", "今天复盘一下…"); a question asks: neither answers. */
const OPENER = /\b(this is the|today we|the goal today|let'?s (start|kick off|get started)|quick (debrief|sync|update) on|agenda)\b|今天(主要)?(复盘|评审|讨论|看|过)|复盘一下|评审一下|过一下|我们开始/i
const isQuestion = (text: string) => /[?？]\s*$/.test(text)

const QUANTITY = /\b(how (many|much|long|often|big|large|fast|slow)|what (percent|percentage|share|rate|ratio|number|threshold|limit))\b|多少|几|多久|多长|多大|比例|阈值|上限/i
const TIME = /\b(when|what (date|day|time))\b|什么时候|哪天|何时/i
const NUMBER = /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|half|percent)\b|[一二三四五六七八九十百千万两半]/i
const DATE = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|tomorrow|today|week|month|quarter|q[1-4])\b|\d{1,2}[:/]\d{2}|周[一二三四五六日]|星期|[0-9一二三四五六七八九十]+月|号|下周|本周|明天|今天|季度/i

/** Does the passage hold the kind of thing the question asks for (a number, a time)? */
function fitsQuestion(question: string, text: string): number {
  if (QUANTITY.test(question)) return NUMBER.test(text) ? 1 : 0
  if (TIME.test(question)) return DATE.test(text) || NUMBER.test(text) ? 1 : 0
  return 0.5
}

/** Below these, the best passage is no evidence (tuned on the development split of test/fixtures/answers). */
const MIN_COVERAGE = 0.6
const MIN_SCORE = 0.5
const KEEP_RELATIVE = 0.85
const MAX_SENTENCES = 3
/** how many of the best-ranked segments are read with their neighbours */
const NEIGHBOURHOODS = 24

/** Where a reader opens what a memory entry rests on: its first segment, external item or file. */
function openable(sources: MemorySource[]): AnswerSource[] {
  const source = sources.find((candidate) => candidate.kind !== 'work-object')
  if (!source) return []
  if (source.kind === 'segment') return [{ kind: 'segment', id: source.id, quote: source.quote, sessionId: source.sessionId, startMs: source.startMs }]
  if (source.kind === 'external-item') return [{ kind: 'external-item', id: source.id, quote: source.quote, url: source.url, title: source.title }]
  if (source.kind === 'file') return [{ kind: 'file', id: source.id, quote: source.quote, path: source.path, line: source.line }]
  return []
}

async function gatherUnits(deps: AppDeps, workspaceId: string, question: string): Promise<Unit[]> {
  const words = lexicalWords(question)
  if (words.length === 0) return []
  const [segments, work, memory] = await Promise.all([
    anySegmentHits(deps.database, workspaceId, words),
    findWorkObjectsMentioning(deps, workspaceId, words, 100),
    searchMemory(deps, workspaceId, words),
  ])
  const units: Unit[] = []
  const unit = (text: string, source: AnswerSource, boost = 0, extra: AnswerSource[] = []) => units.push({ text, source, extra, boost, coverage: 0, score: 0 })
  // What a superseded entry rests on is outdated too: the transcript still says it, memory knows better.
  const outdated = new Set(memory.flatMap((hit) => (hit.kind === 'memory-entry' && hit.status === 'superseded' ? hit.sources.map((source) => source.id) : [])))
  const live = new Set(memory.flatMap((hit) => (hit.kind === 'memory-entry' && hit.status !== 'superseded' ? hit.sources.map((source) => source.id) : [])))
  for (const id of live) outdated.delete(id)
  // The best segments with their neighbours: an answer often sits next to the words that name its subject.
  const neighbourhoods = await segmentNeighbourhoods(deps.database.db, workspaceId, segments.slice(0, NEIGHBOURHOODS).map((segment) => segment.id))
  const titles = new Map((await findSessionBriefs(deps.database.db, workspaceId, neighbourhoods.map(({ centre }) => centre.session_id))).map((session) => [session.id, session.title]))
  const seen = new Set<string>()
  const meetings = new Map<string, Set<string>>()
  for (const segment of segments) {
    const words = meetings.get(segment.session_id) ?? new Set<string>()
    for (const token of contentTokens(segment.text)) words.add(token)
    meetings.set(segment.session_id, words)
  }
  for (const { centre, segments: around } of neighbourhoods) {
    const context = new Set(contentTokens([titles.get(centre.session_id) ?? '', ...around.map((segment) => segment.text)].join(' ')))
    for (const segment of around) {
      if (seen.has(segment.id)) continue
      seen.add(segment.id)
      for (const sentence of splitSentences(segment.text)) {
        unit(sentence, { kind: 'segment', id: segment.id, quote: sentence, sessionId: segment.session_id, startMs: segment.start_ms })
        units.at(-1)!.context = context
        units.at(-1)!.meeting = meetings.get(segment.session_id)
      }
    }
  }
  for (const object of work) {
    const boost = object.kind === 'decision' || object.kind === 'outcome' ? 0.03 : 0
    unit(object.title, { kind: 'work-object', id: object.id, quote: object.title, sessionId: object.sessionId, title: object.title }, boost)
    for (const sentence of splitSentences(object.summary ?? '')) unit(sentence, { kind: 'work-object', id: object.id, quote: sentence, sessionId: object.sessionId, title: object.title }, boost)
  }
  for (const hit of memory) {
    if (hit.kind === 'memory-entry') {
      const boost = hit.status === 'current' ? 0.08 : hit.status === 'superseded' ? -0.3 : 0
      unit(hit.text, { kind: 'memory-entry', id: hit.id, quote: hit.text, projectId: hit.projectId, status: hit.status }, boost, openable(hit.sources))
      units.at(-1)!.covers = new Set(hit.sources.map((source) => source.id))
    } else if (hit.kind === 'external-item') {
      unit(hit.text, { kind: 'external-item', id: hit.id, quote: hit.text, projectId: hit.projectId, url: hit.url, title: hit.title })
    } else {
      unit(hit.text.replace(/\n/g, ' '), { kind: 'file', id: hit.id, quote: hit.text, projectId: hit.projectId, path: hit.path, line: hit.line, title: hit.name })
    }
  }
  for (const unit of units) {
    if (unit.source.kind === 'memory-entry' ? unit.source.status === 'superseded' : outdated.has(unit.source.id)) {
      unit.outdated = true
      unit.boost -= 0.3
    }
  }
  return units
}

function rank(question: string, units: Unit[]): Unit[] {
  const questionTokens = new Set(contentTokens(question))
  const slots = questionSlots(question)
  const questionVector = embed(question)
  for (const unit of units) {
    const tokens = new Set(contentTokens(unit.text))
    unit.coverage = coverage(slots, tokens, unit.context, unit.meeting)
    // An answer says something the question did not: a passage that only restates it is no answer.
    const novel = [...tokens].filter((token) => !questionTokens.has(token)).length
    const novelty = Math.min(1, novel / 3)
    unit.score = 0.6 * unit.coverage + 0.2 * Math.max(0, similarity(questionVector, embed(unit.text))) + 0.1 * novelty + 0.1 * fitsQuestion(question, unit.text) + unit.boost
    if (novel === 0) unit.score -= 0.3
    if (OPENER.test(unit.text) || isQuestion(unit.text)) unit.score -= 0.15
  }
  return units.sort((a, b) => b.score - a.score)
}

function chooseExtractive(ranked: Unit[]): Unit[] {
  const best = ranked[0]
  if (!best || best.coverage < MIN_COVERAGE || best.score < MIN_SCORE) return []
  const chosen: Unit[] = []
  const seen = new Set<string>()
  for (const unit of ranked) {
    if (chosen.length === MAX_SENTENCES || unit.score < best.score * KEEP_RELATIVE) break
    const key = unit.text.toLowerCase().replace(/\W+/g, '')
    if (unit.coverage < MIN_COVERAGE || seen.has(key)) continue
    if (unit.outdated || chosen.some((known) => known.covers?.has(unit.source.id))) continue
    seen.add(key)
    chosen.push(unit)
  }
  return chosen
}

const joinFor = (chinese: boolean, parts: string[]) => (chinese ? parts.join('') : parts.join(' '))

function compose(query: string, chosen: { text: string; sources: AnswerSource[] }[], chinese: boolean, generatedBy: SearchAnswer['generatedBy']): SearchAnswer {
  if (chosen.length === 0) return { query, status: 'no-evidence', answer: '', sentences: [], sources: [], generatedBy }
  const sources: AnswerSource[] = []
  const indexOf = (source: AnswerSource) => {
    const found = sources.findIndex((known) => known.kind === source.kind && known.id === source.id && known.quote === source.quote)
    if (found !== -1) return found
    sources.push(source)
    return sources.length - 1
  }
  const sentences = chosen.map((item) => ({ text: item.text, sourceIndexes: item.sources.map(indexOf) }))
  return { query, status: 'answered', answer: joinFor(chinese, sentences.map((sentence) => sentence.text)), sentences, sources, generatedBy }
}

const GroundedReply = Type.Object({
  status: Type.Union([Type.Literal('answered'), Type.Literal('no-evidence')]),
  sentences: Type.Array(Type.Object({ text: Type.String(), sourceIds: Type.Array(Type.String()) }, { additionalProperties: false })),
}, { additionalProperties: false })

async function groundedAnswer(deps: AppDeps, query: string, ranked: Unit[], chinese: boolean): Promise<SearchAnswer | undefined> {
  const given = ranked.filter((unit) => unit.coverage > 0 && !unit.outdated).slice(0, 8)
  if (given.length === 0 || !deps.llm) return undefined
  const language = chinese ? 'Simplified Chinese' : 'English'
  try {
    const reply = await deps.llm.json([
      { role: 'system', content: `You answer a question about a team's meetings, work and project memory in ${language}, using only the numbered passages given. Every sentence cites the ids of the passages it rests on (e.g. "S2"). If the passages do not answer the question, answer status "no-evidence" with no sentences.` },
      { role: 'user', content: `Question: ${query}\n\nPassages:\n${given.map((unit, index) => `[S${index + 1}] (${unit.source.kind}) ${unit.text}`).join('\n')}` },
    ], GroundedReply, 'search_answer')
    if (reply.status === 'no-evidence') return compose(query, [], chinese, 'grounded-ai')
    // Grounding: a sentence without a passage it rests on is dropped.
    const kept = reply.sentences.flatMap((sentence) => {
      const cited = sentence.sourceIds.map((id) => given[Number(/^S(\d+)$/.exec(id.trim())?.[1]) - 1]).filter((unit): unit is Unit => unit !== undefined)
      return cited.length > 0 && sentence.text.trim() ? [{ text: sentence.text.trim(), sources: cited.flatMap((unit) => [unit.source, ...unit.extra]) }] : []
    })
    return kept.length > 0 ? compose(query, kept, chinese, 'grounded-ai') : undefined
  } catch (error) {
    if (error instanceof LlmError) return undefined
    throw error
  }
}

export async function answerQuestion(deps: AppDeps, membership: Membership, input: AnswerInput): Promise<SearchAnswer> {
  const query = input.query.trim()
  const chinese = input.locale === 'zh-Hans' || detectLanguage(query) === 'zh'
  const ranked = rank(query, await gatherUnits(deps, membership.workspaceId, query))
  if (input.mode === 'grounded-ai' && deps.llm) {
    const grounded = await groundedAnswer(deps, query, ranked, chinese)
    if (grounded) return grounded
  }
  const chosen = chooseExtractive(ranked)
  // Segments' places in the recording, for "where to open".
  const segmentIds = chosen.flatMap((unit) => [unit.source, ...unit.extra]).filter((source) => source.kind === 'segment' && source.startMs === undefined).map((source) => source.id)
  const starts = new Map((await findWorkspaceSegments(deps.database.db, membership.workspaceId, segmentIds)).map((segment) => [segment.id, segment.start_ms]))
  for (const source of chosen.flatMap((unit) => [unit.source, ...unit.extra])) if (source.kind === 'segment' && source.startMs === undefined && starts.has(source.id)) source.startMs = starts.get(source.id)!
  return compose(query, chosen.map((unit) => ({ text: unit.text, sources: [unit.source, ...unit.extra] })), chinese, 'extractive')
}
