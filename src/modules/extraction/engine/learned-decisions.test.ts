import { describe, expect, it } from 'vitest'
import { shippedDecisionModel, trainDecisionModel, wordsOf, type DecisionModel } from './decision-model.ts'
import { extractItems } from './extractive.ts'
import { meeting } from './testing.ts'
import { DEFAULT_QUALITY_GATE } from './types.ts'

const decisions = (lines: [string, string][], model: DecisionModel) =>
  extractItems(meeting(lines), { decisions: { model, mode: 'both' } }).items.filter((item) => item.kind === 'decision')

describe('the learned decision detector', () => {
  it('reads words as recognized speech writes them: lower case, no punctuation, numbers folded', () => {
    expect(wordsOf('Mains go up by £1.50, starters stay the same!')).toEqual(['mains', 'go', 'up', 'by', '#', 'starters', 'stay', 'the', 'same'])
    expect(wordsOf('Twelve weeks, starting in June.')).toEqual(['#', 'weeks', 'starting', 'in', 'june'])
    expect(wordsOf("We're not waiting")).toEqual(["we're", 'not', 'waiting'])
    expect(wordsOf('就不做了')).toEqual(['就', '不', '做', '了'])
  })

  it('learns weights that separate the examples it is given', () => {
    const model = trainDecisionModel([
      ...Array.from({ length: 20 }, () => ({ features: ['w:stays', 'w:price'], positive: true })),
      ...Array.from({ length: 60 }, () => ({ features: ['w:maybe', 'w:price'], positive: false })),
    ], { prune: 0 })
    expect(model.weights['w:stays']).toBeGreaterThan(0)
    expect(model.weights['w:maybe']).toBeLessThan(0)
  })

  it('adds a decision the rules did not find, keyed where it was said, never from a question or a rule decision', () => {
    const model: DecisionModel = { bias: -4, threshold: 0.5, weights: { 'w:raffle': 8 } }
    const found = decisions([['ana', 'Does the raffle still make sense?'], ['ben', 'Raffle moves online, raffle tickets too.'], ['ana', 'The raffle, online.']], model)
    // The question scores too but is no decision; the repeat a turn later goes with the decision just found.
    expect(found.filter((item) => item.confidence >= DEFAULT_QUALITY_GATE).map((item) => item.sourceSegmentIds)).toEqual([['s2']])
    expect(found.map((item) => item.key)).toHaveLength(3)
    const ruled = decisions([['ana', "Let's go with the raffle online."], ['ben', 'Fine.']], model)
    expect(ruled.filter((item) => item.confidence >= DEFAULT_QUALITY_GATE)).toHaveLength(1)
    // a proposal heard without its question mark is no decision either
    const proposed = decisions([['ana', 'What if we put the raffle online.'], ['ben', 'Hm.']], model)
    expect(proposed.filter((item) => item.confidence >= DEFAULT_QUALITY_GATE)).toEqual([])
    const floated = decisions([['ana', 'We could put the raffle online, I priced it.'], ['ben', 'Hm.']], model)
    expect(floated.filter((item) => item.confidence >= DEFAULT_QUALITY_GATE)).toEqual([])
  })

  it('waits for the reply of someone else when the model reads it, and keeps the item on every longer prefix', () => {
    const model: DecisionModel = { bias: -4, threshold: 0.5, weights: { 'a:sounds good': 3, 'w:keyboards': 2, 'a:no': -10 } }
    const lines: [string, string][] = [['ana', 'The old keyboards still work.'], ['ben', 'Skip the new keyboards then.'], ['ana', 'Sounds good.'], ['ben', 'Keyboards are a pain anyway.']]
    expect(decisions(lines.slice(0, 2), model)).toEqual([])
    const agreed = decisions(lines.slice(0, 3), model)
    expect(agreed.map((item) => [item.sourceSegmentIds, item.confidence >= DEFAULT_QUALITY_GATE])).toEqual([[['s2'], true]])
    expect(decisions(lines, model).map((item) => item.key)).toContain(agreed[0]!.key)
    // Said without a reply it stands on its own words; a "no" after it sinks it below the gate, with the same key.
    const alone = decisions([['ana', 'Keyboards keyboards.']], { ...model, weights: { 'w:keyboards': 6, 'a:no': -12 } })
    const refused = decisions([['ana', 'Keyboards keyboards.'], ['ben', 'No.']], { ...model, weights: { 'w:keyboards': 6, 'a:no': -12 } })
    expect(refused.map((item) => [item.key, item.confidence < DEFAULT_QUALITY_GATE])).toEqual([[alone[0]!.key, true]])
  })

  it('ships a small model trained on the seen labelled splits', () => {
    expect(Object.keys(shippedDecisionModel.weights).length).toBeGreaterThan(500)
    // it grows with the seen splits (5,498 weights with held-out-12, 8,903 with held-out-20: about 180 kB of JSON)
    expect(Object.keys(shippedDecisionModel.weights).length).toBeLessThan(12000)
    expect(shippedDecisionModel.threshold).toBeGreaterThan(0)
    expect(shippedDecisionModel.threshold).toBeLessThan(1)
    expect(extractItems(meeting([['ana', 'What about the raffle?']]), { decisions: 'rules' }).items.filter((item) => item.kind === 'decision')).toEqual([])
  })
})
