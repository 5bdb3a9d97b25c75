// AI proposals: the extraction engine never changes work directly. It proposes new objects
// (`createProposal`) and new revisions of existing ones (`proposeRevision`); a person accepts or
// rejects each (`decideProposal`, PATCH …/proposal, guarded by expectedRevisionId).
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, notFound } from '../../platform/http/errors.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import type { WorkKind } from '../../platform/db/tables.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { findSessionById, findSessionRow } from '../sessions/index.ts'
import { contentHash, normalizeContent } from './content.ts'
import { resolveSemantics } from './policy.ts'
import * as present from './presenter.ts'
import { nextTimestamp, recordChange } from './record.ts'
import * as repo from './repo.ts'
import type { ProposalDecisionInput } from './schemas.ts'
import { checkSegments, insertNewObject, lockObjectOf, staleRevision, type Caller } from './service.ts'

const inTransaction = <T>(deps: AppDeps, executor: Executor, run: (trx: Executor) => Promise<T>) =>
  executor.isTransaction ? run(executor) : deps.database.db.transaction().execute(run)

export type ProposalInput = {
  sessionId: string
  kind: WorkKind
  title: string
  summary?: string | null
  sourceSegmentIds: string[]
  confidence: number
  family?: string
  semanticType?: string
  nextStep?: string
  /** who takes it and by when, as the engine heard them */
  ownerHint?: string
  /** the member the engine matched that name to */
  ownerHintAccountId?: string
  dueDate?: string
}

/**
 * Creates an AI-made work object as a pending proposal (origin `ai`, stage `captured`, nobody
 * responsible) in `executor` (pass a transaction to commit it with other work). Source segments
 * must be of the session; a family / semantic type that does not fit the kind is refused.
 */
export async function createProposal(deps: AppDeps, executor: Executor, input: ProposalInput) {
  const semantics = resolveSemantics(input.kind, input.family, input.semanticType)
  if ('error' in semantics) throw new AppError('validation_failed', `${semantics.error} does not belong to kind ${input.kind}`)
  return inTransaction(deps, executor, async (trx) => {
    const session = await findSessionById(trx, input.sessionId)
    const row = session && await findSessionRow(trx, session.workspace_id, input.sessionId)
    if (!row) return notFound('session', input.sessionId)
    const sourceSegmentIds = await checkSegments(trx, row.id, input.sourceSegmentIds)
    const object = await insertNewObject(deps, trx, row, {
      kind: input.kind, family: semantics.family, semanticType: semantics.semanticType,
      content: normalizeContent({ title: input.title, summary: input.summary ?? null }), sourceSegmentIds,
      nextStep: input.nextStep ?? null, targetProjectId: null, origin: 'ai', confidence: input.confidence, createdBy: null,
      ownerHint: input.ownerHint ?? null, ownerHintAccountId: input.ownerHintAccountId ?? null, dueDate: input.dueDate ?? null,
    })
    return present.presentWorkObject(object)
  })
}

/**
 * Proposes an AI-made revision of an existing work object: it waits beside the current revision
 * (WorkObject.proposal) until a person accepts or rejects it. A newer proposal supersedes an older
 * pending one. Content equal to the current revision proposes nothing (answers undefined).
 */
export async function proposeRevision(deps: AppDeps, executor: Executor, input: {
  workObjectId: string; title: string; summary?: string | null; confidence: number
}) {
  const content = normalizeContent({ title: input.title, summary: input.summary ?? null })
  const hash = contentHash(content)
  return inTransaction(deps, executor, async (trx) => {
    const current = await repo.lockObject(trx, deps.database.dialect, input.workObjectId) ?? notFound('work object', input.workObjectId)
    if (current.proposal_state === 'pending' || current.proposal_state === 'rejected') {
      throw new AppError('proposal_pending', 'The work object itself is still a proposal (or was rejected); it takes no revision proposals.')
    }
    if (hash === current.revision_hash) return undefined
    if (current.pending_revision_id !== null) await repo.setRevisionProposalState(trx, current.pending_revision_id, 'superseded')
    const revision: repo.RevisionRow = {
      id: newId('rev'), work_object_id: current.id, work_set_id: current.work_set_id, number: await repo.nextRevisionNumber(trx, current.id),
      hash, title: content.title, summary: content.summary, author_kind: 'ai', author_account_id: null,
      base_revision_id: current.current_revision_id, proposal_state: 'pending', confidence: input.confidence, created_at: nowIso(),
    }
    await repo.insertRevision(trx, revision)
    const updated = await repo.updateObject(trx, current.id, { pending_revision_id: revision.id, updated_at: nextTimestamp(current.updated_at) })
    await recordChange(deps, trx, {
      object: updated, actorId: null, event: 'workobject.proposal', data: { revision: present.presentRevision(revision) },
      activity: [{ verb: 'proposed', field: 'revision', newValue: revision.id }],
      notify: [{ accountId: updated.owner_account_id, kind: 'workobject.proposal', data: { revisionId: revision.id } }],
    })
    return { workObject: present.presentWorkObject(updated), revision: present.presentRevision(revision) }
  })
}

/**
 * Withdraws an AI-made object that is still a pending proposal (nobody accepted, edited or
 * decided it): the extraction rebuild does this when a stricter quality gate hides its item.
 * Answers false, changing nothing, when a person has touched it.
 */
export async function withdrawProposal(deps: AppDeps, trx: Executor, workObjectId: string, note: string) {
  const current = await repo.lockObject(trx, deps.database.dialect, workObjectId)
  if (!current || current.proposal_state !== 'pending' || current.origin !== 'ai') return false
  await repo.setRevisionProposalState(trx, current.current_revision_id, 'rejected')
  const updated = await repo.updateObject(trx, current.id, { proposal_state: 'rejected', updated_at: nextTimestamp(current.updated_at) })
  await recordChange(deps, trx, {
    object: updated, actorId: null, event: 'workobject.proposal', data: { decision: { workObjectId: current.id, revisionId: current.current_revision_id, decision: 'reject', note } },
    activity: [{ verb: 'withdrawn', field: 'proposal', newValue: current.current_revision_id, note }],
    notify: [],
  })
  return true
}

export async function decideProposal(deps: AppDeps, caller: Caller, workObjectId: string, input: ProposalDecisionInput) {
  const me = caller.actor.accountId
  return deps.database.db.transaction().execute(async (trx) => {
    const current = await lockObjectOf(deps, trx, caller, workObjectId)
    const accept = input.decision === 'accept'
    const decidedAt = nowIso()
    let updated: repo.WorkObjectRow
    let revisionId: string
    if (current.proposal_state === 'pending') {
      // The object itself is the proposal: its first revision is what the person saw.
      if (input.expectedRevisionId !== current.current_revision_id) throw staleRevision(current, 'The proposal changed; re-read it and retry.')
      revisionId = current.current_revision_id
      await repo.setRevisionProposalState(trx, revisionId, accept ? 'accepted' : 'rejected')
      updated = await repo.updateObject(trx, current.id, { proposal_state: accept ? 'accepted' : 'rejected', updated_at: nextTimestamp(current.updated_at) })
    } else if (current.pending_revision_id !== null) {
      if (input.expectedRevisionId !== current.pending_revision_id) {
        throw new AppError('stale_revision', 'A newer proposal replaced this one; re-read the work object and retry.', {
          extra: { currentRevisionId: current.current_revision_id, currentRevisionHash: current.revision_hash, pendingRevisionId: current.pending_revision_id },
        })
      }
      const proposed = (await repo.findRevision(trx, current.id, current.pending_revision_id))!
      revisionId = proposed.id
      if (accept && proposed.base_revision_id !== current.current_revision_id) {
        throw staleRevision(current, 'The work object was edited after this proposal was made; reject it or edit the object instead.')
      }
      await repo.setRevisionProposalState(trx, proposed.id, accept ? 'accepted' : 'rejected')
      updated = await repo.updateObject(trx, current.id, {
        pending_revision_id: null, updated_at: nextTimestamp(current.updated_at),
        ...(accept ? {
          title: proposed.title, summary: proposed.summary, current_revision_id: proposed.id, revision_hash: proposed.hash, revision_number: proposed.number,
        } : {}),
      })
    } else {
      throw new AppError('transition_not_allowed', 'Nothing awaits a decision on this work object.', {
        extra: { currentRevisionId: current.current_revision_id, currentRevisionHash: current.revision_hash },
      })
    }
    const decision = {
      workObjectId: current.id, revisionId, decision: input.decision, ...(input.note ? { note: input.note } : {}), decidedById: me, decidedAt,
    }
    await recordChange(deps, trx, {
      object: updated, actorId: me, event: 'workobject.proposal', data: { decision },
      activity: [{ verb: accept ? 'accepted' : 'rejected', field: 'proposal', newValue: revisionId, note: input.note ?? null }],
      notify: [{ accountId: updated.owner_account_id, kind: 'workobject.proposal', data: { decision: input.decision } }],
    })
    return { workObject: present.presentWorkObject(updated), decision }
  })
}
