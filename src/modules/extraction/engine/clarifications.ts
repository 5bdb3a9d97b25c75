// Clarify items: what a person should settle — who owns an action, which of two contradicting
// decisions stands, what "it" meant. Worded in the meeting's language (or the requested locale).
import { titleOf, type Draft } from './drafts.ts'
import type { DraftRelation } from './relations.ts'
import type { Language } from './text.ts'
import type { ClarificationKind } from './types.ts'

export type DraftClarification = { kind: ClarificationKind; question: string; drafts: Draft[] }

export function clarifyDrafts(drafts: Draft[], relations: DraftRelation[], locale: string | undefined): DraftClarification[] {
  const language = (draft: Draft): Language => (locale ? (locale.toLowerCase().startsWith('zh') ? 'zh' : 'en') : draft.language)
  const clarifications: DraftClarification[] = []
  for (const draft of drafts) {
    if (draft.kind === 'action' && !draft.owner) {
      const title = titleOf(draft)
      clarifications.push({
        kind: 'missing-owner',
        question: language(draft) === 'zh' ? `谁来负责“${title}”？` : `Who will own “${title}”?`,
        drafts: [draft],
      })
    }
    if (draft.hasUnresolvedReference) {
      const said = draft.mentions[0]?.text ?? ''
      clarifications.push({
        kind: 'ambiguous-reference',
        question: language(draft) === 'zh' ? `“${said}”指的是哪件事？` : `What does “${said}” refer to?`,
        drafts: [draft],
      })
    }
  }
  for (const relation of relations) {
    if (relation.type !== 'supersedes') continue
    const [earlier, later] = [relation.to, relation.from]
    clarifications.push({
      kind: 'contradiction',
      question: language(later) === 'zh'
        ? `先决定了“${titleOf(earlier)}”，后来又说“${titleOf(later)}”。以哪个为准？`
        : `The meeting decided “${titleOf(earlier)}” and later “${titleOf(later)}”. Which one stands?`,
      drafts: [earlier, later],
    })
  }
  return clarifications
}
