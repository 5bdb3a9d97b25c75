// `npm run eval -- --answers --recall`: where retrieval leaves each answerable labelled question's
// correct source — among the candidates the learned ranker reads (rank()'s best 40), further down
// rank()'s order, set aside for naming another detail, among the raw transcript hits only (not read
// with neighbours), in a meeting the hits reach, or nowhere. Measures recall, fits nothing.
import { lexicalWords, type Unit } from '../src/modules/answers/ranking.ts'
import { rankPassages } from '../src/modules/answers/ask.ts'
import { candidates } from '../src/modules/answers/learned.ts'
import { anySegmentHits } from '../src/modules/search/index.ts'
import { judged, keptAlive, loadQuestionSets, openEvalWorkspace, type EvalOptions, type Question } from './answers.ts'

const DEPTHS = [1, 5, 10, 20, 40, 80]
const STAGES = ['candidates', 'ranked deeper', 'set aside', 'hit only', 'meeting reached', 'not reached'] as const

const segmentIds = (units: Unit[]) => new Set(units.flatMap((unit) => [unit.source, ...unit.extra]).filter((source) => source.kind === 'segment').map((source) => source.id))
const sessionOf = (label: string) => `ses_eval_${label.split(':')[0]!.replace(/-/g, '_')}`

export const recallAnswers = (options: EvalOptions = {}) => keptAlive(async () => {
  const { app, membership } = await openEvalWorkspace(options.sentenceModel)
  const pooled = new Map<string, number>()
  const depthPooled = DEPTHS.map(() => 0)
  let total = 0
  try {
    for (const set of loadQuestionSets(options.only)) {
      if (options.only && !options.only.split(',').includes(set.split)) continue
      const stages = new Map<string, number>()
      const depths = DEPTHS.map(() => 0)
      const answerable = set.questions.filter((question: Question) => question.answers.length > 0)
      for (const question of answerable) {
        const query = question.question.trim()
        const ranked = await rankPassages(app.deps, membership, query)
        const kept = candidates(ranked, Number.MAX_SAFE_INTEGER)
        const at = kept.findIndex((unit) => judged(question, segmentIds([unit]), true))
        DEPTHS.forEach((depth, index) => { if (at !== -1 && at < depth) depths[index]! += 1 })
        const hits = await anySegmentHits(app.deps.database, membership.workspaceId, lexicalWords(query))
        const stage = at !== -1 && at < 40 ? 'candidates'
          : at !== -1 ? 'ranked deeper'
          : judged(question, segmentIds(ranked), true) ? 'set aside'
          : hits.some((hit) => judged(question, new Set([hit.id]), true)) ? 'hit only'
          : hits.some((hit) => question.answers.some((label) => sessionOf(label) === hit.session_id)) ? 'meeting reached' : 'not reached'
        stages.set(stage, (stages.get(stage) ?? 0) + 1)
      }
      total += answerable.length
      DEPTHS.forEach((_, index) => { depthPooled[index]! += depths[index]! })
      for (const [stage, count] of stages) pooled.set(stage, (pooled.get(stage) ?? 0) + count)
      console.log(`${set.split} (${answerable.length}): recall ${DEPTHS.map((depth, index) => `@${depth} ${depths[index]}`).join(' ')} | ${STAGES.map((stage) => `${stage} ${stages.get(stage) ?? 0}`).join(', ')}`)
    }
  } finally {
    await app.close()
  }
  console.log(`pooled (${total}): recall ${DEPTHS.map((depth, index) => `@${depth} ${depthPooled[index]}`).join(' ')} | ${STAGES.map((stage) => `${stage} ${pooled.get(stage) ?? 0}`).join(', ')}`)
})
