// The learned ranker and no-evidence gate (pure): the passages rank() scored are re-ranked by a
// pairwise logistic model over what rank() measured of each (learned.json, `ranker`), and the
// best one answers only when a second logistic model (`gate`) gives it a chance of being a correct
// source of at least `threshold`. Both are trained on the labelled questions of
// test/fixtures/answers by eval/answers-learn.ts and judged there by leave-one-split-out.
import { questionDetails } from './details.ts'
import { askedKind } from './kinds.ts'
import { chooseExtractive, quoted, type Unit } from './ranking.ts'

/** A logistic model over standardised features. */
export type Linear = { mean: number[]; scale: number[]; weights: number[]; bias: number }
/** `kinds`: the passage kinds the models were fitted on (the labelled workspace holds transcripts only). */
export type Learned = { ranker: Linear; gate: Linear; threshold: number; keep: number; candidates: number; kinds?: string[] }

export const RANK_FEATURES = [
  'coverage', 'own', 'near', 'around', 'similarity', 'novelty', 'fit',
  'fit-identifier', 'fit-duration', 'fit-quantity', 'fit-time', 'fit-person', 'fit-reason',
  'opener', 'question', 'settled', 'decided', 'setup', 'work-object', 'memory', 'other-kind', 'outdated', 'boost',
  'other-language', 'meeting-share', 'meeting-gap', 'coverage-gap', 'score-gap', 'rank', 'same-meeting', 'reply', 'length',
] as const
export const GATE_FEATURES = [
  'top', 'margin', 'coverage', 'own', 'near', 'score', 'fit', 'asks-kind', 'chinese', 'details', 'candidates', 'meeting-share', 'meetings',
  'first-coverage', 'first-score', 'mismatched-coverage', 'chinese-coverage', 'chinese-first-coverage',
] as const

const han = (text: string) => /\p{Script=Han}/u.test(text)
const flag = (value: boolean | undefined) => (value ? 1 : 0)

/** The passages the learned ranker reads: the best `count` by rank()'s score that keep to the question's details. */
export function candidates(ranked: Unit[], count: number): Unit[] {
  return ranked.filter((unit) => !unit.mismatch && unit.signals).slice(0, count)
}

/** One row of RANK_FEATURES per candidate (in rank()'s order). */
export function rankFeatures(question: string, units: Unit[]): number[][] {
  const kind = askedKind(question)
  const chinese = han(question)
  const top = units[0]
  const maxCoverage = Math.max(0, ...units.map((unit) => unit.coverage))
  const session = (unit: Unit | undefined) => (unit?.source.kind === 'segment' ? unit.source.sessionId : undefined)
  return units.map((unit, index) => {
    const s = unit.signals!
    const fitted = s.fit >= 0.25
    const kinds = [1, 2, 3, 4, 5, 6].map((k) => flag(kind === k && fitted))
    const other = unit.source.kind === 'external-item' || unit.source.kind === 'file'
    return [
      unit.coverage, s.own, s.near, s.around, s.similarity, s.novelty, flag(fitted), ...kinds,
      flag(s.opener), flag(s.question), flag(s.settled), flag(s.decided), flag((unit.decidedBy?.length ?? 0) > 0),
      flag(unit.source.kind === 'work-object'), flag(unit.source.kind === 'memory-entry'), flag(other), flag(unit.outdated), unit.boost,
      flag(han(unit.text) !== chinese), s.meetingShare, s.meetingGap, unit.coverage - maxCoverage, (unit.lexicalScore ?? unit.score) - (top?.lexicalScore ?? top?.score ?? 0),
      Math.log1p(index), flag(session(unit) !== undefined && session(unit) === session(top)), flag(unit.askedText !== undefined), Math.min(3, unit.text.length / 100),
    ]
  })
}

export const logit = (model: Linear, features: number[]) => model.bias + features.reduce((sum, value, index) => sum + model.weights[index]! * ((value - model.mean[index]!) / model.scale[index]!), 0)
const sigmoid = (value: number) => 1 / (1 + Math.exp(-value))

/** One row of GATE_FEATURES: the learned ranking of a question's candidates (best first, with their ranker logits). */
export function gateFeatures(question: string, ordered: { unit: Unit; logit: number }[], ranked: Unit[]): number[] {
  const [top, ...rest] = ordered
  if (!top) return GATE_FEATURES.map(() => 0)
  const next = rest.find((item) => item.unit.source.id !== top.unit.source.id)
  const details = questionDetails(question)
  const detailed = details.names.length + details.pinned.length + details.marked.length + details.wants.length + (details.head ? 1 : 0)
  const meetings = new Set(ordered.slice(0, 5).map((item) => item.unit.source.sessionId ?? item.unit.source.id)).size
  const s = top.unit.signals!
  const count = ordered.length
  // rank()'s own best passage, and the best one it set aside for naming another detail (a month, a platform)
  const first = ranked.find((unit) => !unit.mismatch && unit.signals)
  const mismatched = Math.max(0, ...ranked.filter((unit) => unit.mismatch).map((unit) => unit.coverage))
  return [
    top.logit, next ? top.logit - next.logit : 5, top.unit.coverage, s.own, s.near, top.unit.lexicalScore ?? top.unit.score, flag(s.fit >= 0.25), flag(askedKind(question) > 0),
    flag(han(question)), Math.min(3, detailed), Math.log1p(count), s.meetingShare, meetings,
    first?.coverage ?? 0, first?.lexicalScore ?? 0, mismatched,
    // Chinese coverage (jieba words, a character found inside any word) is on another scale than English: its own slope.
    flag(han(question)) * top.unit.coverage, flag(han(question)) * (first?.coverage ?? 0),
  ]
}

/** The candidates in the learned ranker's order, with their logits. */
export function learnedOrder(model: Learned, question: string, ranked: Unit[]): { unit: Unit; logit: number }[] {
  const units = candidates(ranked, model.candidates)
  const rows = rankFeatures(question, units)
  return units.map((unit, index) => ({ unit, logit: logit(model.ranker, rows[index]!) })).sort((a, b) => b.logit - a.logit)
}

/** The chance the learned ranker's best passage is a correct source (the gate). */
export function answerChance(model: Learned, question: string, ordered: { unit: Unit; logit: number }[], ranked: Unit[]): number {
  return sigmoid(logit(model.gate, gateFeatures(question, ordered, ranked)))
}

/**
 * The passages the answer quotes (none: no evidence). Guard (thirteenth pass): the gate was fitted on
 * transcript turns only, so when the best passage is of a kind it never saw (a work object, a memory
 * entry, a bound external item, a file), whether to answer is the rule engine's call (its hand-set
 * coverage and score thresholds, ranking.ts), not the gate's.
 */
export function chooseLearned(model: Learned, question: string, ranked: Unit[]): Unit[] {
  const ordered = learnedOrder(model, question, ranked)
  if (ordered.length === 0) return []
  const seen = !model.kinds || model.kinds.includes(ordered[0]!.unit.source.kind)
  if (seen ? answerChance(model, question, ordered, ranked) < model.threshold : chooseExtractive(ranked).length === 0) return []
  return pick(ordered, model.keep)
}

/**
 * The best passage and those whose ranker logit is within `keep` of it. Beside the best, a passage is
 * quoted only when it holds a word of the question itself, replies to a question or says what the
 * question asks for (a date for when): a turn that only borrows its neighbour's words and says nothing
 * asked ("Unrelated chatter." after the answer) is not quoted.
 */
export function pick(ordered: { unit: Unit; logit: number }[], keep: number): Unit[] {
  const best = ordered[0]!.logit
  return quoted(ordered.filter((item, index) => index === 0 || (item.logit >= best - keep && standsAlone(item.unit))).map((item) => item.unit))
}
const standsAlone = (unit: Unit) => (unit.signals?.own ?? 1) > 0 || unit.askedText !== undefined || (unit.signals?.fit ?? 0) >= 0.25
