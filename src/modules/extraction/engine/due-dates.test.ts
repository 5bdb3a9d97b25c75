import { describe, expect, it } from 'vitest'
import { meetingLocalDate, resolveDueDate } from './due-dates.ts'

// Wednesday 4 March 2026.
const wednesday = { year: 2026, month: 3, day: 4 }

describe('resolveDueDate', () => {
  it.each([
    ["I'll send it by Friday", '2026-03-06'],
    ['by next Friday', '2026-03-13'],
    ["I'll have it by tomorrow", '2026-03-05'],
    ['done by end of day', '2026-03-04'],
    ['by the end of the week', '2026-03-06'],
    ['sometime next week', '2026-03-13'],
    ['early next week', '2026-03-09'],
    ['before the end of the month', '2026-03-31'],
    ['by March 15', '2026-03-15'],
    ['in two weeks', '2026-03-18'],
    ['by mid-May', '2026-05-15'],
    ['on Wednesday', '2026-03-11'],
    ["we'll decide next week", '2026-03-13'],
  ])('%s → %s', (text, expected) => {
    expect(resolveDueDate(text, 'en', wednesday)).toBe(expected)
  })

  it.each([
    ['我明天发给你', '2026-03-05'],
    ['今天下班前弄好', '2026-03-04'],
    ['周五之前提测', '2026-03-06'],
    ['下周五之前完成', '2026-03-13'],
    ['这周五前搭好', '2026-03-06'],
    ['我下周调研一下', '2026-03-13'],
    ['月底之前给我初稿', '2026-03-31'],
    ['3月15日之前', '2026-03-15'],
    ['五月中旬之前', '2026-05-15'],
    ['这周把它做完，周四给我', '2026-03-05'],
  ])('%s → %s', (text, expected) => {
    expect(resolveDueDate(text, 'zh', wednesday)).toBe(expected)
  })

  it.each([
    ['I fixed it last Friday'],
    ['customers have asked since January'],
    ['it is about three weeks of work'],
    ["I'll start on it next week"],
    ['我下周开始做'],
    ['no date here'],
  ])('%s → none', (text) => {
    expect(resolveDueDate(text, text.match(/\p{Script=Han}/u) ? 'zh' : 'en', wednesday)).toBeUndefined()
  })
})

describe('meetingLocalDate', () => {
  it('takes the date where the meeting happened', () => {
    expect(meetingLocalDate('2026-03-05T23:30:00.000Z', 'Asia/Shanghai')).toEqual({ year: 2026, month: 3, day: 6 })
    expect(meetingLocalDate('2026-03-05T03:00:00.000Z', 'America/Los_Angeles')).toEqual({ year: 2026, month: 3, day: 4 })
  })

  it('falls back to UTC for an unknown zone', () => {
    expect(meetingLocalDate('2026-03-05T23:30:00.000Z', 'Nowhere/Else')).toEqual({ year: 2026, month: 3, day: 5 })
  })
})
