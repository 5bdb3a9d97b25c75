// The drafts the assembler builds: an item being put together from its mentions.
import type { CueSet } from './cues.ts'
import { englishCues } from './cues-en.ts'
import { chineseCues } from './cues-zh.ts'
import type { Person } from './owners.ts'
import type { Language, TermVector } from './text.ts'
import type { ItemKind, SemanticType } from './types.ts'

/** `segmentIndex` (and a draft's first/last segment index) counts turns (turns.ts): recognized segments of one speaker read as one; a typed segment is its own turn. */
export type Mention = { segmentIndex: number; segmentId: string; speaker: Person; text: string; title: string; topicSize: number; referring: boolean }

export type Draft = {
  order: number
  kind: ItemKind
  semanticType: SemanticType
  confidence: number
  /** Where the item was first said: segment id, sentence and clause; the key derives from it. */
  anchor: string
  language: Language
  mentions: Mention[]
  topic: TermVector
  owner?: Person
  dueDate?: string
  requestTo?: Person
  /** the request named no one: `requestTo` is only who spoke last */
  requestGuessed?: boolean
  isAccepted: boolean
  isOpen: boolean
  hasUnresolvedReference: boolean
  contextTitle?: string
  choiceObject?: string
  isRevision: boolean
  isExplicitlyOpen: boolean
  isProposal: boolean
  /** Said only as a bare "let's <do something>": the work itself when someone then takes it. */
  isLetsOnly?: boolean
  asksWhen: boolean
  asksWhenOf?: Person
  dependencyText?: string
  firstSegmentIndex: number
  lastSegmentIndex: number
}

export type NearDuplicate = { from: Draft; to: Draft; similarity: number }
export type Assembly = { drafts: Draft[]; nearDuplicates: NearDuplicate[] }

export const cuesFor = (language: Language): CueSet => (language === 'zh' ? chineseCues : englishCues)

/** The title of a draft: its contextual title when every mention is a pronoun, else its most telling mention. */
export function titleOf(draft: Draft): string {
  if (draft.contextTitle && draft.mentions.every((mention) => mention.referring)) return draft.contextTitle
  const telling = draft.mentions.find((mention) => !mention.referring && mention.topicSize >= 2)
    ?? [...draft.mentions].sort((a, b) => b.topicSize - a.topicSize)[0]
  return telling?.title || draft.contextTitle || draft.mentions[0]?.text || ''
}
