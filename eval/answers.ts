// `npm run eval -- --answers`: the answer engine (POST /v1/search/answer, extractive) over every
// labelled meeting of test/fixtures/meetings loaded into one workspace, asked the labelled
// questions of test/fixtures/answers. An answerable question counts when the engine answers and a
// cited source is (or rests on) a segment its label names; an unanswerable one when the engine
// says no-evidence. Figures per split; each held-out split was written before the engine saw it
// (held-out-2 to -5, over the meetings of test/fixtures/answers/meetings, each sealed by its .sha256).
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { answerQuestion, type SearchAnswer } from '../src/modules/answers/ask.ts'
import { openDatabase } from '../src/platform/db/index.ts'
import { loadMeetingFixtures } from '../test/fixtures/meetings.ts'

type Question = { id: string; question: string; answers: string[] }
type QuestionSet = { split: string; questions: Question[] }

const directory = path.join(import.meta.dirname, '..', 'test', 'fixtures', 'answers')
export const loadQuestionSets = (): QuestionSet[] => ['development', 'held-out', 'held-out-2', 'held-out-3', 'held-out-4', 'held-out-5']
  .map((split) => JSON.parse(readFileSync(path.join(directory, `${split}.json`), 'utf8')) as QuestionSet)
/** Meetings written for the second to fifth held-out batches (not labelled for extraction, so not in test/fixtures/meetings). */
const answerMeetings = () => loadMeetingFixtures(path.join(directory, 'meetings'))

const segmentId = (label: string) => `seg_eval_${label.replace(/[^a-z0-9]+/gi, '_')}`

export async function evaluateAnswers(options: { verbose?: boolean; only?: string } = {}) {
  // Searches run on unref'd worker threads (SQLite read pool): keep the process alive meanwhile.
  const keepAlive = setInterval(() => {}, 60_000)
  try {
    return await evaluate(options)
  } finally {
    clearInterval(keepAlive)
  }
}

async function evaluate(options: { verbose?: boolean; only?: string }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'confer-eval-answers-'))
  const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: 'eval-secret-eval-secret-eval-secret!!', DATA_DIR: dataDir, STT_ENGINE: 'client', WORKERS: '0', LOG_LEVEL: 'silent' })
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
  }
  const membership = { workspaceId, accessRole: 'owner' as const, contentPermission: 'edit' as const, jobRole: null }
  const results = []
  try {
    for (const set of loadQuestionSets()) {
      if (options.only && !options.only.split(',').includes(set.split)) continue
      let answerable = 0
      let answeredWell = 0
      let unanswerable = 0
      let declined = 0
      const misses: string[] = []
      for (const question of set.questions) {
        const answer: SearchAnswer = await answerQuestion(app.deps, membership, { query: question.question })
        const cited = new Set(answer.sources.filter((source) => source.kind === 'segment').map((source) => source.id))
        if (question.answers.length > 0) {
          answerable += 1
          const good = answer.status === 'answered' && question.answers.some((label) => cited.has(segmentId(label)))
          if (good) answeredWell += 1
          else misses.push(`  ${question.id} ${question.question}\n     → ${answer.status} ${answer.answer.slice(0, 140)}`)
        } else {
          unanswerable += 1
          if (answer.status === 'no-evidence') declined += 1
          else misses.push(`  ${question.id} ${question.question} (unanswerable)\n     → answered: ${answer.answer.slice(0, 140)}`)
        }
      }
      results.push({ split: set.split, answerable, answeredWell, unanswerable, declined, misses })
    }
  } finally {
    await app.close()
  }
  for (const result of results) {
    const share = (part: number, whole: number) => (whole === 0 ? '-' : (part / whole).toFixed(2))
    console.log(`Answers, ${result.split} split: answerable answered with a correct source ${result.answeredWell}/${result.answerable} = ${share(result.answeredWell, result.answerable)}; ` +
      `unanswerable answered no-evidence ${result.declined}/${result.unanswerable} = ${share(result.declined, result.unanswerable)}`)
    if (options.verbose) for (const miss of result.misses) console.log(miss)
  }
  return results
}
