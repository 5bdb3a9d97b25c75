// Pure rules of project memory: what an entry is about (its subject), whether two entries speak of
// the same subject, and whether a later one replaces an earlier one or contradicts it.
import { contentTokens, cosine, termVector, type TermVector } from '../extraction/index.ts'

/** Words that say a decision was taken or changed, not what it is about. */
const DECISION_WORDS = new Set(['decid', 'decis', 'agre', 'agreement', 'chose', 'choos', 'go', 'goe', 'went', 'settl', 'confirm', 'final', 'plan',
  'instead', 'chang', 'switch', 'move', 'moved', 'now', 'longer', 'revis', 'updat', 'new', 'team', 'let', 'make', 'made', 'keep'])
const CHINESE_DECISION_WORDS = new Set(['决定', '同意', '确定', '改为', '改成', '不再', '我们', '大家', '最终'])
const MONTHS = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/
const WEEKDAYS = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun)/

/** Values (numbers, dates, weekdays) differ between contradicting decisions; they are not the subject. */
const isValue = (token: string) => /\d/.test(token) || MONTHS.test(token) || WEEKDAYS.test(token) || /[一二三四五六七八九十百千万零两]|周|月|号|日/.test(token)

export function subjectTokens(text: string): string[] {
  return contentTokens(text).filter((token) => !DECISION_WORDS.has(token) && !CHINESE_DECISION_WORDS.has(token) && !isValue(token))
}

/** A readable subject: the entry's subject words in their order of appearance, at most five. */
export function subjectOf(text: string): string {
  return [...new Set(subjectTokens(text))].slice(0, 5).join(' ')
}

const SUPERSEDE_MARKERS = /\b(instead|no longer|change[sd]?|changing|switch(ed|ing)?|move[sd]? (it |this )?to|moving (it )?to|revis(e|ed|ing)|replac(e|ed|es|ing)|push(ed)? (it |this )?back|postpon(e|ed)|overrid(e|es|ing)|reversed?|from now on)\b|改为|改成|不再|推迟|取消|改到|换成|调整为|代替/i

export const marksSupersession = (text: string) => SUPERSEDE_MARKERS.test(text)

const shared = (a: TermVector, b: TermVector) => [...a.keys()].filter((token) => b.has(token)).length

/** Two entries are about the same subject when most subject words of the shorter one are in the other. */
export function sameSubject(a: string, b: string): boolean {
  const left = termVector(subjectTokens(a))
  const right = termVector(subjectTokens(b))
  if (left.size === 0 || right.size === 0) return false
  const common = shared(left, right)
  const smaller = Math.min(left.size, right.size)
  return common >= Math.min(2, smaller) && common / smaller >= 0.6
}

/** The same statement again (restated in a later meeting): nearly every word in common. */
export const restates = (a: string, b: string) => cosine(termVector(contentTokens(a)), termVector(contentTokens(b))) >= 0.9

export type Relation = 'unrelated' | 'supersedes' | 'contradicts'

/**
 * How a later entry relates to an earlier one of the same kind family. A later outcome or metric
 * replaces the earlier figure; a later decision replaces an earlier one when it says so (or a
 * person confirmed a `supersedes` relation) or restates it; otherwise two different decisions on
 * one subject contradict each other and a person settles it.
 */
export function relate(earlier: { statement: string; kind: string }, later: { statement: string; kind: string; supersedesExplicitly: boolean }): Relation {
  if (!sameSubject(earlier.statement, later.statement)) return later.supersedesExplicitly ? 'supersedes' : 'unrelated'
  if (later.kind === 'outcome' || later.kind === 'metric') return 'supersedes'
  if (later.supersedesExplicitly || marksSupersession(later.statement) || restates(earlier.statement, later.statement)) return 'supersedes'
  return 'contradicts'
}
