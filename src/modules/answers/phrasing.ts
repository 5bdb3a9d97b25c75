// How a chosen passage is said back (nothing here ranks or chooses): a work object's title is read
// with who takes it and by when, and the answer to "who…?" names the person a first-person turn
// comes from ("Who takes the vendor contract?" — "Dana Li: I'll take it."), as the session names
// its speaker now. A person is named only from a real name: "Speaker 2" adds nothing to the quote.
import type { AppDeps } from '../../platform/deps.ts'
import { listMembers } from '../workspace/index.ts'
import { segmentSpeakerLabels } from '../transcripts/index.ts'
import { askedKind } from './kinds.ts'
import type { AnswerSource, Unit } from './ranking.ts'

const han = (text: string) => /\p{Script=Han}/u.test(text)

/** Display names of the workspace's members among `accountIds` (one query, none when there are none). */
export async function memberNames(deps: AppDeps, workspaceId: string, accountIds: string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map()
  const wanted = new Set(accountIds)
  const members = await listMembers(deps.database.db, workspaceId)
  return new Map(members.filter((member) => wanted.has(member.account_id) && member.name?.trim()).map((member) => [member.account_id, member.name.trim()]))
}

/** A day as a reader says it: "Friday 4 December 2026", "2026年12月4日星期五". */
function day(date: string, chinese: boolean): string {
  const at = new Date(`${date}T00:00:00Z`)
  if (Number.isNaN(at.getTime())) return date
  return new Intl.DateTimeFormat(chinese ? 'zh-Hans' : 'en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at).replace(',', '')
}

/** What a work object's title is read with: " (owner Dana Li; due Friday 4 December 2026)", "（负责人：张伟；截止：…）"; empty when neither is known. */
export function workFacts(object: { title: string; dueDate: string | null }, owner: string | null | undefined): string {
  const chinese = han(object.title)
  const facts = [
    ...(owner?.trim() ? [chinese ? `负责人：${owner.trim()}` : `owner ${owner.trim()}`] : []),
    ...(object.dueDate ? [chinese ? `截止：${day(object.dueDate, true)}` : `due ${day(object.dueDate, false)}`] : []),
  ]
  if (facts.length === 0) return ''
  return chinese ? `（${facts.join('；')}）` : ` (${facts.join('; ')})`
}

/** "Speaker 2", "说话人 2": a label the session gave, not a name. */
const UNNAMED = /^(speaker|说话人|发言人)\s*\d+$/i
/** A turn that speaks of its speaker taking something on ("I'll take it", "me", "我来"). */
const FIRST_PERSON = /\b(I|I'll|I'd|I'm|I've|me|my|mine)\b|我(?!们)/i

/**
 * The chosen passages as the answer says them. For "who…?", a first-person turn is said with its
 * speaker's name before it, unless it already holds that name.
 */
export async function phrased(deps: AppDeps, workspaceId: string, question: string, chosen: Unit[]): Promise<{ text: string; sources: AnswerSource[] }[]> {
  const said = chosen.map((unit) => ({ text: unit.text, sources: [unit.source, ...unit.extra] }))
  if (askedKind(question) !== 5) return said
  const turns = chosen.filter((unit) => unit.source.kind === 'segment' && FIRST_PERSON.test(unit.text))
  if (turns.length === 0) return said
  const speakers = await segmentSpeakerLabels(deps.database.db, workspaceId, turns.map((unit) => unit.source.id))
  return said.map((item, index) => {
    const unit = chosen[index]!
    const speaker = turns.includes(unit) ? speakers.get(unit.source.id)?.trim() : undefined
    if (!speaker || UNNAMED.test(speaker) || item.text.toLowerCase().includes(speaker.toLowerCase())) return item
    return { ...item, text: han(item.text) ? `${speaker}：${item.text}` : `${speaker}: ${item.text}` }
  })
}
