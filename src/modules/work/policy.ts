// Pure rules of work objects (DESIGN §7): kinds and their family / semantic types, stage moves,
// and who may do what. No I/O here; service.ts applies them inside its transactions.
import type { Membership } from '../../platform/auth/actor.ts'
import { isManager } from '../../platform/auth/policy.ts'
import { SEMANTIC_TYPES, WORK_FAMILIES, WORK_STAGES, WORK_TAXONOMY, type WorkKind, type WorkStage } from '../../domain/vocabulary.ts'

/** Each kind's family and its semantic types; the first semantic type is the default. */
export const KIND_SEMANTICS = WORK_TAXONOMY
export const FAMILIES = WORK_FAMILIES
export { SEMANTIC_TYPES }

/** The family and semantic type of a kind, defaults filled in; a mismatch names its field. */
export function resolveSemantics(kind: WorkKind, family?: string, semanticType?: string):
  { family: string; semanticType: string } | { error: 'family' | 'semanticType' } {
  const entry: { family: string; semanticTypes: readonly string[] } = KIND_SEMANTICS[kind]
  if (family !== undefined && family !== entry.family) return { error: 'family' }
  if (semanticType !== undefined && !entry.semanticTypes.includes(semanticType)) return { error: 'semanticType' }
  return { family: entry.family, semanticType: semanticType ?? entry.semanticTypes[0]! }
}

export const STAGES: readonly WorkStage[] = WORK_STAGES

/** One step forward or any number back; staying put is no move. */
export function canMoveStage(from: WorkStage, to: WorkStage): boolean {
  const step = STAGES.indexOf(to) - STAGES.indexOf(from)
  return step === 1 || step < 0
}

type Person = { accountId: string; membership: Membership }

export const isOwnerOrManager = (person: Person, object: { owner_account_id: string | null }): boolean =>
  isManager(person.membership) || (object.owner_account_id !== null && object.owner_account_id === person.accountId)

/** Designating a reviewer: anyone with edit permission claims; the object's owner or a manager assigns. */
export const mayAssignReviewer = isOwnerOrManager

/** Releasing a reviewer: the reviewer themselves, the object's owner or a manager. */
export const mayReleaseReviewer = (person: Person, object: { owner_account_id: string | null }, reviewerId: string | null): boolean =>
  reviewerId === person.accountId || isOwnerOrManager(person, object)

/** Deciding a review: the assigned reviewer or a manager. */
export const mayDecideReview = (person: Person, reviewerId: string | null): boolean =>
  isManager(person.membership) || (reviewerId !== null && reviewerId === person.accountId)
