// The blocks of a takeover summary, in the meeting's language: actions (with owner, due date,
// stage and responsibility), decisions, open questions and risks, outcomes, references, and the
// clarify items still open. Each item cites its work object and the segments it came from.
import type { ChatMessage } from '../../platform/llm/chat.ts'
import type { ClarificationRow } from './followups.ts'
import type { WorkObjectRow } from './repo.ts'

export type Language = 'en' | 'zh'
export type BlockType = 'actions' | 'decisions' | 'open-questions' | 'outcomes' | 'references' | 'clarifications'
export type BlockItem = {
  text: string
  workObjectId?: string
  clarificationId?: string
  ownerId?: string
  ownerName?: string
  dueDate?: string
  stage?: string
  responsibility?: string
  proposed?: boolean
  sourceSegmentIds: string[]
}
export type Block = { type: BlockType; title: string; items: BlockItem[] }
export type Brief = { points: { text: string; workObjectIds: string[] }[] }

const TITLES: Record<BlockType, Record<Language, string>> = {
  actions: { en: 'Actions', zh: '行动项' },
  decisions: { en: 'Decisions', zh: '决定' },
  'open-questions': { en: 'Open questions and risks', zh: '待解决的问题和风险' },
  outcomes: { en: 'Outcomes', zh: '成果' },
  references: { en: 'References', zh: '参考资料' },
  clarifications: { en: 'To clarify', zh: '待澄清' },
}
const KIND_BLOCK: Record<string, BlockType> = {
  action: 'actions', decision: 'decisions', question: 'open-questions', outcome: 'outcomes', reference: 'references',
}

const HAN = /\p{Script=Han}/u
export const languageOf = (texts: string[]): Language =>
  texts.filter((text) => HAN.test(text)).length * 2 > texts.length ? 'zh' : 'en'

export function blocksOf(read: { objects: WorkObjectRow[]; clarifications: ClarificationRow[]; names: Map<string, string> }, language: Language): Block[] {
  const items = new Map<BlockType, BlockItem[]>()
  const add = (type: BlockType, item: BlockItem) => items.set(type, [...(items.get(type) ?? []), item])
  for (const object of read.objects) {
    const owner = object.owner_account_id
    add(KIND_BLOCK[object.kind]!, {
      text: object.title, workObjectId: object.id,
      ...(owner ? { ownerId: owner, ownerName: read.names.get(owner) ?? owner } : object.owner_hint ? { ownerName: object.owner_hint } : {}),
      ...(object.due_date ? { dueDate: object.due_date } : {}),
      ...(object.kind === 'action' ? { stage: object.stage, responsibility: object.responsibility_state } : {}),
      ...(object.proposal_state === 'pending' ? { proposed: true } : {}),
      sourceSegmentIds: JSON.parse(object.source_segment_ids) as string[],
    })
  }
  for (const clarification of read.clarifications) {
    if (clarification.status !== 'open' && clarification.status !== 'deferred') continue
    add('clarifications', { text: clarification.question, clarificationId: clarification.id, sourceSegmentIds: JSON.parse(clarification.source_segment_ids) as string[] })
  }
  return (Object.keys(TITLES) as BlockType[])
    .filter((type) => (items.get(type)?.length ?? 0) > 0)
    .map((type) => ({ type, title: TITLES[type][language], items: items.get(type)! }))
}

export function headlineOf(blocks: Block[], language: Language): string {
  const count = (type: BlockType) => blocks.find((block) => block.type === type)?.items.length ?? 0
  const unowned = blocks.find((block) => block.type === 'actions')?.items.filter((item) => !item.ownerName).length ?? 0
  const [actions, decisions, questions, open] = [count('actions'), count('decisions'), count('open-questions'), count('clarifications')]
  if (language === 'zh') {
    return [
      `${actions} 项行动${unowned > 0 ? `（${unowned} 项无负责人）` : ''}`,
      decisions > 0 ? `${decisions} 项决定` : '', questions > 0 ? `${questions} 个待解决问题` : '', open > 0 ? `${open} 项待澄清` : '',
    ].filter(Boolean).join('，') + '。'
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  return [
    `${plural(actions, 'action')}${unowned > 0 ? ` (${unowned} without an owner)` : ''}`,
    decisions > 0 ? plural(decisions, 'decision') : '', questions > 0 ? plural(questions, 'open question') : '',
    open > 0 ? `${open} to clarify` : '',
  ].filter(Boolean).join(', ') + '.'
}

export function briefPrompt(blocks: Block[], language: Language): ChatMessage[] {
  const lines = blocks.flatMap((block) => [
    `## ${block.title}`,
    ...block.items.filter((item) => item.workObjectId).map((item) =>
      `[${item.workObjectId}] ${item.text}${item.ownerName ? ` — owner: ${item.ownerName}` : ''}${item.dueDate ? ` — due ${item.dueDate}` : ''}${item.stage ? ` — ${item.stage}` : ''}`),
  ])
  return [
    { role: 'system', content: `You brief a colleague who takes over a meeting's work, in ${language === 'zh' ? 'Simplified Chinese' : 'English'}. Use only the work items listed. Write a one-line headline and a few points; every point cites the ids of the work items it rests on. Say who owns what and by when when it is known, and what is still unowned or undecided.` },
    { role: 'user', content: `Work items of the meeting:\n${lines.join('\n')}` },
  ]
}
