// Chinese words of a question, cut by jieba (@node-rs/jieba: its dictionary ships inside the npm
// package, nothing is downloaded; loaded once, on the first Chinese question, ≈ 0.1 s).
import { Jieba } from '@node-rs/jieba'
import { dict } from '@node-rs/jieba/dict.js'

let jieba: Jieba | undefined

/** The words of a run of Chinese text, in order ("食堂为什么不提供晚饭" → 食堂 / 为什么 / 不 / 提供 / 晚饭). */
export function chineseWords(text: string): string[] {
  jieba ??= Jieba.withDict(dict)
  return jieba.cut(text, false)
}
