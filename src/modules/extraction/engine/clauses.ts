// Cutting sentences into clauses: at commas where the parts say different kinds of things, a
// condition kept with what it conditions, a recap cut per person it names.
import { classifyClause, type ClauseContext } from './classify.ts'
import type { CueSet } from './cues.ts'
import { findAssignedPerson, type People } from './owners.ts'

/** Splits a sentence at commas where the parts say different kinds of things ("OK, let's use X, I'll write it up"). */
export function clausesByKind(sentence: string, context: ClauseContext): string[] {
  const parts = sentence.split(/(?<=[,，])\s*/)
  if (parts.length < 2) return [sentence]
  const groups: { text: string; hasKind: boolean }[] = []
  for (const part of parts) {
    // Only commitments, decisions and agreements stand apart; a subjectless "下周给个对比" continues what precedes it.
    const signals = classifyClause(part, context)
    const kind = signals.candidate?.kind
    const isSubjectless = kind === 'action' && signals.candidate?.owner.mode === 'speaker' && !/我|\bi\b|\bi'(?:ll|m|d)\b|\blet me\b|^me\b/i.test(part)
    const hasKind = ((kind === 'action' || kind === 'decision' || kind === 'outcome') && !isSubjectless) || signals.confirmation || signals.acceptance
    const current = groups[groups.length - 1]
    if (current && (!hasKind || !current.hasKind)) {
      current.text += part
      current.hasKind ||= hasKind
    } else groups.push({ text: part, hasKind })
  }
  return groups.map((group) => group.text)
}

/** "等我把手动确认改完以后，我顺便…": a condition belongs to the clause it conditions. */
export function joinConditions(clauses: string[], cues: CueSet): string[] {
  const joined: string[] = []
  for (const clause of clauses) {
    const previous = joined[joined.length - 1]
    if (previous !== undefined && cues.conditionStart.test(previous.trim())) joined[joined.length - 1] = `${previous}${cues.language === 'zh' ? '，' : ', '}${clause}`
    else joined.push(clause)
  }
  return joined
}

/** A recap lists "Priya does X by Thursday, Sam does Y": one clause per named person. */
export function recapClauses(text: string, cues: CueSet, people: People): string[] {
  const groups: string[] = []
  for (const part of text.split(/[,，;；]\s*(?:and\s+)?/)) {
    if (!part.trim()) continue
    if (findAssignedPerson(people, part.trim(), true) || groups.length === 0) groups.push(part.trim())
    else groups[groups.length - 1] += `${cues.language === 'zh' ? '，' : ', '}${part.trim()}`
  }
  return groups
}
