// Decisions the rules did not find, from the learned detector: learned-kinds.ts's detector for the
// kind 'decision' (its guards: a question, a bare deadline or a recalled decision is never one; a rule
// decision on the same words within 8 turns after a sentence covers it, and one found up to 4 turns
// before, rule or learned, covers it too: the choice said again). The engine calls
// learnedDrafts directly; this name is what eval/decisions-first-run.ts patches into an old engine.
import type { Draft } from './drafts.ts'
import { learnedDrafts, type LearnedOptions } from './learned-kinds.ts'
import type { People } from './owners.ts'
import type { TranscriptSegmentInput } from './types.ts'

export type { LearnedOptions } from './learned-kinds.ts'

export function learnedDecisions(segments: TranscriptSegmentInput[], turnOf: number[], people: People, drafts: Draft[], options: LearnedOptions): Draft[] {
  return learnedDrafts('decision', segments, turnOf, people, drafts, options)
}
