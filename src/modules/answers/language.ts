// A question in a language the workspace's meetings are not in (a Chinese question over English
// meetings, or the reverse). The extractive engine matches the question's words against the
// transcript's and nothing offline translates between the two (docs/decisions.md, "Answers, eighth
// pass"), so such a question can only end in `no-evidence`: the answer then says why, in the
// question's language, instead of leaving the asker to think the meetings never discussed it.
import type { AppDeps } from '../../platform/deps.ts'
import { detectLanguage } from '../extraction/index.ts'
import { latestSegmentTexts } from '../transcripts/index.ts'

export type LanguageGap = { reason: 'language-mismatch'; notice: string }

const NOTICES = {
  zh: '没有找到依据：这个工作区最近的会议记录都是英文的，而离线的提取式回答只能在同一种语言里匹配问题和原话，不会翻译。请用英文提问。',
  en: 'No evidence found: this workspace\'s recent meetings are in Chinese, and the offline extractive engine only matches a question against what was said in the same language; it does not translate. Ask in Chinese.',
} as const

/**
 * How many of the latest segments are read to tell the workspace's languages (the newest sessions'
 * segments: a workspace whose newest meetings are all in one language reads as that language).
 */
const SAMPLE = 200

/** Is the question in a language none of the workspace's latest segments are in? (undefined: no gap, or nothing to tell by) */
export async function languageGap(deps: AppDeps, workspaceId: string, question: string): Promise<LanguageGap | undefined> {
  const asked = detectLanguage(question)
  if (asked !== 'zh' && asked !== 'en') return undefined
  const texts = await latestSegmentTexts(deps.database, workspaceId, SAMPLE)
  if (texts.length === 0) return undefined
  const spoken = new Set(texts.map((text) => detectLanguage(text)))
  return spoken.has(asked) ? undefined : { reason: 'language-mismatch', notice: NOTICES[asked] }
}
