// `npm run eval -- --answers`: the answer engine (POST /v1/search/answer, extractive) over every
// labelled meeting of test/fixtures/meetings loaded into one workspace, asked the labelled
// questions of test/fixtures/answers. An answerable question counts when the engine answers and a
// cited source is (or rests on) a segment its label names; an unanswerable one when the engine
// says no-evidence. Figures per split; each held-out split was written before the engine saw it
// (held-out-2 to -5, over the meetings of test/fixtures/answers/meetings, each sealed by its .sha256).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { answerQuestion, type SearchAnswer } from '../src/modules/answers/ask.ts'
import { openDatabase } from '../src/platform/db/index.ts'
import { extractItems } from '../src/modules/extraction/engine/extractive.ts'
import { createProposal } from '../src/modules/work/index.ts'
import { loadMeetingFixtures } from '../test/fixtures/meetings.ts'

export type Question = { id: string; question: string; answers: string[] }
export type QuestionSet = { split: string; questions: Question[] }

const directory = path.join(import.meta.dirname, '..', 'test', 'fixtures', 'answers')
/** Every split in the directory: development, held-out, held-out-2, … (a new sealed batch joins by its file). */
const splitNames = () => readdirSync(directory).filter((name) => /^(development|cross-lingual|held-out(-\d+)?)\.json$/.test(name)).map((name) => name.slice(0, -'.json'.length))
  .sort((a, b) => splitOrder(a) - splitOrder(b))
/** development, cross-lingual (questions in the other language, also development), then the held-out splits in order. */
const splitOrder = (split: string) => (split === 'development' ? -2 : split === 'cross-lingual' ? -1 : Number(split.slice(9) || 1))
/** The splits already run once (or never sealed); a newer one is sealed and loads only when named (`--split=`), so that it is run once, on purpose. */
export const SEEN_ANSWER_SPLITS = ['development', 'cross-lingual', 'held-out', ...Array.from({ length: 16 }, (_, index) => `held-out-${index + 2}`)]
/** The question sets of the seen splits, and of the sealed ones `only` names. Learning, calibration and recall never see a sealed split unnamed. */
export const loadQuestionSets = (only?: string): QuestionSet[] => splitNames()
  .filter((split) => SEEN_ANSWER_SPLITS.includes(split) || (only?.split(',').includes(split) ?? false))
  .map((split) => JSON.parse(readFileSync(path.join(directory, `${split}.json`), 'utf8')) as QuestionSet)
/** Meetings written for the second to fifth held-out batches (not labelled for extraction, so not in test/fixtures/meetings). */
const answerMeetings = () => loadMeetingFixtures(path.join(directory, 'meetings'))

const segmentId = (label: string) => `seg_eval_${label.replace(/[^a-z0-9]+/gi, '_')}`

export type EvalOptions = { verbose?: boolean; only?: string; sentenceModel?: 'off' | 'use-lite-en' }

/**
 * Whether each meeting's extracted work is in the workspace, as the product has it once a meeting is
 * refined: the extraction engine's items at or above the quality gate, stored as pending proposals
 * (fourteenth pass). `EVAL_WORK=off`: transcripts only, the workspace of the first thirteen passes.
 */
export const EVAL_WORK = process.env.EVAL_WORK !== 'off'

/** Runs `work` with the process kept alive: searches run on unref'd worker threads (SQLite read pool). */
export async function keptAlive<T>(work: () => Promise<T>): Promise<T> {
  const keepAlive = setInterval(() => {}, 60_000)
  try {
    return await work()
  } finally {
    clearInterval(keepAlive)
  }
}

export const evaluateAnswers = (options: EvalOptions = {}) => keptAlive(() => evaluate(options))

/** Every labelled meeting loaded into one workspace of a fresh SQLite database, and the app that answers over it. */
export async function openEvalWorkspace(sentenceModel: EvalOptions['sentenceModel'] = 'off') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'confer-eval-answers-'))
  const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: 'eval-secret-eval-secret-eval-secret!!', DATA_DIR: dataDir, STT_ENGINE: 'client', WORKERS: '0', LOG_LEVEL: 'silent', ANSWERS_SENTENCE_MODEL: sentenceModel })
  const database = openDatabase(config.database)
  const app = await buildApp(config, { database })
  await app.ready()
  const workspaceId = 'wsp_eval'
  const now = new Date().toISOString()
  await database.db.insertInto('workspaces').values({ id: workspaceId, name: 'Eval', created_by: 'acc_eval', created_at: now, updated_at: now }).execute()
  for (const meeting of [...loadMeetingFixtures(), ...answerMeetings()]) {
    const sessionId = `ses_eval_${meeting.id.replace(/-/g, '_')}`
    await database.db.insertInto('conversations').values({ id: `cnv_eval_${meeting.id.replace(/-/g, '_')}`, workspace_id: workspaceId, session_id: sessionId, created_at: now }).execute()
    await database.db.insertInto('capture_sessions').values({
      id: sessionId, workspace_id: workspaceId, account_id: 'acc_eval', conversation_id: `cnv_eval_${meeting.id.replace(/-/g, '_')}`, project_id: null, title: meeting.title,
      capture_mode: 'microphone', state: 'ready', failure_reason: null, archived_at: null, started_at: meeting.meetingStartedAt, ended_at: meeting.meetingStartedAt,
      progress_event_at: null, created_at: now, updated_at: now,
    }).execute()
    await database.db.insertInto('transcript_segments').values(meeting.segments.map((segment) => ({
      id: segmentId(`${meeting.id}:${segment.id}`), session_id: sessionId, workspace_id: workspaceId, start_ms: segment.startMs, end_ms: segment.endMs,
      speaker_id: segment.speakerId ?? null, text: segment.text, status: 'final' as const, source: 'server' as const, engine: 'eval',
      language: segment.language ?? null, confidence: null, words: null, created_at: now, updated_at: now,
    }))).execute()
    if (!EVAL_WORK) continue
    // What the product proposes after the meeting (extraction's refine: items at or above the gate become pending proposals).
    const { items } = extractItems({ segments: meeting.segments, ...(meeting.participants ? { participants: meeting.participants } : {}), meetingStartedAt: meeting.meetingStartedAt, timezone: meeting.timezone })
    for (const item of items.filter((candidate) => candidate.confidence >= config.extractionQualityGate)) {
      await createProposal(app.deps, database.db, {
        sessionId, kind: item.kind, title: item.title, summary: item.summary, confidence: item.confidence, family: item.family, semanticType: item.semanticType,
        sourceSegmentIds: item.sourceSegmentIds.map((id) => segmentId(`${meeting.id}:${id}`)),
        ...(item.ownerName ? { ownerHint: item.ownerName } : {}), ...(item.dueDate ? { dueDate: item.dueDate } : {}),
      })
    }
  }
  const membership = { workspaceId, accessRole: 'owner' as const, contentPermission: 'edit' as const, jobRole: null }
  return { app, membership }
}

/** Does an answer count: answerable, answered citing a labelled segment; unanswerable, no-evidence. */
export const judged = (question: Question, cited: Set<string>, answered: boolean) =>
  question.answers.length > 0 ? answered && question.answers.some((label) => cited.has(segmentId(label))) : !answered

async function evaluate(options: EvalOptions) {
  const { app, membership } = await openEvalWorkspace(options.sentenceModel)
  const results = []
  try {
    for (const set of loadQuestionSets(options.only)) {
      if (options.only && !options.only.split(',').includes(set.split)) continue
      let answerable = 0
      let answeredWell = 0
      let unanswerable = 0
      let declined = 0
      const misses: string[] = []
      // Per language (a question with a Chinese character is Chinese): [answerable well, answerable, declined, unanswerable].
      const byLanguage = { en: [0, 0, 0, 0], zh: [0, 0, 0, 0] }
      for (const question of set.questions) {
        const answer: SearchAnswer = await answerQuestion(app.deps, membership, { query: question.question })
        const cited = new Set(answer.sources.filter((source) => source.kind === 'segment').map((source) => source.id))
        const language = byLanguage[/\p{Script=Han}/u.test(question.question) ? 'zh' : 'en']
        const good = judged(question, cited, answer.status === 'answered')
        language[question.answers.length > 0 ? 1 : 3]! += 1
        if (good) language[question.answers.length > 0 ? 0 : 2]! += 1
        if (question.answers.length > 0) {
          answerable += 1
          if (judged(question, cited, answer.status === 'answered')) answeredWell += 1
          else misses.push(`  ${question.id} ${question.question}\n     → ${answer.status} ${answer.answer.slice(0, 140)}`)
        } else {
          unanswerable += 1
          if (answer.status === 'no-evidence') declined += 1
          else misses.push(`  ${question.id} ${question.question} (unanswerable)\n     → answered: ${answer.answer.slice(0, 140)}`)
        }
      }
      results.push({ split: set.split, answerable, answeredWell, unanswerable, declined, misses, byLanguage })
    }
  } finally {
    await app.close()
  }
  for (const result of results) {
    const share = (part: number, whole: number) => (whole === 0 ? '-' : (part / whole).toFixed(2))
    console.log(`Answers, ${result.split} split: answerable answered with a correct source ${result.answeredWell}/${result.answerable} = ${share(result.answeredWell, result.answerable)}; ` +
      `unanswerable answered no-evidence ${result.declined}/${result.unanswerable} = ${share(result.declined, result.unanswerable)} ` +
      `(English ${result.byLanguage.en[0]}/${result.byLanguage.en[1]} · ${result.byLanguage.en[2]}/${result.byLanguage.en[3]}, Chinese ${result.byLanguage.zh[0]}/${result.byLanguage.zh[1]} · ${result.byLanguage.zh[2]}/${result.byLanguage.zh[3]})`)
    if (options.verbose) for (const miss of result.misses) console.log(miss)
  }
  return results
}
