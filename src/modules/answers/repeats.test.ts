import { describe, expect, it } from 'vitest'
import { withoutRepeats } from './ask.ts'
import type { AnswerSource, Unit } from './ranking.ts'

const segment = (id: string): AnswerSource => ({ kind: 'segment', id, quote: '', sessionId: 'ses_1' })
const unit = (text: string, source: AnswerSource, extra: AnswerSource[] = []): Unit => ({ text, source, extra, boost: 0, coverage: 1, score: 1 })

describe('an answer says one thing once', () => {
  it('leaves out a work object quoting, under an old speaker label, the turn already said; a source may back two sentences', () => {
    const work: AnswerSource = { kind: 'work-object', id: 'wo_1', quote: 'x', sessionId: 'ses_1', title: 'Update the release notes' }
    const kept = withoutRepeats([
      unit('I will send the release notes to marketing by Friday.', segment('seg_2')),
      unit('Speaker 2: I will send the release notes to marketing by Friday.', work, [segment('seg_1'), segment('seg_2')]),
    ])
    expect(kept.map((item) => item.source.id)).toEqual(['seg_2'])
    const both = withoutRepeats([
      unit('We decided to ship on Monday.', segment('seg_5')),
      unit('Ship on Monday', work, [segment('seg_4'), segment('seg_5')]),
    ])
    expect(both.map((item) => [item.source.id, item.extra.map((source) => source.id)])).toEqual([['seg_5', []], ['wo_1', ['seg_4', 'seg_5']]])
  })
})
