import { describe, expect, it } from 'vitest'
import { chooseLearned, GATE_FEATURES, RANK_FEATURES, rankFeatures, type Learned } from './learned.ts'
import learned from './learned.json' with { type: 'json' }
import { rank, type Unit } from './ranking.ts'

const segment = (id: string, text: string, sessionId = 'ses_a'): Unit => ({ text, source: { kind: 'segment', id, quote: text, sessionId }, extra: [], boost: 0, coverage: 0, score: 0 })
const flat = (width: number, weights: number[] = new Array(width).fill(0), bias = 0) => ({ mean: new Array(width).fill(0), scale: new Array(width).fill(1), weights, bias })

describe('learned ranker and gate', () => {
  it('ships weights for every feature it computes', () => {
    const model = learned as Learned
    expect(model.ranker.weights).toHaveLength(RANK_FEATURES.length)
    expect(model.gate.weights).toHaveLength(GATE_FEATURES.length)
    const units = rank('When does the pilot start?', [segment('a', 'The pilot starts on March 3.'), segment('b', 'We talked about lunch.')])
    for (const row of rankFeatures('When does the pilot start?', units)) expect(row).toHaveLength(RANK_FEATURES.length)
  })

  it('answers with the passage the ranker puts first, and no-evidence when the gate gives too little chance', () => {
    const question = 'When does the pilot start?'
    const own = RANK_FEATURES.indexOf('own')
    const ranker = flat(RANK_FEATURES.length, RANK_FEATURES.map((_, index) => (index === own ? 5 : 0)))
    const confident: Learned = { ranker, gate: flat(GATE_FEATURES.length, undefined, 3), threshold: 0.5, keep: 0, candidates: 40 }
    const units = rank(question, [segment('b', 'We talked about lunch on Friday.'), segment('a', 'The pilot starts on March 3.')])
    expect(chooseLearned(confident, question, units).map((unit) => unit.source.id)).toEqual(['a'])
    expect(chooseLearned({ ...confident, gate: flat(GATE_FEATURES.length, undefined, -3) }, question, units)).toEqual([])
    expect(chooseLearned(confident, question, [])).toEqual([])
  })

  it('leaves a passage kind the gate never saw to the rule thresholds, and quotes beside the best only what stands alone', () => {
    const question = 'Why does checkout time out on Safari?'
    const own = RANK_FEATURES.indexOf('own')
    const ranker = flat(RANK_FEATURES.length, RANK_FEATURES.map((_, index) => (index === own ? 5 : 0)))
    const declining: Learned = { ranker, gate: flat(GATE_FEATURES.length, undefined, -3), threshold: 0.5, keep: 10, candidates: 40, kinds: ['segment'] }
    const item: Unit = { text: 'Checkout times out on Safari after the payment step', source: { kind: 'external-item', id: 'github:acme/web#12', quote: 'Checkout times out on Safari' }, extra: [], boost: 0, coverage: 0, score: 0 }
    expect(chooseLearned(declining, question, rank(question, [item])).map((unit) => unit.source.id)).toEqual(['github:acme/web#12'])
    // A transcript turn is the gate's call.
    expect(chooseLearned(declining, question, rank(question, [segment('a', 'Checkout times out on Safari after the payment step.')]))).toEqual([])
    // "Unrelated chatter." borrows the answer's words as the turn after it: never quoted beside it, however close its logit.
    const pilot = 'When does the pilot start?'
    const confident: Learned = { ranker: flat(RANK_FEATURES.length), gate: flat(GATE_FEATURES.length, undefined, 3), threshold: 0.5, keep: 10, candidates: 40 }
    const answer = segment('a', 'The pilot starts on March 3.')
    const chatter = { ...segment('b', 'Unrelated chatter.'), before: new Set(['pilot', 'start', 'march']), beforeText: answer.text }
    expect(chooseLearned(confident, pilot, rank(pilot, [answer, chatter])).map((unit) => unit.source.id)).toEqual(['a'])
  })
})
