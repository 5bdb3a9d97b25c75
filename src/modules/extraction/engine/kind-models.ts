// The shipped learned detectors of outcomes and questions (twelfth pass, docs/extraction.md): the
// decision detector's model (decision-model.ts) trained on each kind's labels
// (`npm run eval -- --train-decisions` retrains every shipped model). A kind's detector runs by
// default only when it is in `SHIPPED_KINDS`, i.e. when its leave-one-split-out figures rose (questions: from the
// fifteenth pass, once held-out-8 and -9 had joined: text 0.776 → 0.802, spoken replay 0.571 → 0.598).
import type { DecisionModel } from './decision-model.ts'
import type { LearnedKind } from './learned-kinds.ts'
import outcome from './outcome-weights.json' with { type: 'json' }
import question from './question-weights.json' with { type: 'json' }

export type OtherLearnedKind = Exclude<LearnedKind, 'decision'>
export const OTHER_LEARNED_KINDS: OtherLearnedKind[] = ['outcome', 'question']

export const shippedKindModels: Record<OtherLearnedKind, DecisionModel> = { outcome: outcome as DecisionModel, question: question as DecisionModel }

/** The kinds whose detector the engine runs by default (the others only when an option names a model). */
export const SHIPPED_KINDS: OtherLearnedKind[] = ['outcome', 'question']
