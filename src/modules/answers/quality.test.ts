// The quality floor of answers (extractive): on every labelled split of test/fixtures/answers, the
// share of answerable questions answered with a correct source and of unanswerable ones answered
// no-evidence may not fall below what the engine reached (docs/answers.md), less a little.
// held-out-4 was run once, after the fourth pass, and is the honest floor (held-out-3 has been tuned
// on since its run). Raise floors when the engine improves; a new claim needs a new sealed batch.
import { describe, expect, it } from 'vitest'
import { evaluateAnswers } from '../../../eval/answers.ts'

// Measured (commit 6a21b8b): 26/27 11/12 · 26/28 11/12 · 33/38 9/12 · 20/33 11/11 (held-out-3 seen
// after its one run: 18/33 9/11) · 15/29 7/10 (held-out-4, its one run).
const FLOORS: Record<string, { answerable: number; unanswerable: number }> = {
  development: { answerable: 0.96, unanswerable: 0.91 },
  'held-out': { answerable: 0.92, unanswerable: 0.91 },
  'held-out-2': { answerable: 0.86, unanswerable: 0.74 },
  'held-out-3': { answerable: 0.6, unanswerable: 0.99 },
  'held-out-4': { answerable: 0.51, unanswerable: 0.69 },
}

describe('answer quality on the labelled questions', () => {
  it('keeps both shares at or above the floor on every split', async () => {
    const results = await evaluateAnswers({ only: Object.keys(FLOORS).join(',') })
    expect(results.map((result) => result.split).sort()).toEqual(Object.keys(FLOORS).sort())
    for (const result of results) {
      const floor = FLOORS[result.split]!
      expect(result.answeredWell / result.answerable, `${result.split} answerable`).toBeGreaterThanOrEqual(floor.answerable)
      expect(result.declined / result.unanswerable, `${result.split} unanswerable`).toBeGreaterThanOrEqual(floor.unanswerable)
    }
  }, 180_000)
})
