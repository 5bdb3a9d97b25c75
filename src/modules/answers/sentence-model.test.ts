import { describe, expect, it } from 'vitest'
import { dot, embedSentences } from './sentence-model.ts'
import { chooseExtractive, rescore, TUNING, type Unit } from './ranking.ts'

const unit = (text: string, extra: Partial<Unit> = {}): Unit => ({
  text, source: { kind: 'segment', id: text, quote: text }, extra: [], boost: 0, coverage: 0, score: 0, ...extra,
})

describe('learned sentence model', () => {
  it('loads from the npm package offline and puts a paraphrase nearer than an unrelated sentence', async () => {
    const [question, paraphrase, unrelated, chinese] = await embedSentences([
      'How much did we spend on cloud in April?', 'The cloud bill for April was ninety-two thousand dollars.', 'Hamburg gets the scanners next.', '四月的云账单是多少？',
    ])
    expect(question).toHaveLength(512)
    expect(dot(question!, question!)).toBeCloseTo(1, 4)
    expect(dot(question!, paraphrase!)).toBeGreaterThan(dot(question!, unrelated!) + 0.2)
    // Its vocabulary has no Chinese: no vector rather than a meaningless one.
    expect(chinese).toBeUndefined()
  }, 60_000)

  it('counts the similarity in the coverage gate and the score only as tuned', () => {
    const near = () => [unit('Not before October.', { coverage: 0.5, lexicalScore: 0.6, semantic: 0.71 })]
    const far = () => [unit('Not before October.', { coverage: 0.5, lexicalScore: 0.6, semantic: 0.1 })]
    // A learned similarity well above the pivot lifts coverage over the gate; a low one keeps it under.
    expect(chooseExtractive(rescore(near()))).toHaveLength(1)
    expect(chooseExtractive(rescore(far()))).toEqual([])
    // Without a vector (the model off, or Chinese), the lexical gate alone decides.
    expect(chooseExtractive(rescore([unit('Not before October.', { coverage: 0.5, lexicalScore: 0.6 })]))).toEqual([])
    const weighted = rescore(near(), { ...TUNING, semanticWeight: 0.5 })
    expect(weighted[0]!.score).toBeCloseTo(0.6 + 0.5 * (0.71 - 0.3), 5)
  })
})
