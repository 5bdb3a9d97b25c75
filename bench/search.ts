// Session search over 200,000 transcript segments: 400 sessions of 500 segments in the bench
// account's workspace, written straight into the server's database (through the same triggers
// and indexes the app uses), then GET /v1/search/sessions for English, two-word, Chinese and
// missing terms; p50/p95 one request at a time and four at a time.
import { sql } from 'kysely'
import { loadConfig } from '../src/config.ts'
import { openDatabase } from '../src/platform/db/index.ts'

const SESSIONS = 400
const PER_SESSION = 500
// A meeting-like vocabulary: a few hundred common words and a long tail of rarer ones, drawn with
// a Zipf-like skew, so a term's share of segments resembles real talk (not every segment says "budget").
const COMMON = 'the we to and is it that of for on this so i you can will with be have just but what about need next week team plan launch review customer budget design release notes build test deploy metric latency backlog sprint owner email meeting deadline feature bug priority scope risk'.split(' ')
const syllables = 'ka lo mi ren to sha vel dor pin qua zet bri mon fal ter gus'.split(' ')
const RARE = Array.from({ length: 3000 }, (_, index) => syllables[index % 16]! + syllables[Math.floor(index / 16) % 16]! + syllables[Math.floor(index / 256) % 16]!)
const WORDS = [...COMMON, ...RARE]
const ZH = '我们 讨论 发布 计划 客户 设计 评审 测试 上线 指标 风险 负责 本周 下周 需求 版本 文档 会议 问题 进度 目标 数据 用户 接口 服务 成本 合同 培训 招聘 预算'.split(' ')
const zipf = () => Math.floor(WORDS.length * random() ** 3)

let seed = 42
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 0x1_0000_0000)
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!

function sentence(index: number): string {
  if (index % 997 === 0) return '我们决定本周完成预算审批，然后再讨论上线。'
  if (index % 10 === 7) return Array.from({ length: 6 }, () => pick(ZH)).join('') + '。'
  const words = Array.from({ length: 10 + Math.floor(random() * 10) }, () => WORDS[zipf()]!)
  if (index % 211 === 0) words.splice(3, 0, 'quarterly', 'roadmap')
  return words.join(' ') + '.'
}

export async function seedSearch(databaseUrl: string, workspaceId: string, accountId: string) {
  const database = openDatabase(loadConfig({ DATABASE_URL: databaseUrl, NODE_ENV: 'test' }).database)
  const now = new Date().toISOString()
  let index = 0
  try {
    for (let s = 0; s < SESSIONS; s += 1) {
      const id = `ses_bench${String(s).padStart(6, '0')}`
      await database.db.insertInto('conversations').values({ id: `cnv_bench${s}`, workspace_id: workspaceId, session_id: id, created_at: now }).execute()
      await database.db.insertInto('capture_sessions').values({
        id, workspace_id: workspaceId, account_id: accountId, conversation_id: `cnv_bench${s}`, project_id: null, title: `Meeting ${s}`,
        capture_mode: 'microphone', state: 'ready', failure_reason: null, archived_at: null, started_at: now, ended_at: now,
        progress_event_at: null, created_at: now, updated_at: now,
      }).execute()
      const rows = Array.from({ length: PER_SESSION }, (_, position) => ({
        id: `seg_bench${String((index += 1)).padStart(8, '0')}`, session_id: id, workspace_id: workspaceId,
        start_ms: position * 4000, end_ms: position * 4000 + 3500, speaker_id: `spk_${(position % 3) + 1}`, text: sentence(index),
        status: 'final' as const, source: 'server' as const, engine: 'bench', language: null, confidence: null, words: null, created_at: now, updated_at: now,
      }))
      await database.db.transaction().execute(async (trx) => {
        for (let start = 0; start < rows.length; start += 250) await trx.insertInto('transcript_segments').values(rows.slice(start, start + 250)).execute()
      })
    }
    // A bulk load leaves the planner's statistics stale until autovacuum catches up: refresh them,
    // as production would have (PostgreSQL otherwise filters 200k rows instead of using its indexes).
    await sql`analyze`.execute(database.db)
  } finally {
    await database.close()
  }
  return SESSIONS * PER_SESSION
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

async function timeRequests(url: string, cookie: string, concurrency: number, perWorker: number) {
  const timings: number[] = []
  let hits = 0
  const worker = async () => {
    for (let request = 0; request < perWorker; request += 1) {
      const started = performance.now()
      const response = await fetch(url, { headers: { cookie } })
      const body = await response.json() as { sessions?: unknown[] }
      if (!response.ok) throw new Error(`search failed: ${response.status}`)
      timings.push(performance.now() - started)
      hits = body.sessions?.length ?? 0
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { sorted: timings.sort((a, b) => a - b), hits }
}

/** p50/p95 one request at a time (the latency a user sees), and with 4 at once (queueing on one process). */
export async function benchSearch(baseUrl: string, cookie: string, label: string): Promise<string[]> {
  const lines: string[] = []
  for (const q of ['roadmap', 'quarterly roadmap', '预算审批', '上线', 'zzqxv']) {
    const url = `${baseUrl}/v1/search/sessions?q=${encodeURIComponent(q)}`
    await timeRequests(url, cookie, 1, 10)
    const alone = await timeRequests(url, cookie, 1, 100)
    const busy = await timeRequests(url, cookie, 4, 50)
    const figures = (sorted: number[]) => `p50 ${percentile(sorted, 50).toFixed(1)} / p95 ${percentile(sorted, 95).toFixed(1)} ms`
    lines.push(`${`search "${q}", 200k segments (${label})`.padEnd(44)} 1 at a time ${figures(alone.sorted)}   4 at a time ${figures(busy.sorted)}   (${alone.hits} sessions)`)
  }
  return lines
}
