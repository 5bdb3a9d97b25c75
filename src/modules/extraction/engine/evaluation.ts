// Scoring extraction against labelled meetings: a produced item matches an expected one when the
// kinds are equal and their cited segments overlap (one-to-one, best overlap first). Precision,
// recall and F1 per kind and overall; owner and due-date agreement on matched actions.
import { DEFAULT_QUALITY_GATE, itemKinds, type ExtractedItem, type ItemKind } from './types.ts'

export type LabelledItem = { kind: ItemKind; ownerName: string | null; sourceSegmentIds: string[]; title: string; dueDate?: string }
export type Counts = { truePositives: number; falsePositives: number; falseNegatives: number }
export type Scores = Counts & { precision: number; recall: number; f1: number }
export type Match = { expected: LabelledItem; produced: ExtractedItem }
export type MeetingScore = {
  byKind: Record<ItemKind, Counts>
  matches: Match[]
  missed: LabelledItem[]
  spurious: ExtractedItem[]
}
export type EvaluationReport = {
  byKind: Record<ItemKind, Scores>
  overall: Scores
  ownerAgreement: { agreed: number; total: number }
  dueDateAgreement: { agreed: number; total: number }
}

/** Only items at or above the quality gate count: those are what people see. */
export function scoreMeeting(expected: LabelledItem[], produced: ExtractedItem[], gate = DEFAULT_QUALITY_GATE): MeetingScore {
  const visible = produced.filter((item) => item.confidence >= gate)
  const pairs: { expected: LabelledItem; produced: ExtractedItem; overlap: number }[] = []
  for (const label of expected) {
    for (const item of visible) {
      if (item.kind !== label.kind) continue
      const overlap = jaccard(label.sourceSegmentIds, item.sourceSegmentIds)
      if (overlap > 0) pairs.push({ expected: label, produced: item, overlap })
    }
  }
  pairs.sort((a, b) => b.overlap - a.overlap)
  const usedExpected = new Set<LabelledItem>()
  const usedProduced = new Set<ExtractedItem>()
  const matches: Match[] = []
  for (const pair of pairs) {
    if (usedExpected.has(pair.expected) || usedProduced.has(pair.produced)) continue
    usedExpected.add(pair.expected)
    usedProduced.add(pair.produced)
    matches.push({ expected: pair.expected, produced: pair.produced })
  }
  const missed = expected.filter((label) => !usedExpected.has(label))
  const spurious = visible.filter((item) => !usedProduced.has(item))
  const byKind = Object.fromEntries(itemKinds.map((kind) => [kind, {
    truePositives: matches.filter((match) => match.expected.kind === kind).length,
    falsePositives: spurious.filter((item) => item.kind === kind).length,
    falseNegatives: missed.filter((label) => label.kind === kind).length,
  }])) as Record<ItemKind, Counts>
  return { byKind, matches, missed, spurious }
}

export function summarize(meetings: MeetingScore[]): EvaluationReport {
  const byKind = Object.fromEntries(itemKinds.map((kind) => [kind, scores(sum(meetings.map((meeting) => meeting.byKind[kind])))])) as Record<ItemKind, Scores>
  const overall = scores(sum(itemKinds.map((kind) => byKind[kind])))
  const actionMatches = meetings.flatMap((meeting) => meeting.matches.filter((match) => match.expected.kind === 'action'))
  const dated = actionMatches.filter((match) => match.expected.dueDate || match.produced.dueDate)
  return {
    byKind,
    overall,
    ownerAgreement: { agreed: actionMatches.filter((match) => (match.expected.ownerName ?? undefined) === match.produced.ownerName).length, total: actionMatches.length },
    dueDateAgreement: { agreed: dated.filter((match) => match.expected.dueDate === match.produced.dueDate).length, total: dated.length },
  }
}

function sum(counts: Counts[]): Counts {
  return counts.reduce((total, next) => ({
    truePositives: total.truePositives + next.truePositives,
    falsePositives: total.falsePositives + next.falsePositives,
    falseNegatives: total.falseNegatives + next.falseNegatives,
  }), { truePositives: 0, falsePositives: 0, falseNegatives: 0 })
}

function scores(counts: Counts): Scores {
  const precision = ratio(counts.truePositives, counts.truePositives + counts.falsePositives)
  const recall = ratio(counts.truePositives, counts.truePositives + counts.falseNegatives)
  return { ...counts, precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) }
}

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole)

function jaccard(a: string[], b: string[]): number {
  const left = new Set(a)
  const right = new Set(b)
  let shared = 0
  for (const id of left) if (right.has(id)) shared += 1
  return shared / (left.size + right.size - shared)
}
