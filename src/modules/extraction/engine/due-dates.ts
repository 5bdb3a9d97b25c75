// Due dates from the words ("by Friday", "next week", "明天", "下周五", "月底"), resolved against
// the meeting's local date. chrono-node parses the dates; a few meeting idioms it leaves out
// ("end of the week", "next week" = that week's Friday, "月底") are settled here first.
import * as chrono from 'chrono-node'
import type { Language } from './text.ts'

export type LocalDate = { year: number; month: number; day: number }

export function meetingLocalDate(instantIso: string, timezone: string | undefined): LocalDate {
  const instant = new Date(instantIso)
  const valid = Number.isNaN(instant.getTime()) ? new Date(0) : instant
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone || 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(valid)
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(valid)
  }
  const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value)
  return { year: part('year'), month: part('month'), day: part('day') }
}

const toUtc = (date: LocalDate) => new Date(Date.UTC(date.year, date.month - 1, date.day))
const iso = (date: Date) => date.toISOString().slice(0, 10)
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000)
/** Monday = 0 … Sunday = 6. */
const weekdayIndex = (date: Date) => (date.getUTCDay() + 6) % 7

function fridayOfWeek(today: Date, weeksAhead: number): string {
  const friday = addDays(today, 4 - weekdayIndex(today) + 7 * weeksAhead)
  return iso(friday < today ? today : friday)
}

function mondayOfNextWeek(today: Date): string {
  return iso(addDays(today, 7 - weekdayIndex(today)))
}

function endOfMonth(today: Date, monthsAhead: number): string {
  return iso(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1 + monthsAhead, 0)))
}

type Idiom = { pattern: RegExp; resolve: (today: Date) => string }

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const CHINESE_MONTHS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二']

/** The 15th of a named month, this year or next ("mid-May", "五月中旬"). */
function middleOf(month: number) {
  return (today: Date) => {
    const year = today.getUTCFullYear() + (month < today.getUTCMonth() ? 1 : 0)
    return iso(new Date(Date.UTC(year, month, 15)))
  }
}

const ENGLISH_IDIOMS: Idiom[] = [
  ...MONTHS.map((month, index) => ({ pattern: new RegExp(`\\bmid[- ]${month}`, 'i'), resolve: middleOf(index) })),
  { pattern: /\b(?:today|tonight|eod|end of (?:the )?day|in the next hour|within the hour|this afternoon|this morning|right now|asap|right after this)\b/i, resolve: (today) => iso(today) },
  { pattern: /\b(?:early|beginning of|start of) next week\b/i, resolve: mondayOfNextWeek },
  { pattern: /\b(?:end of next week|next week)\b(?!\s*(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun))/i, resolve: (today) => fridayOfWeek(today, 1) },
  { pattern: /\b(?:end of (?:the |this )?week|this week|by the weekend)\b/i, resolve: (today) => fridayOfWeek(today, 0) },
  { pattern: /\bend of next month\b/i, resolve: (today) => endOfMonth(today, 1) },
  { pattern: /\b(?:end of (?:the |this )?month|this month)\b/i, resolve: (today) => endOfMonth(today, 0) },
]

const CHINESE_IDIOMS: Idiom[] = [
  ...CHINESE_MONTHS.map((month, index) => ({ pattern: new RegExp(`(?:^|[^十])${month}月(?:中旬|中)`), resolve: middleOf(index) })),
  ...CHINESE_MONTHS.map((_, index) => ({ pattern: new RegExp(`(?:^|\\D)${index + 1}月(?:中旬|中)`), resolve: middleOf(index) })),
  { pattern: /今天|今晚|马上|下班前|一会儿|待会|会后/, resolve: (today) => iso(today) },
  { pattern: /下(?:周|星期|礼拜)初/, resolve: mondayOfNextWeek },
  { pattern: /下(?:周|星期|礼拜)(?![一二三四五六日天末])/, resolve: (today) => fridayOfWeek(today, 1) },
  { pattern: /(?:这|本)(?:周|星期|礼拜)(?![一二三四五六日天末])/, resolve: (today) => fridayOfWeek(today, 0) },
  { pattern: /下个?月底/, resolve: (today) => endOfMonth(today, 1) },
  { pattern: /月底|这个月|本月/, resolve: (today) => endOfMonth(today, 0) },
]

const STARTS = /\b(?:start|starts|starting|begin|begins|beginning|kick off)\b|开始/i
const DEADLINE = /\b(?:by|before|until|due|no later than)\b|之前|以前|前(?:完成|给|交|发|搞定|提测)|截止/i
const DURATION_ONLY = /^(?:about |around |roughly |approximately |maybe |like )?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|couple of)\s+(?:days?|weeks?|months?|hours?)$/i
const PAST_RESULT = /^(?:last|past|previous|this past)\b|^上(?:周|个|星期|礼拜)/i
const PAST_BEFORE = /\b(?:since|last|ago|from|was|were)\s*$|上$|去$/i

/** The ISO date a clause names as its deadline, or undefined. Never before the meeting's day. */
export function resolveDueDate(text: string, language: Language, today: LocalDate): string | undefined {
  // "I'll start on it next week" names when work begins, not when it is due.
  if (STARTS.test(text) && !DEADLINE.test(text)) return undefined
  const todayUtc = toUtc(today)
  // Chrono would read a dependency's time ("after Monday's release") as the deadline; idioms first.
  const idioms = language === 'zh' ? CHINESE_IDIOMS : ENGLISH_IDIOMS
  const chronoDate = fromChrono(text, language, todayUtc)
  const idiom = idioms.map((entry) => ({ entry, index: text.search(entry.pattern) })).filter(({ index }) => index >= 0).sort((a, b) => a.index - b.index)[0]
  if (idiom && (!chronoDate || idiom.index <= chronoDate.index)) {
    const resolved = idiom.entry.resolve(todayUtc)
    // "这周…周三给我", "this week, Wednesday at the latest": the named day is the more precise.
    return chronoDate && isWeekIdiom(idiom.entry) && NAMED_WEEKDAY.test(chronoDate.text) && sameWeek(resolved, chronoDate.date) ? chronoDate.date : resolved
  }
  return chronoDate?.date
}

const WEEK_IDIOMS = new Set<Idiom>([...ENGLISH_IDIOMS, ...CHINESE_IDIOMS].filter((idiom) => /week|周/.test(idiom.pattern.source) && !/mid|初|beginning/.test(idiom.pattern.source)))
const isWeekIdiom = (idiom: Idiom) => WEEK_IDIOMS.has(idiom)
const NAMED_WEEKDAY = /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|(?:周|星期|礼拜)[一二三四五六日天]/i

function sameWeek(a: string, b: string): boolean {
  const monday = (value: string) => { const date = new Date(`${value}T00:00:00Z`); return iso(addDays(date, -weekdayIndex(date))) }
  return monday(a) === monday(b)
}

function fromChrono(text: string, language: Language, todayUtc: Date): { date: string; index: number; text: string } | undefined {
  const parser = language === 'zh' ? chrono.zh.hans : chrono.en
  const reference = { instant: new Date(todayUtc.getTime() + 12 * 3_600_000), timezone: 0 }
  for (const result of parser.parse(text, reference, { forwardDate: true })) {
    const before = text.slice(0, result.index)
    if (PAST_BEFORE.test(before)) continue
    if (PAST_RESULT.test(result.text) || (DURATION_ONLY.test(result.text) && !/\b(?:in|within)\s*$/i.test(before))) continue
    const start = result.start
    if (!start.isCertain('day') && !start.isCertain('weekday') && !/tomorrow|明天|后天|天内|天后|in \w+ (?:days?|weeks?)/i.test(result.text)) continue
    let date = new Date(Date.UTC(start.get('year')!, start.get('month')! - 1, start.get('day')!))
    // "by Wednesday" said on a Wednesday means the next one.
    if (start.isCertain('weekday') && !start.isCertain('day') && date.getTime() === todayUtc.getTime()) date = addDays(date, 7)
    if (date < todayUtc || date.getTime() - todayUtc.getTime() > 400 * 86_400_000) continue
    return { date: iso(date), index: result.index, text: result.text }
  }
  return undefined
}
