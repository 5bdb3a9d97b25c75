// Decisions the rules did not find, from the learned detector (decision-model.ts; learned-kinds.ts
// holds the detector for every kind). Decision-specific: a question or a bare deadline is never a
// decision, and a rule decision on the same words within 8 turns after a sentence (a proposal the
// rules find settled later) covers it.
import type { Draft } from './drafts.ts'
import { learnedDrafts, type LearnedOptions } from './learned-kinds.ts'
import type { People } from './owners.ts'
import type { TranscriptSegmentInput } from './types.ts'

export type { LearnedOptions } from './learned-kinds.ts'

export function learnedDecisions(segments: TranscriptSegmentInput[], turnOf: number[], people: People, drafts: Draft[], options: LearnedOptions): Draft[] {
  return learnedDrafts('decision', segments, turnOf, people, drafts, options)
}
