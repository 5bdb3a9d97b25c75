// POST /v1/search/answer: a question answered over everything the asker may see in the workspace
// (transcripts, work objects, project memory, bound external items, indexed codebases), every
// sentence citing a source, or `no-evidence`. Retrieval is lexical (the search module's full-text
// index; LIKE over the smaller tables) then ranked (ranking.ts) by coverage of the question's words
// and an offline embedding (embedding.ts); a learned ranker and gate (learned.ts) choose the answer or no-evidence. `extractive` (default) answers with the best passages as
// they are; `grounded-ai` lets a chat model write from numbered passages and drops any sentence
// that cites none of them. With `projectId` the sources are that project's: its meetings' transcripts,
// the work headed to it or captured in its meetings, and its memory, external items and codebases.
import { Type } from 'typebox'
import type { Membership } from '../../platform/auth/actor.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { LlmError } from '../../platform/llm/chat.ts'
import { contentTokens, detectLanguage, splitSentences } from '../extraction/index.ts'
import { searchMemory, type MemorySource } from '../memory/index.ts'
import { anySegmentHits, FREQUENT, segmentFrequencies } from '../search/index.ts'
import { findProject } from '../projects/index.ts'
import { findSessionBriefs, listProjectSessionBriefs } from '../sessions/index.ts'
import { AppError } from '../../platform/http/errors.ts'
import { findWorkspaceSegments, segmentNeighbourhoods } from '../transcripts/index.ts'
import { findWorkObjectsMentioning } from '../work/index.ts'
import { questionDetails } from './details.ts'
import { languageGap } from './language.ts'
import { chooseLearned, type Learned } from './learned.ts'
import learned from './learned.json' with { type: 'json' }
import { attachSemantic } from './semantic.ts'
import { memberNames, phrased, workFacts } from './phrasing.ts'
import { markSettled, TURNS_AFTER_SETTLE, type Window } from './settled.ts'
import { lexicalWords, NEIGHBOURHOODS, QUESTION_WORDS, queryWords, rank, tokenizer, type AnswerInput, type Frequencies, type AnswerSource, type SearchAnswer, type Unit } from './ranking.ts'

export type { AnswerInput, AnswerSource, SearchAnswer } from './ranking.ts'
export { queryWords } from './ranking.ts'

/** Where a reader opens what a memory entry rests on: its first segment, external item or file. */
function openable(sources: MemorySource[]): AnswerSource[] {
  const source = sources.find((candidate) => candidate.kind !== 'work-object')
  if (!source) return []
  if (source.kind === 'segment') return [{ kind: 'segment', id: source.id, quote: source.quote, sessionId: source.sessionId, startMs: source.startMs }]
  if (source.kind === 'external-item') return [{ kind: 'external-item', id: source.id, quote: source.quote, url: source.url, title: source.title }]
  if (source.kind === 'file') return [{ kind: 'file', id: source.id, quote: source.quote, path: source.path, line: source.line }]
  return []
}

/** How common each English question word is in the workspace's transcripts (keyed by its stem). */
async function questionFrequencies(deps: AppDeps, workspaceId: string, question: string): Promise<Frequencies> {
  const stems = queryWords(question)
  const words = lexicalWords(question)
  const counts = new Map<string, number>()
  // A stem that is no prefix of the word as written (kei for key) would count nothing: left uncounted.
  const written = question.toLowerCase().match(/[a-z0-9]+/g) ?? []
  const english = words.flatMap((word, index) => (/^[a-z0-9]+$/.test(word) && written.some((raw) => raw.startsWith(word)) ? [[stems[index]!, word] as const] : []))
  const found = await segmentFrequencies(deps.database, workspaceId, english.map(([, word]) => word))
  english.forEach(([stem], index) => found[index] !== undefined && counts.set(stem, found[index]!))
  return { counts, cap: FREQUENT }
}

/** Fewer hits than this for a Chinese question: its words of two characters are looked for too. */
const FEW_HITS = 12

/**
 * Segments holding the question's words. Chinese is searched by three-character pieces, which miss
 * when the transcript words it differently (周末值班 / 周末只有一个人值班): with few hits, the
 * question's two-character words are looked for as well.
 */
/** A project's question: the project and its meetings. */
export type ProjectScope = { projectId: string; sessionIds: string[] }

async function segmentHits(deps: AppDeps, workspaceId: string, question: string, words: string[], scope?: ProjectScope) {
  const hits = await anySegmentHits(deps.database, workspaceId, words, undefined, scope?.sessionIds)
  const han = question.match(/\p{Script=Han}+/gu)?.join('，') ?? ''
  if (hits.length >= FEW_HITS || !han) return hits
  const pairs = [...new Set(contentTokens(han.replace(QUESTION_WORDS, '，')))].filter((token) => [...token].length === 2 && !words.includes(token))
  if (pairs.length === 0) return hits
  const known = new Set(hits.map((hit) => hit.id))
  return [...hits, ...(await anySegmentHits(deps.database, workspaceId, pairs.slice(0, 8), undefined, scope?.sessionIds)).filter((hit) => !known.has(hit.id))]
}

/**
 * Turns read after a hit (seventh pass, leave-one-split-out over seven splits, unanswerable 64/82
 * throughout): 2 (and 3 after a question) 153/221; 3 / 5: 159; 4 / 5: 160; 3 / 4: 156; 4 / 4: 157;
 * 6 / 6: 157.
 */
const TURNS_AFTER = 3
const TURNS_AFTER_A_QUESTION = 5
/** The segments a work object cites that are quoted with it (a decision: its proposal and the turn that settles it). */
const MAX_CITED_SEGMENTS = 3

const POINTS_BACK = /\b(that|this|those|these)\b[^a-z]*$|^(that|this|it|its|their|they)\b|^(这个|那个|这样|这些|那些|他们|她们)/i
function withAntecedents(sentences: string[]): string[] {
  return sentences.map((sentence, index) => {
    const before = sentences[index - 1]
    if (!before || !POINTS_BACK.test(sentence.trim())) return sentence
    return /\p{Script=Han}/u.test(sentence) ? before + sentence : `${before} ${sentence}`
  })
}

async function gatherUnits(deps: AppDeps, workspaceId: string, question: string, tokenize: (text: string) => string[], scope?: ProjectScope): Promise<{ units: Unit[]; windows: Window[] }> {
  const words = lexicalWords(question)
  if (words.length === 0) return { units: [], windows: [] }
  const [segments, work, everyMemory] = await Promise.all([
    segmentHits(deps, workspaceId, question, words, scope),
    findWorkObjectsMentioning(deps, workspaceId, words, 100, scope),
    searchMemory(deps, workspaceId, words),
  ])
  const memory = scope ? everyMemory.filter((hit) => hit.projectId === scope.projectId) : everyMemory
  const owners = await memberNames(deps, workspaceId, work.flatMap((object) => object.ownerAccountId ?? object.ownerHintAccountId ?? []))
  const units: Unit[] = []
  const unit = (text: string, source: AnswerSource, boost = 0, extra: AnswerSource[] = []) => units.push({ text, source, extra, boost, coverage: 0, score: 0 })
  // What a superseded entry rests on is outdated too: the transcript still says it, memory knows better.
  const outdated = new Set(memory.flatMap((hit) => (hit.kind === 'memory-entry' && hit.status === 'superseded' ? hit.sources.map((source) => source.id) : [])))
  const live = new Set(memory.flatMap((hit) => (hit.kind === 'memory-entry' && hit.status !== 'superseded' ? hit.sources.map((source) => source.id) : [])))
  for (const id of live) outdated.delete(id)
  // The best segments with their neighbours: an answer often sits next to the words that name its subject.
  // Two segments before, three after (a subject is often settled a few turns after it is named),
  // and five after when the second after asks a question (its reply and what follows it).
  // Read further still for the turn that settles a subject (settled.ts): one query.
  const windows: Window[] = []
  const neighbourhoods = (await segmentNeighbourhoods(deps.database, workspaceId, segments.slice(0, NEIGHBOURHOODS).map((segment) => segment.id), 2, Math.max(TURNS_AFTER_A_QUESTION, TURNS_AFTER_SETTLE)))
    .map(({ centre, segments: all }) => {
      windows.push(all)
      const at = all.indexOf(centre)
      const around = all.slice(0, at + 1 + TURNS_AFTER_A_QUESTION)
      const asks = around[at + 2] && /[?？]\s*$/.test(around[at + 2]!.text)
      return { centre, segments: around.length > at + 1 + TURNS_AFTER && !asks ? around.slice(0, at + 1 + TURNS_AFTER) : around }
    })
  const titles = new Map((await findSessionBriefs(deps.database.db, workspaceId, neighbourhoods.map(({ centre }) => centre.session_id))).map((session) => [session.id, session.title]))
  const seen = new Set<string>()
  const meetings = new Map<string, Set<string>>()
  const meetingTexts = new Map<string, string[]>()
  for (const segment of segments) {
    const words = meetings.get(segment.session_id) ?? new Set<string>()
    for (const token of tokenize(segment.text)) words.add(token)
    meetings.set(segment.session_id, words)
    if (!meetingTexts.has(segment.session_id)) meetingTexts.set(segment.session_id, [])
    meetingTexts.get(segment.session_id)!.push(segment.text)
  }
  // Details read from the text (a Chinese month, an event) are looked for in the meeting as the search read it: only built when asked.
  const textDetails = questionDetails(question).marked.length > 0
  // The turn after each segment read (the neighbourhood of another hit may hold it).
  const following = new Map<string, { id: string; text: string }>()
  for (const { segments: around } of neighbourhoods) around.forEach((segment, index) => around[index + 1] && following.set(segment.id, around[index + 1]!))
  for (const { centre, segments: around } of neighbourhoods) {
    const context = new Set([titles.get(centre.session_id) ?? '', ...around.map((segment) => segment.text)].flatMap(tokenize))
    const titleWords = new Set(tokenize(titles.get(centre.session_id) ?? ''))
    const meetingText = textDetails ? [titles.get(centre.session_id) ?? '', ...around.map((segment) => segment.text), ...(meetingTexts.get(centre.session_id) ?? [])].join('\n') : undefined
    around.forEach((segment, index) => {
      if (seen.has(segment.id)) return
      seen.add(segment.id)
      // A reply answers the question just before it ("Who is running it?" / "I'll take it."): it is read with that question's words.
      const previous = around[index - 1]
      const question = previous !== undefined && /[?？]\s*$/.test(previous.text)
      // A turn opening on "Their…/It…" speaks of what the turn before it named: read with its words too.
      const sentences = splitSentences(segment.text)
      const pointsBack = previous !== undefined && POINTS_BACK.test(sentences[0]?.trim() ?? '')
      const asked = question || pointsBack ? new Set(tokenize(previous!.text)) : undefined
      // The turn after it, and when that turn asks about it, the reply: the discussion may settle there (ranking.ts, settle).
      const next = following.get(segment.id)
      const then = next && /[?？]\s*$/.test(next.text) ? following.get(next.id) : undefined
      const turnsAfter = [next?.id, then?.id].filter((id): id is string => id !== undefined)
      // A sentence pointing back ("…should be about that.", 这个…) is read with the one before it.
      for (const [at, sentence] of withAntecedents(sentences).entries()) {
        unit(sentence, { kind: 'segment', id: segment.id, quote: sentence, sessionId: segment.session_id, startMs: segment.start_ms })
        units.at(-1)!.context = context
        units.at(-1)!.meeting = meetings.get(segment.session_id)
        units.at(-1)!.title = titleWords
        if (asked && (question || at === 0)) Object.assign(units.at(-1)!, question ? { asked, askedText: previous!.text } : { asked })
        units.at(-1)!.vectorText = question ? `${previous!.text} ${segment.text}` : segment.text
        if (previous) Object.assign(units.at(-1)!, { before: new Set(tokenize(previous.text)), beforeText: previous.text })
        if (meetingText !== undefined) units.at(-1)!.meetingText = meetingText
        units.at(-1)!.followedBy = turnsAfter
      }
    })
  }
  for (const object of work) {
    const boost = object.kind === 'decision' || object.kind === 'outcome' ? 0.03 : 0
    // A work object cites the turns it was made from (a decision: the proposal and the turn that settles it), quoted
    // once chosen (answerQuestion); a pending proposal says so. Its segments are not quoted again beside it.
    const cited: AnswerSource[] = object.sourceSegmentIds.slice(0, MAX_CITED_SEGMENTS).map((id) => ({ kind: 'segment', id, quote: '', sessionId: object.sessionId }))
    const source = (quote: string): AnswerSource => ({ kind: 'work-object', id: object.id, quote, sessionId: object.sessionId, title: object.title, ...(object.proposed ? { status: 'proposed' } : {}) })
    // Its title is read with who takes it and by when ("Send the vendor contract (owner Dana Li; due …)"): "who…?" and "when is … due?" are answered by it.
    const title = object.title + workFacts(object, owners.get(object.ownerAccountId ?? object.ownerHintAccountId ?? '') ?? object.ownerHint)
    for (const [index, text] of [title, ...splitSentences(object.summary ?? '')].entries()) {
      unit(text, source(index === 0 ? object.title : text), boost, cited)
      units.at(-1)!.covers = new Set(object.sourceSegmentIds)
    }
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
    // A work object resting on a turn a superseded entry rests on (a proposal found again from that turn) is outdated too.
    const restsOnOutdated = unit.source.kind === 'work-object' && unit.extra.some((source) => outdated.has(source.id))
    if (unit.source.kind === 'memory-entry' ? unit.source.status === 'superseded' : outdated.has(unit.source.id) || restsOnOutdated) {
      unit.outdated = true
      unit.boost -= 0.3
    }
  }
  return { units, windows }
}

/** Segments' places in the recording, for "where to open", and the words of those a work object cites (one query). */
async function openSegments(deps: AppDeps, workspaceId: string, chosen: Unit[]) {
  const segmentIds = chosen.flatMap((unit) => [unit.source, ...unit.extra]).filter((source) => source.kind === 'segment' && (source.startMs === undefined || !source.quote)).map((source) => source.id)
  const found = new Map((await findWorkspaceSegments(deps.database.db, workspaceId, segmentIds)).map((segment) => [segment.id, segment]))
  for (const unit of chosen) {
    unit.extra = unit.extra.flatMap((source) => (source.kind !== 'segment' || source.quote ? [source] : found.has(source.id) ? [{ ...source, quote: found.get(source.id)!.text }] : []))
    for (const source of [unit.source, ...unit.extra]) if (source.kind === 'segment' && source.startMs === undefined && found.has(source.id)) source.startMs = found.get(source.id)!.start_ms
  }
}

const joinFor = (chinese: boolean, parts: string[]) => (chinese ? parts.join('') : parts.join(' '))

function compose(query: string, chosen: { text: string; sources: AnswerSource[] }[], chinese: boolean, generatedBy: SearchAnswer['generatedBy']): SearchAnswer {
  if (chosen.length === 0) return { query, status: 'no-evidence', answer: '', sentences: [], sources: [], generatedBy }
  // Each source is listed once (a work object's title and a sentence of its summary, two sentences of
  // one segment): its quote holds every distinct passage quoted from it.
  const sources: AnswerSource[] = []
  const indexOf = (source: AnswerSource) => {
    const found = sources.findIndex((known) => known.kind === source.kind && known.id === source.id)
    if (found === -1) return sources.push({ ...source }) - 1
    const known = sources[found]!
    if (!known.quote.includes(source.quote)) known.quote = source.quote.includes(known.quote) ? source.quote : joinFor(chinese, [known.quote, source.quote])
    return found
  }
  const sentences = chosen.map((item) => ({ text: item.text, sourceIndexes: [...new Set(item.sources.map(indexOf))] }))
  return { query, status: 'answered', answer: joinFor(chinese, sentences.map((sentence) => sentence.text)), sentences, sources, generatedBy }
}

const GroundedReply = Type.Object({
  status: Type.Union([Type.Literal('answered'), Type.Literal('no-evidence')]),
  sentences: Type.Array(Type.Object({ text: Type.String(), sourceIds: Type.Array(Type.String()) }, { additionalProperties: false })),
}, { additionalProperties: false })

async function groundedAnswer(deps: AppDeps, workspaceId: string, query: string, ranked: Unit[], chinese: boolean): Promise<SearchAnswer | undefined> {
  const given = ranked.filter((unit) => unit.coverage > 0 && !unit.outdated).slice(0, 8)
  if (given.length === 0 || !deps.llm) return undefined
  await openSegments(deps, workspaceId, given)
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

/** The candidate passages of a question, ranked (exported for the labelled-question tools in eval/). */
type Log = { warn(object: object, message: string): void }

export async function rankPassages(deps: AppDeps, membership: Membership, query: string, log?: Log, scope?: ProjectScope): Promise<Unit[]> {
  const tokenize = tokenizer()
  const [{ units, windows }, frequencies] = await Promise.all([gatherUnits(deps, membership.workspaceId, query, tokenize, scope), questionFrequencies(deps, membership.workspaceId, query)])
  // The learned model is a ranking signal only: if it cannot run, the lexical ranking answers alone.
  if (deps.config.answers.sentenceModel !== 'off') await attachSemantic(query, units).catch((error: unknown) => log?.warn({ err: error }, 'answers: sentence model unavailable, lexical ranking only'))
  const ranked = rank(query, units, frequencies, tokenize)
  // The turn that settles the best passages' subject, a few turns later (settled.ts): then ranked again.
  if (markSettled(ranked, windows, tokenize)) return rank(query, ranked, frequencies, tokenize)
  return ranked
}

/** The project a question is limited to, with its meetings; 404 when the asker's workspace has no such project. */
async function projectScope(deps: AppDeps, workspaceId: string, projectId: string): Promise<ProjectScope> {
  const project = await findProject(deps.database.db, workspaceId, projectId)
  if (!project) throw new AppError('not_found', `No project with id ${projectId}.`, { errors: [{ field: 'projectId', code: 'not_found', message: 'no such project in this workspace' }] })
  const sessions = await listProjectSessionBriefs(deps.database.db, workspaceId, project.id)
  return { projectId: project.id, sessionIds: sessions.map((session) => session.id) }
}

export async function answerQuestion(deps: AppDeps, membership: Membership, input: AnswerInput, log?: Log): Promise<SearchAnswer> {
  const query = input.query.trim()
  const chinese = input.locale === 'zh-Hans' || detectLanguage(query) === 'zh'
  const scope = input.projectId === undefined ? undefined : await projectScope(deps, membership.workspaceId, input.projectId)
  const ranked = await rankPassages(deps, membership, query, log, scope)
  if (input.mode === 'grounded-ai' && deps.llm) {
    const grounded = await groundedAnswer(deps, membership.workspaceId, query, ranked, chinese)
    if (grounded) return grounded.status === 'no-evidence' ? { ...grounded, ...(await languageGap(deps, membership.workspaceId, query)) } : grounded
  }
  // The learned ranker and gate choose (learned.ts; fitted by eval/answers-learn.ts).
  const chosen = chooseLearned(learned as Learned, query, ranked)
  // No evidence for a question in a language the meetings are not in: say that this is why.
  if (chosen.length === 0) return { ...compose(query, [], chinese, 'extractive'), ...(await languageGap(deps, membership.workspaceId, query)) }
  const said = withoutRepeats(chosen)
  await openSegments(deps, membership.workspaceId, said)
  return compose(query, await phrased(deps, membership.workspaceId, query, said), chinese, 'extractive')
}

/** A sentence's words without a speaker label before them ("Speaker 2: …", "Dana Li：…") or closing punctuation. */
const sameWords = (text: string) => text.replace(/^[^:：]{1,40}[:：]\s*/u, '').toLowerCase().replace(/[\s\p{P}]+/gu, ' ').trim()

/**
 * The chosen passages without saying one thing twice: a passage whose words an earlier one already said (a work
 * object's stored quote of the turn it came from, "Speaker 2: I will send…", beside that turn) is left out. A source
 * may still back more than one sentence (a decision's proposal turn, quoted and cited by the decision).
 */
export function withoutRepeats(chosen: Unit[]): Unit[] {
  const said = new Set<string>()
  return chosen.filter((unit) => {
    const words = sameWords(unit.text)
    if (words && said.has(words)) return false
    said.add(words)
    return true
  })
}
