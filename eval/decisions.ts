// The learned decision detector (src/modules/extraction/engine/decision-model.ts): its training data,
// training, and leave-one-split-out measurement.
// `npm run eval -- --decisions-loso [--as-recognized]`: for each seen split, a model trained on the
// other seen splits only, scored on the held split: decisions of the rules alone, the detector alone
// and both (what the engine ships), and actions/overall of both against the rules.
// `npm run eval -- --train-decisions`: trains on every seen split and writes the shipped weights.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { loadMeetingFixtures, type MeetingFixture } from '../test/fixtures/meetings.ts'
import { summarize, type EvaluationReport } from '../src/modules/extraction/engine/evaluation.ts'
import { decisionUnits, trainDecisionModel, unitFeatures, wordsOf, type DecisionModel, type TrainingExample } from '../src/modules/extraction/engine/decision-model.ts'
import type { ExtractOptions } from '../src/modules/extraction/engine/extractive.ts'
import { joinCutSentences, turnIndexes } from '../src/modules/extraction/engine/turns.ts'
import { evaluateExtractive } from './extraction.ts'

/** The splits a model may learn from; held-out-6 and later are sealed and never read. */
export const SEEN_SPLITS = ['development', 'held-out', 'held-out-2', 'held-out-3', 'held-out-4', 'held-out-5'] as const
/** The threshold the detector ships with (chosen on the leave-one-split-out figures, docs/extraction.md). */
export const DECISION_THRESHOLD = 0.5

export function seenFixtures(): MeetingFixture[] {
  return loadMeetingFixtures().filter((fixture) => (SEEN_SPLITS as readonly string[]).includes(fixture.split))
}

/**
 * Each sentence of a meeting as an example. Positive: in a segment a labelled decision cites, the
 * sentence sharing most words with the label's title; the segment's other sentences are left out
 * (an agreeing "yeah" is not itself the decision); every other sentence is negative.
 */
export function decisionExamples(fixture: MeetingFixture): TrainingExample[] {
  const segments = joinCutSentences([...fixture.segments].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs))
  const units = decisionUnits(segments, turnIndexes(segments))
  const labelled = new Map<string, string[]>()
  for (const item of fixture.expected) {
    if (item.kind !== 'decision') continue
    for (const id of item.sourceSegmentIds) labelled.set(id, [...(labelled.get(id) ?? []), ...wordsOf(item.title)])
  }
  const best = new Map<string, { index: number; overlap: number }>()
  units.forEach((unit, index) => {
    const title = labelled.get(unit.segmentId)
    if (!title) return
    const overlap = new Set(wordsOf(unit.text).filter((word) => word.length > 2 && title.includes(word))).size
    if (overlap > (best.get(unit.segmentId)?.overlap ?? 0)) best.set(unit.segmentId, { index, overlap })
  })
  return units.flatMap((unit, index) => {
    const positive = best.get(unit.segmentId)?.index === index
    if (labelled.has(unit.segmentId) && !positive) return []
    return [{ features: unitFeatures(unit, true), positive }, { features: unitFeatures(unit, false), positive }]
  })
}

export function trainOn(fixtures: MeetingFixture[]): DecisionModel {
  return { ...trainDecisionModel(fixtures.flatMap(decisionExamples)), threshold: DECISION_THRESHOLD }
}

const percent = (value: number) => `${(value * 100).toFixed(0)}%`
const prf = (report: EvaluationReport) => {
  const { precision, recall, f1 } = report.byKind.decision
  return `${f1.toFixed(3)} (P ${percent(precision)} R ${percent(recall)})`
}

export function runDecisionsLoso(argv: string[]): void {
  const recognized = argv.includes('--as-recognized')
  const threshold = Number(argv.find((argument) => argument.startsWith('--threshold='))?.slice('--threshold='.length) ?? DECISION_THRESHOLD)
  const fixtures = seenFixtures()
  const run = (held: MeetingFixture[], decisions: ExtractOptions['decisions']) => evaluateExtractive(held, { recognized, decisions }).meetings.map(({ score }) => score)
  const pooled = { rules: [] as ReturnType<typeof run>, learned: [] as ReturnType<typeof run>, both: [] as ReturnType<typeof run> }
  console.log(`Decisions, leave one split out${recognized ? ', as recognized' : ''} (threshold ${threshold}): F1 (precision, recall)\n`)
  console.log(`${'held split'.padEnd(12)} ${'rules'.padEnd(22)} ${'learned alone'.padEnd(22)} ${'rules + learned'.padEnd(22)} actions / overall: rules → both`)
  for (const split of SEEN_SPLITS) {
    const held = fixtures.filter((fixture) => fixture.split === split)
    const model = { ...trainOn(fixtures.filter((fixture) => fixture.split !== split)), threshold }
    const rules = run(held, 'rules')
    const learned = run(held, { model, mode: 'learned' })
    const both = run(held, { model, mode: 'both' })
    pooled.rules.push(...rules)
    pooled.learned.push(...learned)
    pooled.both.push(...both)
    const [r, l, b] = [summarize(rules), summarize(learned), summarize(both)]
    console.log(`${split.padEnd(12)} ${prf(r).padEnd(22)} ${prf(l).padEnd(22)} ${prf(b).padEnd(22)} ${r.byKind.action.f1.toFixed(3)} → ${b.byKind.action.f1.toFixed(3)} / ${r.overall.f1.toFixed(3)} → ${b.overall.f1.toFixed(3)}`)
  }
  const [r, l, b] = [summarize(pooled.rules), summarize(pooled.learned), summarize(pooled.both)]
  console.log(`${'all (pooled)'.padEnd(12)} ${prf(r).padEnd(22)} ${prf(l).padEnd(22)} ${prf(b).padEnd(22)} ${r.byKind.action.f1.toFixed(3)} → ${b.byKind.action.f1.toFixed(3)} / ${r.overall.f1.toFixed(3)} → ${b.overall.f1.toFixed(3)}`)
  if (argv.includes('--verbose')) {
    for (const score of pooled.both) for (const item of score.spurious) if (item.kind === 'decision') console.log(`  spurious [${item.sourceSegmentIds.join(',')}] ${item.title} (${item.confidence})`)
  }
}

export function trainShippedDecisions(): void {
  const model = trainOn(seenFixtures())
  const file = path.join(import.meta.dirname, '../src/modules/extraction/engine/decision-weights.json')
  writeFileSync(file, `${JSON.stringify(model)}\n`)
  console.log(`${Object.keys(model.weights).length} weights, threshold ${model.threshold}, written to ${path.relative(process.cwd(), file)}`)
}
