// Runs the extractive engine over every labelled meeting and scores it (used by `npm run eval`
// and by the quality floor test).
import { loadMeetingFixtures, type MeetingFixture } from '../test/fixtures/meetings.ts'
import { scoreMeeting, summarize, type EvaluationReport, type MeetingScore } from '../src/modules/extraction/engine/evaluation.ts'
import { extractItems, type ExtractOptions } from '../src/modules/extraction/engine/extractive.ts'
import { asRecognized } from '../src/modules/extraction/engine/testing.ts'
import { itemKinds } from '../src/modules/extraction/engine/types.ts'

export type SplitReport = { split: string; meetingCount: number; report: EvaluationReport }

/**
 * `recognized`: each English meeting read as a recognizer writes it (a segment per sentence, no
 * commas, lower case; `asRecognized`), items citing the labelled segments their sentences came from.
 * `decisions`, `kinds`: how the engine finds decisions, outcomes and questions (extractItems' options).
 */
export function evaluateExtractive(fixtures: MeetingFixture[] = loadMeetingFixtures(), options: { recognized?: boolean } & ExtractOptions = {}): { report: EvaluationReport; splits: SplitReport[]; meetings: { fixture: MeetingFixture; score: MeetingScore }[] } {
  const meetings = fixtures.map((fixture) => {
    const input = {
      segments: fixture.segments,
      ...(fixture.participants ? { participants: fixture.participants } : {}),
      meetingStartedAt: fixture.meetingStartedAt,
      timezone: fixture.timezone,
    }
    const recognized = options.recognized && fixture.language.startsWith('en')
    const { recognized: _, ...extract } = options
    const result = extractItems(recognized ? asRecognized(input) : input, extract)
    const items = recognized ? result.items.map((item) => ({ ...item, sourceSegmentIds: [...new Set(item.sourceSegmentIds.map((id) => id.replace(/\.\d+$/, '')))] })) : result.items
    return { fixture, score: scoreMeeting(fixture.expected, items) }
  })
  const splits = [...new Set(fixtures.map((fixture) => fixture.split))].map((split) => {
    const inSplit = meetings.filter(({ fixture }) => fixture.split === split)
    return { split, meetingCount: inSplit.length, report: summarize(inSplit.map(({ score }) => score)) }
  })
  return { report: summarize(meetings.map(({ score }) => score)), splits, meetings }
}

/** `dueDates: false` when produced due dates count from another day than the labels (a live spoken run). */
export function formatReport(report: EvaluationReport, heading: string, { dueDates = true } = {}): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`.padStart(7)
  const lines = [heading, '']
  lines.push(`${'kind'.padEnd(10)} ${'precision'.padStart(9)} ${'recall'.padStart(7)} ${'F1'.padStart(7)}   tp  fp  fn`)
  for (const [name, scores] of [...itemKinds.map((kind) => [kind, report.byKind[kind]] as const), ['overall', report.overall] as const]) {
    lines.push(`${name.padEnd(10)} ${percent(scores.precision).padStart(9)} ${percent(scores.recall)} ${percent(scores.f1)}  ${String(scores.truePositives).padStart(3)} ${String(scores.falsePositives).padStart(3)} ${String(scores.falseNegatives).padStart(3)}`)
  }
  const { ownerAgreement: owners, dueDateAgreement: dates } = report
  const due = dueDates ? `${dates.agreed}/${dates.total}` : 'not compared (the session is recorded today; the labels count from the meeting\'s own day: see --spoken-replay)'
  lines.push('', `owners of matched actions: ${owners.agreed}/${owners.total}   due dates of matched actions: ${due}`)
  return lines.join('\n')
}
