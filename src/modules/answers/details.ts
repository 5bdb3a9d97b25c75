// The details a question pins down (pure): a month, a weekday, a quarter, a platform, a name. An
// unanswerable question often differs from an answerable one by one of them ("the cloud bill in
// February" when the meeting gave April's, "iOS" when it spoke of Android). Each must be said in
// the passage's meeting at all, and the passage (with the question it replies to) must not name
// another value of the same kind (another month, weekday, quarter, platform).
import { contentTokens } from '../extraction/index.ts'
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

export type Details = { names: string[][]; pinned: { token: string; kind: Set<string> }[]; head?: string[] }

/** "…的手续费是多少？": the thing asked about ends a Chinese noun phrase; its last two characters must be in the passage. */
/** "How many scanners…": what is counted must be in the passage, the question it replies to or the segment before it. */
const COUNTED = /\bhow many ([a-z]+)/i
const CHINESE_ASKED = /(\p{Script=Han}{2,})(?:是多少|有多少)/u

export function questionDetails(question: string): Details {
  const details: Details = { names: [], pinned: [] }
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
  const asked = CHINESE_ASKED.exec(text)?.[1]?.split(/[的了是在和与及]/).at(-1)
  if (asked && [...asked].length >= 2) details.head = [[...asked].slice(-2).join('')]
  const counted = COUNTED.exec(text)?.[1]
  const stem = counted ? contentTokens(counted.toLowerCase())[0] : undefined
  if (stem) details.head = alternatives(stem)
  return details
}

/** A quarter is also said in words ("the second quarter", 第二季度). */
const SAID_AS: Record<string, string[][]> = Object.fromEntries(['first', 'second', 'third', 'fourth'].map((ordinal, index) => [`q${index + 1}`, [[...contentTokens(ordinal), 'quarter'], contentTokens(`第${'一二三四'[index]}季度`)]]))

const holds = (tokens: string[], sets: (Set<string> | undefined)[]) => tokens.every((token) => sets.some((set) => set?.has(token)))
const said = (token: string, sets: (Set<string> | undefined)[]) => holds([token], sets) || (SAID_AS[token] ?? []).some((words) => holds(words, sets))

/** Does a passage keep to the question's details? */
export function keepsDetails(details: Details, passage: { tokens: Set<string>; asked?: Set<string>; before?: Set<string>; title?: Set<string>; context?: Set<string>; meeting?: Set<string> }): boolean {
  const { tokens, asked, before, title, context, meeting } = passage
  if (!details.names.every((name) => holds(name, [tokens, asked, title, context, meeting]))) return false
  if (details.head && !details.head.some((word) => holds([word], [tokens, asked, before]))) return false
  return details.pinned.every(({ token, kind }) => {
    if (!said(token, [tokens, asked, title, context, meeting])) return false
    if (said(token, [tokens, asked])) return true
    // Not said in the passage itself: it must not name another month, platform, …
    return ![...kind].some((other) => other !== token && said(other, [tokens, asked]))
  })
}
