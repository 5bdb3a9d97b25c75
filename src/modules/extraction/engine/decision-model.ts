// A learned decision detector (ninth pass, docs/extraction.md): logistic regression over the words of
// a sentence and of the turns around it, trained on the labelled meetings (eval/decisions.ts). This
// file holds the sentence units, their features, scoring and training; learned-kinds.ts turns
// scores into drafts. Features are lower-cased words without punctuation (numbers folded), so
// typed text and recognized speech read alike; Chinese by character bigrams.
import shipped from './decision-weights.json' with { type: 'json' }
import { splitSentences } from './text.ts'
import type { TranscriptSegmentInput } from './types.ts'

export type DecisionModel = { bias: number; threshold: number; weights: Record<string, number> }

/** The model the engine ships: trained on every seen labelled split (`npm run eval -- --train-decisions`). */
export const shippedDecisionModel: DecisionModel = shipped as DecisionModel

/** A sentence to score, with the turns that frame it (only what is known once the next turn's first sentence arrives). */
export type DecisionUnit = {
  /** Index of its segment among the (sorted) segments. */
  position: number
  segmentId: string
  turn: number
  sentenceIndex: number
  text: string
  /** The last sentence of the previous turn by another speaker, and the first of the next one. */
  before?: string
  after?: string
  /** Sentences of its own turn before it. */
  turnOffset: number
}

const NUMBER_WORDS = /^(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|half|\d[\d.,]*(?:k|m|st|nd|rd|th)?)$/

/** Lower-cased words without punctuation, numbers folded to `#`; Chinese as single characters (pairs come from bigrams). */
export function wordsOf(text: string): string[] {
  const words: string[] = []
  for (const match of text.toLowerCase().replace(/[’‘]/g, "'").matchAll(/\p{Script=Han}|[\p{L}\p{N}][\p{L}\p{N}'£$%.-]*/gu)) {
    const word = match[0].replace(/[.'-]+$/, '')
    if (!word) continue
    words.push(NUMBER_WORDS.test(word.replace(/^[£$]/, '').replace(/%$/, '')) ? (/[£$]/.test(word) ? '£#' : '#') : word)
  }
  return words
}

/** The units of a transcript: every sentence of every segment, with the turn before and after by someone else. */
export function decisionUnits(segments: TranscriptSegmentInput[], turnOf: number[]): DecisionUnit[] {
  // Every learned detector of one extraction reads the same units: they are made once per transcript (callers only read them).
  const known = unitsOf.get(segments)
  if (known?.turnOf === turnOf) return known.units
  const units = makeUnits(segments, turnOf)
  unitsOf.set(segments, { turnOf, units })
  return units
}

const unitsOf = new WeakMap<TranscriptSegmentInput[], { turnOf: number[]; units: DecisionUnit[] }>()

function makeUnits(segments: TranscriptSegmentInput[], turnOf: number[]): DecisionUnit[] {
  const speakerOfTurn: (string | undefined)[] = []
  const sentencesOfTurn: string[][] = []
  segments.forEach((segment, position) => {
    const turn = turnOf[position] ?? position
    speakerOfTurn[turn] = segment.speakerId ?? segment.speakerLabel
    ;(sentencesOfTurn[turn] ??= []).push(...splitSentences(segment.text))
  })
  const differs = (a: number, b: number) => speakerOfTurn[a] === undefined || speakerOfTurn[a] !== speakerOfTurn[b]
  const units: DecisionUnit[] = []
  const offsets: number[] = []
  segments.forEach((segment, position) => {
    const turn = turnOf[position] ?? position
    let previous = turn - 1
    while (previous >= 0 && !differs(previous, turn)) previous -= 1
    let next = turn + 1
    while (next < sentencesOfTurn.length && !differs(next, turn)) next += 1
    const before = previous >= 0 ? sentencesOfTurn[previous]!.at(-1) : undefined
    const after = sentencesOfTurn[next]?.[0]
    splitSentences(segment.text).forEach((text, sentenceIndex) => {
      const turnOffset = offsets[turn] ?? 0
      offsets[turn] = turnOffset + 1
      units.push({ position, segmentId: segment.id, turn, sentenceIndex, text, turnOffset, ...(before ? { before } : {}), ...(after ? { after } : {}) })
    })
  })
  return units
}

function grams(prefix: string, words: string[], bigrams: boolean): string[] {
  const features = words.map((word) => `${prefix}${word}`)
  if (bigrams) for (let index = 0; index + 1 < words.length; index += 1) features.push(`${prefix}${words[index]} ${words[index + 1]}`)
  return features
}

/** The features of a unit; `withAfter: false` leaves the next turn out (what is known before it arrives). Computed once per unit and reading (callers only read them). */
export function unitFeatures(unit: DecisionUnit, withAfter = true): string[] {
  const known = featuresOf.get(unit) ?? featuresOf.set(unit, {}).get(unit)!
  const key = withAfter ? 'withAfter' : 'without'
  return (known[key] ??= makeFeatures(unit, withAfter))
}

const featuresOf = new WeakMap<DecisionUnit, { withAfter?: string[]; without?: string[] }>()

function makeFeatures(unit: DecisionUnit, withAfter: boolean): string[] {
  const words = wordsOf(unit.text)
  const features = grams('w:', words, true)
  features.push(`start:${words.slice(0, 2).join(' ')}`, `first:${words[0] ?? ''}`, `len:${Math.min(4, Math.floor(words.length / 4))}`)
  if (/[?？]\s*$/.test(unit.text)) features.push('asks')
  if (unit.turnOffset === 0) features.push('opens-turn')
  if (unit.turn === 0) features.push('first-turn')
  if (unit.before !== undefined) {
    const before = wordsOf(unit.before)
    features.push(...grams('b:', before, true), `b-first:${before[0] ?? ''}`)
    if (/[?？]\s*$/.test(unit.before)) features.push('b-asks')
  }
  if (withAfter && unit.after !== undefined) {
    const after = wordsOf(unit.after).slice(0, 8)
    features.push(...grams('a:', after, true), `a-start:${after.slice(0, 2).join(' ')}`, `a-len:${Math.min(3, Math.floor(after.length / 3))}`)
    if (/[?？]\s*$/.test(unit.after)) features.push('a-asks')
  } else features.push('a-none')
  return [...new Set(features)]
}

export function scoreFeatures(model: DecisionModel, features: string[]): number {
  let sum = model.bias
  for (const feature of features) sum += model.weights[feature] ?? 0
  return 1 / (1 + Math.exp(-sum))
}

/** `group`: the meeting it came from (a copy of a meeting as recognized speech is the same group). */
export type TrainingExample = { features: string[]; positive: boolean; group?: string }

/**
 * L2-regularised logistic regression by stochastic gradient descent, positives weighted up to balance
 * the classes, averaged over `runs` shuffled orders (deterministic seeds: one order alone moves a
 * split's F1 by a few points); features seen in fewer than `minCount` examples are left out and
 * weights below `prune` in magnitude dropped (a smaller file, no measurable loss); `minGroups`: features
 * said in fewer meetings than that are left out (a name or date of one meeting is no cue elsewhere).
 */
export function trainDecisionModel(examples: TrainingExample[], { epochs = 12, rate = 0.1, l2 = 1e-4, threshold = 0.5, prune = 0.3, minCount = 1, minGroups = 1, runs = 5 } = {}): DecisionModel {
  const counts = new Map<string, number>()
  const groups = new Map<string, Set<string>>()
  for (const { features, group } of examples) {
    for (const feature of features) {
      counts.set(feature, (counts.get(feature) ?? 0) + 1)
      if (minGroups > 1) (groups.get(feature) ?? groups.set(feature, new Set()).get(feature)!).add(group ?? '')
    }
  }
  const kept = (feature: string) => (counts.get(feature) ?? 0) >= minCount && (minGroups <= 1 || (groups.get(feature)?.size ?? 0) >= minGroups)
  const known = examples.map(({ features }) => features.filter(kept))
  const positives = examples.filter((example) => example.positive).length
  const positiveWeight = positives > 0 ? Math.min(10, (examples.length - positives) / positives / 2) : 1
  const total = new Map<string, number>()
  let bias = 0
  for (let run = 1; run <= runs; run += 1) {
    const fitted = fit(run)
    bias += fitted.bias / runs
    for (const [feature, weight] of fitted.weights) total.set(feature, (total.get(feature) ?? 0) + weight / runs)
  }
  const large = [...total].filter(([, weight]) => Math.abs(weight) >= prune).sort(([a], [b]) => (a < b ? -1 : 1))
  return { bias: round(bias), threshold, weights: Object.fromEntries(large.map(([feature, weight]) => [feature, round(weight)])) }

  function fit(start: number): { bias: number; weights: Map<string, number> } {
    const weights = new Map<string, number>()
    let bias = 0
    const order = examples.map((_, index) => index)
    let seed = start
    for (let epoch = 0; epoch < epochs; epoch += 1) {
      for (let index = order.length - 1; index > 0; index -= 1) {
        seed = (seed * 1103515245 + 12345) % 2147483648
        const swap = seed % (index + 1)
        ;[order[index], order[swap]] = [order[swap]!, order[index]!]
      }
      const step = rate / (1 + epoch)
      for (const at of order) {
        const positive = examples[at]!.positive
        const features = known[at]!
        let sum = bias
        for (const feature of features) sum += weights.get(feature) ?? 0
        const gradient = (positive ? 1 : 0) - 1 / (1 + Math.exp(-sum))
        const scale = step * gradient * (positive ? positiveWeight : 1)
        bias += scale
        for (const feature of features) {
          const weight = weights.get(feature) ?? 0
          weights.set(feature, weight + scale - step * l2 * weight)
        }
      }
    }
    return { bias, weights }
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
