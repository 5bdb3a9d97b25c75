// `npm run eval -- --decision-errors=<commit>:<split>,… [--as-recognized | --spoken-replay=<dir>] [--veto=<x>]`:
// every decision error of a batch's first-run rules + a detector that never saw the batch (as
// eval/decisions-first-run.ts runs them), each sorted into a cause (fourteenth pass, docs/extraction.md).
// Spurious: `dup` (its label was matched by another decision), `kind` (it cites an item of another
// kind), `near` (a missed decision within two segments), `none` (nothing labelled there). Missed:
// `as-<kind>` (found, as another kind), `hidden` (a decision there below the gate: a guard), `near`
// (a decision produced within two segments), `low` (the detector's best score on its sentences).
import { scoreMeeting } from '../src/modules/extraction/engine/evaluation.ts'
import { decisionUnits, scoreFeatures, unitFeatures } from '../src/modules/extraction/engine/decision-model.ts'
import { joinCutSentences, turnIndexes } from '../src/modules/extraction/engine/turns.ts'
import { DEFAULT_QUALITY_GATE } from '../src/modules/extraction/engine/types.ts'
import { seenFixtures, trainingConfig, trainOn, vetoOf } from './decisions.ts'
import { inputOf, oldEngine } from './decisions-first-run.ts'

export async function runDecisionErrors(argv: string[]): Promise<void> {
  const pairs = argv.find((argument) => argument.startsWith('--decision-errors='))!.slice('--decision-errors='.length).split(',')
  const replay = argv.find((argument) => argument.startsWith('--spoken-replay='))?.slice('--spoken-replay='.length)
  const form = { recognized: argv.includes('--as-recognized'), ...(replay ? { replay } : {}) }
  const fixtures = seenFixtures()
  const config = trainingConfig(argv)
  const tally = new Map<string, number>()
  const count = (cause: string) => tally.set(cause, (tally.get(cause) ?? 0) + 1)
  for (const pair of pairs) {
    const [commit, split] = pair.split(':') as [string, string]
    const extract = await oldEngine(commit)
    const model = trainOn(fixtures, config, [split])
    for (const fixture of fixtures.filter((each) => each.split === split)) {
      const read = inputOf(fixture, form)
      if (!read) continue
      const all = extract(read.input, { decisions: { model, mode: 'both', ...vetoOf(argv) } }).items
      const rules = new Set(extract(read.input, { decisions: 'rules' }).items.filter((item) => item.confidence >= DEFAULT_QUALITY_GATE).map((item) => item.key))
      const mapped = all.map((item) => ({ ...item, sourceSegmentIds: [...new Set(item.sourceSegmentIds.map(read.labelOf).filter((id): id is string => id !== undefined))] }))
      const score = scoreMeeting(fixture.expected, mapped)
      const order = new Map(fixture.segments.map((segment, index) => [segment.id, index]))
      const near = (a: string[], b: string[]) => a.some((x) => b.some((y) => Math.abs((order.get(x) ?? -99) - (order.get(y) ?? 99)) <= 2))
      const text = (ids: string[]) => ids.map((id) => fixture.segments.find((segment) => segment.id === id)?.text ?? id).join(' | ').slice(0, 160)
      const sorted = joinCutSentences([...read.input.segments].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs))
      const units = decisionUnits(sorted, turnIndexes(sorted))
      const scoreOf = (labels: string[]) => Math.max(0, ...units.filter((unit) => labels.includes(read.labelOf(unit.segmentId) ?? '')).map((unit) => scoreFeatures(model, unitFeatures(unit, true))))
      const matchedLabels = new Set(score.matches.filter((match) => match.expected.kind === 'decision').map((match) => match.expected))
      console.log(`${split} ${fixture.id}`)
      for (const item of score.spurious.filter((each) => each.kind === 'decision')) {
        const labelled = fixture.expected.filter((label) => label.sourceSegmentIds.some((id) => item.sourceSegmentIds.includes(id)))
        const cause = labelled.some((label) => label.kind === 'decision' && matchedLabels.has(label)) ? 'dup'
          : labelled.find((label) => label.kind !== 'decision') ? `kind-${labelled.find((label) => label.kind !== 'decision')!.kind}`
            : score.missed.some((label) => label.kind === 'decision' && near(label.sourceSegmentIds, item.sourceSegmentIds)) ? 'near' : 'none'
        count(`spurious ${cause} ${rules.has(item.key) ? 'rule' : 'learned'}`)
        console.log(`  FP ${cause.padEnd(14)} ${rules.has(item.key) ? 'rule   ' : 'learned'} [${item.sourceSegmentIds.join(',')}] ${item.title}`)
      }
      for (const label of score.missed.filter((each) => each.kind === 'decision')) {
        const other = score.spurious.concat(score.matches.map((match) => match.produced)).find((item) => item.kind !== 'decision' && item.sourceSegmentIds.some((id) => label.sourceSegmentIds.includes(id)))
        const hidden = mapped.some((item) => item.kind === 'decision' && item.confidence < DEFAULT_QUALITY_GATE && item.sourceSegmentIds.some((id) => label.sourceSegmentIds.includes(id)))
        const best = scoreOf(label.sourceSegmentIds)
        const cause = other ? `as-${other.kind}` : hidden ? 'hidden' : score.spurious.some((item) => item.kind === 'decision' && near(label.sourceSegmentIds, item.sourceSegmentIds)) ? 'near' : `low`
        count(`missed ${cause}`)
        console.log(`  FN ${cause.padEnd(14)} ${best.toFixed(2)}    [${label.sourceSegmentIds.join(',')}] ${label.title} :: ${text(label.sourceSegmentIds)}`)
      }
      for (const label of score.missed.filter((each) => each.kind === 'action')) console.log(`  FN-action ${score.spurious.find((item) => item.sourceSegmentIds.some((id) => label.sourceSegmentIds.includes(id)))?.kind ?? '-'} [${label.sourceSegmentIds.join(',')}] ${label.title}`)
    }
  }
  console.log('\n' + [...tally].sort().map(([cause, n]) => `${cause}: ${n}`).join('\n'))
}
