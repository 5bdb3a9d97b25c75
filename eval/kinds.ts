// The learned detectors of outcomes and questions (src/modules/extraction/engine/learned-kinds.ts,
// kind-models.ts): training and leave-one-split-out measurement, as eval/decisions.ts does for decisions.
// `npm run eval -- --kinds-loso [--kinds=outcome,question] [--as-recognized] [--threshold=<x>]`: for
// each seen split, decisions by the rules and a LOSO decision detector in both arms; each kind by the
// rules alone, then with its detector trained on the other seen splits only (each kind alone, then all).
// Training (`--train-decisions` writes every shipped model) uses the decision detector's training config.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import type { MeetingFixture } from '../test/fixtures/meetings.ts'
import { summarize, type EvaluationReport } from '../src/modules/extraction/engine/evaluation.ts'
import { trainDecisionModel, type DecisionModel } from '../src/modules/extraction/engine/decision-model.ts'
import type { ExtractOptions } from '../src/modules/extraction/engine/extractive.ts'
import { OTHER_LEARNED_KINDS, type OtherLearnedKind } from '../src/modules/extraction/engine/kind-models.ts'
import { evaluateExtractive } from './extraction.ts'
import { SEEN_SPLITS, seenFixtures, trainingExamples, type TrainingConfig } from './decision-data.ts'
import { SHIPPED_TRAINING, trainingConfig, trainOn } from './decisions.ts'

/** The threshold each kind's detector ships with (outcomes: 0.75, chosen on the LOSO figures, docs/extraction.md twelfth pass; 0.5 and 0.85 tried). */
export const KIND_THRESHOLDS: Record<OtherLearnedKind, number> = { outcome: 0.75, question: 0.5 }

/** A model of `kind` trained on `fixtures` (less any `held` split) and what the config adds. */
export function trainKindOn(kind: OtherLearnedKind, fixtures: MeetingFixture[], config: TrainingConfig = SHIPPED_TRAINING, held: string[] = []): DecisionModel {
  const { minGroups, l2 } = config
  return { ...trainDecisionModel(trainingExamples(fixtures, config, held, kind), { minGroups, l2 }), threshold: KIND_THRESHOLDS[kind] }
}

/** The kinds named by `--kinds=` (every learned kind by default). */
export function kindsOf(argv: string[]): OtherLearnedKind[] {
  const named = argv.find((argument) => argument.startsWith('--kinds='))?.slice('--kinds='.length).split(',')
  return named ? OTHER_LEARNED_KINDS.filter((kind) => named.includes(kind)) : OTHER_LEARNED_KINDS
}

const percent = (value: number) => `${(value * 100).toFixed(0)}%`
const prf = (report: EvaluationReport, kind: OtherLearnedKind) => {
  const { precision, recall, f1 } = report.byKind[kind]
  return `${f1.toFixed(3)} (P ${percent(precision)} R ${percent(recall)})`
}

export function runKindsLoso(argv: string[]): void {
  const recognized = argv.includes('--as-recognized')
  const threshold = argv.find((argument) => argument.startsWith('--threshold='))?.slice('--threshold='.length)
  const kinds = kindsOf(argv)
  const fixtures = seenFixtures()
  const config = trainingConfig(argv)
  console.log(`training: ${JSON.stringify(config)}${threshold ? `, threshold ${threshold}` : ''}`)
  type Scores = ReturnType<typeof evaluateExtractive>['meetings'][number]['score'][]
  const run = (held: MeetingFixture[], options: ExtractOptions): Scores => evaluateExtractive(held, { recognized, ...options }).meetings.map(({ score }) => score)
  const arms = ['rules', ...kinds.map((kind) => `+${kind}`), ...(kinds.length > 1 ? ['+all'] : [])]
  const pooled = new Map(arms.map((arm) => [arm, [] as Scores]))
  console.log(`Outcomes and questions, leave one split out${recognized ? ', as recognized' : ''}: F1 (precision, recall) of the kind, rules → rules + its detector; overall\n`)
  const line = (name: string, reports: Map<string, EvaluationReport>) => {
    const base = reports.get('rules')!
    const cells = kinds.map((kind) => `${kind} ${prf(base, kind)} → ${prf(reports.get(`+${kind}`)!, kind)}`)
    const overall = arms.map((arm) => `${arm} ${reports.get(arm)!.overall.f1.toFixed(3)}`).join(' ')
    console.log(`${name.padEnd(12)} ${cells.join('   ')}   overall: ${overall}`)
  }
  for (const split of SEEN_SPLITS) {
    const held = fixtures.filter((fixture) => fixture.split === split)
    if (held.length === 0) continue
    const decisions: ExtractOptions['decisions'] = { model: trainOn(fixtures, config, [split]), mode: 'both' }
    const models = new Map(kinds.map((kind) => {
      const model = trainKindOn(kind, fixtures, config, [split])
      return [kind, threshold ? { ...model, threshold: Number(threshold) } : model] as const
    }))
    const reports = new Map<string, EvaluationReport>()
    for (const arm of arms) {
      const chosen = arm === 'rules' ? [] : arm === '+all' ? kinds : [arm.slice(1) as OtherLearnedKind]
      const kindOptions = Object.fromEntries(OTHER_LEARNED_KINDS.map((kind) => [kind, chosen.includes(kind) ? { model: models.get(kind)!, mode: 'both' as const } : 'rules' as const]))
      const scores = run(held, { decisions, kinds: kindOptions })
      pooled.get(arm)!.push(...scores)
      reports.set(arm, summarize(scores))
    }
    line(split, reports)
  }
  line('all (pooled)', new Map([...pooled].map(([arm, scores]) => [arm, summarize(scores)])))
  if (argv.includes('--verbose')) {
    for (const kind of kinds) for (const score of pooled.get(`+${kind}`)!) for (const item of score.spurious) if (item.kind === kind) console.log(`  spurious ${kind} [${item.sourceSegmentIds.join(',')}] ${item.title} (${item.confidence})`)
  }
}

export function trainShippedKinds(): void {
  for (const kind of OTHER_LEARNED_KINDS) {
    const model = trainKindOn(kind, seenFixtures(), SHIPPED_TRAINING)
    const file = path.join(import.meta.dirname, `../src/modules/extraction/engine/${kind}-weights.json`)
    writeFileSync(file, `${JSON.stringify(model)}\n`)
    console.log(`${kind}: ${Object.keys(model.weights).length} weights, threshold ${model.threshold}, written to ${path.relative(process.cwd(), file)}`)
  }
}
