// What kind of passage a question wants (pure): an identifier, a number, a time, a person; and the
// passages that never answer (meeting openers, questions). Used by ranking.ts.

/** Openers restate the agenda ("this is the review of…", "今天复盘一下…"); a question asks: neither answers. */
export const OPENER = /\b(this is the|today we|the goal today|let'?s (start|kick off|get started|go through|run through|walk through|do a quick)|quick (debrief|sync|update|retro|review) on|agenda|thanks (for|everyone for) (hopping|jumping|joining|coming))\b|今天(主要)?(复盘|评审|讨论|看|过|定|对|聊)|今天是.{0,16}会|大家好|介绍一下背景|复盘一下|评审一下|过一下|我们开始/i
export const isQuestion = (text: string) => /[?？]\s*$/.test(text)

const QUANTITY = /\b(how (many|much|long|often|big|large|fast|slow)|what (percent|percentage|share|rate|ratio|number|threshold|limit))\b|多少|几|多久|多长|多大|比例|阈值|上限/i
const TIME = /\b(when|what (date|day|time))\b|什么时候|哪天|何时/i
const NUMBER = /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|half|percent)\b|[一二三四五六七八九十百千万两半]/i
const DATE = /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|\d{1,2}(st|nd|rd|th)|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|tomorrow|today|week|month|quarter|q[1-4])\b|\d{1,2}[:/]\d{2}|周[一二三四五六日]|星期|[0-9一二三四五六七八九十]+月|号|下周|本周|明天|今天|季度/i

/** "Which ticket / link / PR…": an identifier (SUP-2291, #412, a URL, v5.2). */
const IDENTIFIER_ASKED = /\b(ticket|issue|link|url|pr|pull request|jira|id|version)\b|编号|单号|链接|版本号/i
const IDENTIFIER = /\b[A-Z][A-Z0-9]+-\d+\b|#\d+|https?:\/\/|\bv?\d+\.\d+/
/** "Who…": a person (a name, "I'll take it", "我来", "由…负责"). */
/** "Why…": a reason (because, mostly, due to, 因为, 主要是). */
const WHY = /\b(why|what (drove|caused|happened|went wrong)|root cause|cause of)\b|为什么|原因|为啥/i
const REASON = /\b(because|since|due to|mostly|mainly|caused|driven|so that|reason|otherwise|makes? no sense)\b|因为|由于|所以|导致|原因|主要是|以为/i
const WHO = /\b(who|whom|whose)\b|谁/i
const PERSON = /\b(I'll|I will|I can|I'm on|me)\b|[a-z0-9,;:]\s+[A-Z][a-z]+\b|^[A-Z][a-z]+,|我来|负责|交给|由/

/**
 * Does the passage hold the kind of thing the question asks for (an identifier, a number, a time, a
 * person)? 0.25 when it does, 0 when not; 0.05 for a question that asks for no particular kind.
 */
export function fitsQuestion(question: string, text: string): number {
  const kind = kindFits(question, text)
  return kind === undefined ? 0.05 : 0.25 * kind
}

/** "How long / 多久 / 多长时间": a duration, not any number. */
const DURATION_ASKED = /\bhow long\b|多久|多长时间|多长/i
const DURATION = /\b(seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b|[一二三四五六七八九十百两几半多\d]+(个)?(秒|分钟|小时|天|周|星期|个月|年)/i

function kindFits(question: string, text: string): number | undefined {
  if (IDENTIFIER_ASKED.test(question)) return IDENTIFIER.test(text) ? 1 : 0
  if (DURATION_ASKED.test(question)) return DURATION.test(text) && NUMBER.test(text) ? 1 : 0
  if (QUANTITY.test(question)) return NUMBER.test(text) ? 1 : 0
  if (TIME.test(question)) return DATE.test(text) || NUMBER.test(text) ? 1 : 0
  if (WHO.test(question)) return PERSON.test(text) ? 1 : 0
  if (WHY.test(question)) return REASON.test(text) ? 1 : 0
  return undefined
}

/** Do two questions ask for the same kind of thing? A reply to the one then fits the other. */
export function sameKind(question: string, asked: string): boolean {
  const kind = (text: string) => (IDENTIFIER_ASKED.test(text) ? 1 : QUANTITY.test(text) ? 2 : TIME.test(text) ? 3 : WHO.test(text) ? 4 : WHY.test(text) ? 5 : 0)
  return kind(question) !== 0 && kind(question) === kind(asked)
}

/** The kind of thing a question asks for, as kindFits reads it: 0 none, 1 identifier, 2 duration, 3 quantity, 4 time, 5 person, 6 reason. */
export function askedKind(question: string): number {
  const kinds = [IDENTIFIER_ASKED, DURATION_ASKED, QUANTITY, TIME, WHO, WHY]
  return kinds.findIndex((pattern) => pattern.test(question)) + 1
}
