import { describe, expect, it } from 'vitest'
import { fitsQuestion } from './kinds.ts'
import { chooseExtractive, rank, type Unit } from './ranking.ts'

const unit = (text: string, extra: Partial<Unit> = {}): Unit => ({
  text, source: { kind: 'segment', id: text, quote: text }, extra: [], boost: 0, coverage: 0, score: 0, ...extra,
})

describe('answer ranking', () => {
  it('wants the kind of thing a question asks for', () => {
    expect(fitsQuestion('Which ticket tracks the export bug?', "It's SUP-2291.")).toBe(0.2)
    expect(fitsQuestion('Which ticket tracks the export bug?', 'The export cuts off at ten thousand rows.')).toBe(0)
    expect(fitsQuestion('Who is running the Hamburg install?', "I'll take it.")).toBe(0.2)
    expect(fitsQuestion('华为推送的问题谁负责跟进？', '赵琳你负责跟进。')).toBe(0.2)
    expect(fitsQuestion('What is the scope of offline mode?', 'Read-only lists.')).toBe(0.05)
  })

  it('reads a reply with the words of the question before it', () => {
    const asked = new Set(['run', 'hamburg', 'instal'])
    const [best] = rank('Who is running the Hamburg install?', [unit("I'll take it."), unit("I'll take it, sure.", { asked })])
    expect(best!.text).toBe("I'll take it, sure.")
    expect(best!.coverage).toBeGreaterThan(0.8)
  })

  it('weighs a rare missing word more than a common one', () => {
    const passage = () => [unit('Last month we did nine interviews and two offers went out.')]
    const common = rank('Who won the hackathon last month?', passage(), { counts: new Map([['hackathon', 500], ['last', 5], ['month', 5]]), cap: 600 })
    const rare = rank('Who won the hackathon last month?', passage(), { counts: new Map([['hackathon', 0], ['last', 300], ['month', 300]]), cap: 600 })
    expect(rare[0]!.coverage).toBeLessThan(common[0]!.coverage)
    expect(chooseExtractive(rare)).toEqual([])
  })
})
