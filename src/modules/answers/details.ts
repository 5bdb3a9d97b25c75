// The details a question pins down (pure): a month, a weekday, a quarter, a platform, a name. An
// unanswerable question often differs from an answerable one by one of them ("the cloud bill in
// February" when the meeting gave April's, "iOS" when it spoke of Android). Each must be said in
// the passage's meeting at all, and the passage (with the question it replies to) must not name
// another value of the same kind (another month, weekday, quarter, platform).
import { contentTokens } from '../extraction/index.ts'
import { chineseWords } from './chinese-words.ts'
import { alternatives } from './lexicon.ts'

const stems = (words: string) => new Set(words.split(' ').flatMap((word) => contentTokens(word)))
/** "may" is left out: far more often the verb than the month. */
const KINDS: Set<string>[] = [
  stems('january february march april june july august september october november december'),
  stems('monday tuesday wednesday thursday friday saturday sunday'),
  stems('q1 q2 q3 q4'),
  new Set([...stems('ios android web windows macos linux ipad chromeos'), '安卓', '鸿蒙']),
  new Set([...stems('iphone samsung huawei xiaomi pixel'), '苹果', '华为', '小米', '三星']),
  new Set(['微信', '抖音', '快手', '微博', '淘宝', '京东']),
  new Set(['周一', '周二', '周三', '周四', '周五', '周六', '周日']),
]
const CHINESE_PINNED = /安卓|鸿蒙|苹果|华为|小米|三星|微信|抖音|快手|微博|淘宝|京东|周[一二三四五六日]/gu
const CHINESE_NAMES = /小红书|小程序|支付宝/gu
/** A capitalised word that is no name: the pronoun, sentence openers, question words. */
const NOT_A_NAME = /^(i|what|who|when|where|why|how|which|whose|is|are|was|were|do|does|did|can|could|should|will|would|has|have|had)$/

export type Details = {
  names: string[][]
  pinned: { token: string; kind: Set<string> }[]
  head?: string[]
  /** details found in the text (Chinese months and shopping/holiday events): said in the meeting, not contradicted by the passage */
  marked: { value: string; kind: Mark }[]
  /** what the answer must be said in: money for "how much … cost / 多少钱", the unit counted by 几年 / 多少单 */
  wants: RegExp[]
}

/**
 * Details read from the text rather than from tokens (Chinese has no spaces, and the bigram 一月 is
 * inside 十一月): a month written 十一月 / 11月 / 十一月份, a shopping festival or holiday. Each
 * returns the values it names in a text, normalised (十一月 and 11月 are both 11).
 */
type Mark = (text: string) => string[]
const NUMERALS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 }
/** 一 … 十二 (or digits) as a number. */
export function chineseNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text)
  const [tens, ones] = text.includes('十') ? text.split('十') : ['', text]
  const value = (text.includes('十') ? (tens ? NUMERALS[tens] ?? NaN : 1) * 10 : 0) + (ones ? NUMERALS[ones] ?? NaN : 0)
  return Number.isNaN(value) || value === 0 ? undefined : value
}
const chineseMonths: Mark = (text) => [...text.matchAll(/(?<![\d一二三四五六七八九十两几个])([一二三四五六七八九十]{1,3}|\d{1,2})月/gu)]
  .map((match) => chineseNumber(match[1]!)).filter((month): month is number => month !== undefined && month <= 12).map(String)
const EVENTS: [string, RegExp][] = [['1111', /双十一|双11|\b11\.11\b/], ['1212', /双十二|双12|\b12\.12\b/], ['618', /618|六一八/], ['年货节', /年货节/], ['春节', /春节|过年/],
  ['国庆', /国庆/], ['中秋', /中秋/], ['元旦', /元旦/], ['black friday', /black friday|黑五/i], ['prime day', /prime day/i], ['christmas', /christmas|圣诞/i]]
const events: Mark = (text) => EVENTS.filter(([, pattern]) => pattern.test(text)).map(([value]) => value)
const MARKS: Mark[] = [chineseMonths, events]

/** A Chinese numeral (十九, 两, 二百三十, 1.5). */
const NUMERAL = '[\\d.一二三四五六七八九十两百千万半几多]'
/** "How much commission did we pay…", "What would X have cost?" (tenth pass: up to two words between how much and the verb, and what … cost) want money too. */
/** Money: a currency, an amount in thousands, a percentage (more than now), a numeral with 元 / 块 / 万 / 百 (每人六百五). */
const MONEY = new RegExp(`[$£€¥]|\\b(dollars?|pounds?|euros?|bucks|grand|cents?|hundred|thousand|million|percent)\\b|\\d+\\s?k\\b|%|${NUMERAL}(元|块|钱|毛|角|万|千|百)`, 'iu')
const MONEY_ASKED = /\bhow much (money|cash)\b|\bhow much( [a-z]+){0,2} (did|does|do|will|would|is|was|are|were)\b.*\b(costs?|pay|paying|paid|charg\w*|quot\w*|spen[dt]\w*|price)\b|\bwhat (did|does|do|will|would|is|was|are|were)\b.*\b(cost|charge|pay)\b|多少钱|价格|价钱|报价|费用是多少|花了多少|收多少/i
/** 几年 / 多少单 / 几场: what is counted must be said with the answer (a measure word, or the thing). */
const CHINESE_COUNTED = /(?:多少|几)个?([年天月周次场人单辆件台家份本条遍轮])/u
const COUNTED_AS: Record<string, string> = { 天: '[天日号]', 周: '(周|星期|礼拜)', 人: '[人名位个]' }
/** …said with a numeral: 三年, 十九号, 二百三十多单. */
const saidCounted = (measure: string) => new RegExp(`${NUMERAL}个?${COUNTED_AS[measure] ?? measure}`, 'u')

/** "…的手续费是多少？": the thing asked about ends a Chinese noun phrase; its last two characters must be in the passage. */
/** "How many scanners…": what is counted must be in the passage, the question it replies to or the segment before it. */
const COUNTED = /\bhow many ([a-z]+)/i
const CHINESE_ASKED = /(\p{Script=Han}{2,})(?:是多少|有多少)/u

export function questionDetails(question: string): Details {
  const details: Details = { names: [], pinned: [], marked: [], wants: [] }
  const text = question.normalize('NFKC')
  const words = [...text.matchAll(/[A-Za-z][A-Za-z0-9]*|\d+/g)]
  const pin = (token: string) => {
    const kind = KINDS.find((values) => values.has(token))
    if (kind) details.pinned.push({ token, kind })
    return kind !== undefined
  }
  words.forEach((match, index) => {
    const word = match[0]
    const tokens = contentTokens(word.toLowerCase())
    if (tokens.length !== 1 || pin(tokens[0]!)) return
    const name = /[A-Z]/.test(word.slice(1)) || (/^[A-Z]/.test(word) && index > 0 && !NOT_A_NAME.test(word.toLowerCase())) || /^\d{3,}$/.test(word)
    if (name) details.names.push(tokens)
  })
  for (const match of text.matchAll(CHINESE_PINNED)) pin(match[0])
  for (const match of text.matchAll(CHINESE_NAMES)) details.names.push(contentTokens(match[0]))
  for (const kind of MARKS) for (const value of kind(text)) details.marked.push({ value, kind })
  if (MONEY_ASKED.test(text)) details.wants.push(MONEY)
  const countedBy = CHINESE_COUNTED.exec(text)
  const measure = countedBy?.[1]
  // 几个月 counts months (三个月); 几月 asks which month (一月): a month's name does not answer the first.
  if (measure) details.wants.push(measure === '月' && countedBy![0].includes('个') ? new RegExp(`${NUMERAL}个月`, 'u') : saidCounted(measure))
  const asked = chineseAsked(text)
  // A head of more than two characters (模拟训练) is said by either half in a meeting (晚上模拟开放到九点): any of its bigrams.
  if (asked && [...asked].length >= 2) details.head = [...new Set([...asked].slice(0, -1).flatMap((character, index) => alternatives(character + [...asked][index + 1]!)).reverse())]
  const counted = COUNTED.exec(text)?.[1]
  const stem = counted ? contentTokens(counted.toLowerCase())[0] : undefined
  if (stem) details.head = alternatives(stem)
  return details
}

/**
 * The thing a Chinese how-much question asks about: "…的X是多少 / 有多少", or the word right after the
 * last 的 before 多少 / 几 ("消防演练的预算批了多少" → 预算, "捷风的合同签几年" → 合同).
 */
function chineseAsked(text: string): string | undefined {
  const said = CHINESE_ASKED.exec(text)?.[1]?.split(/[的了是在和与及]/).at(-1)
  if (said && [...said].length >= 2) return said
  const before = /^(.*?)(?:多少|几)/u.exec(text)?.[1]
  if (!before?.includes('的')) return undefined
  const after = before.slice(before.lastIndexOf('的') + 1)
  const first = after ? chineseWords(after).find((word) => /^\p{Script=Han}{2,}$/u.test(word)) : undefined
  return first && after.startsWith(first) ? first : undefined
}

/** A quarter is also said in words ("the second quarter", 第二季度). */
const SAID_AS: Record<string, string[][]> = Object.fromEntries(['first', 'second', 'third', 'fourth'].map((ordinal, index) => [`q${index + 1}`, [[...contentTokens(ordinal), 'quarter'], contentTokens(`第${'一二三四'[index]}季度`)]]))

const holds = (tokens: string[], sets: (Set<string> | undefined)[]) => tokens.every((token) => sets.some((set) => set?.has(token)))
const said = (token: string, sets: (Set<string> | undefined)[]) => holds([token], sets) || (SAID_AS[token] ?? []).some((words) => holds(words, sets))

/** Does a passage keep to the question's details? */
export type Passage = {
  tokens: Set<string>; asked?: Set<string>; before?: Set<string>; title?: Set<string>; context?: Set<string>; meeting?: Set<string>
  /** the passage as said, the question it replies to, the turn before it, and everything around it in its meeting (title, neighbours, hits) */
  text?: string; askedText?: string; beforeText?: string; meetingText?: string
}

export function keepsDetails(details: Details, passage: Passage): boolean {
  const { tokens, asked, before, title, context, meeting } = passage
  if (!details.names.every((name) => holds(name, [tokens, asked, title, context, meeting]))) return false
  if (details.head && !details.head.some((word) => holds([word], [tokens, asked, before]))) return false
  if (passage.text !== undefined && (details.wants.length > 0 || details.marked.length > 0)) {
    const near = [passage.text, passage.askedText ?? '', passage.beforeText ?? ''].join('\n')
    if (!details.wants.every((wanted) => wanted.test(near))) return false
    const own = `${passage.text}\n${passage.askedText ?? ''}`
    for (const { value, kind } of details.marked) {
      if (!kind(`${near}\n${passage.meetingText ?? ''}`).includes(value)) return false
      const named = kind(own)
      if (named.length > 0 && !named.includes(value)) return false
    }
  }
  return details.pinned.every(({ token, kind }) => {
    if (!said(token, [tokens, asked, title, context, meeting])) return false
    if (said(token, [tokens, asked])) return true
    // Not said in the passage itself: it must not name another month, platform, …
    return ![...kind].some((other) => other !== token && said(other, [tokens, asked]))
  })
}
