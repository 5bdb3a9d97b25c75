// PATCH /v1/sessions/{id}/workset: a person settles a clarify item, confirms or rejects a relation,
// or derives the takeover summary again; the answer is the takeover summary. An idempotencyKey
// (scoped to the work set) is claimed in the same transaction as a database-only action, so a
// repeated key — also two at once — replays the first answer and never applies twice. Deriving the
// takeover may call a chat model, so its key is claimed first (`in-flight`) and completed after.
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, notFound } from '../../platform/http/errors.ts'
import { nowIso, sha256Hex } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { findSessionRow, type SessionRow } from '../sessions/index.ts'
import type { WorkSetPatchInput } from './followup-schemas.ts'
import { resolveClarification } from './clarify.ts'
import { presentClarification, presentRelation, type Clarification, type Relation } from './followups.ts'
import { decideRelation } from './relations.ts'
import * as repo from './repo.ts'
import { ensureWorkSet, type Caller } from './service.ts'
import { deriveTakeover, isRealAction, latestTakeover, takeoverView, type TakeoverSummary } from './takeover.ts'
import type { TakeoverState } from '../../platform/db/tables.ts'

type Applied = { clarification?: Clarification; relation?: Relation }

export type WorkSetAnswer = {
  workSetId: string; sessionId: string; revision: number; takeoverState: TakeoverState
  takeoverSummary?: TakeoverSummary; takeoverFailure?: { code: string; detail: string; at: string }
  retry?: { action: 'takeover.retry' }; replayed: boolean
} & Applied

async function answerOf(deps: AppDeps, db: Executor, session: SessionRow, applied: Applied): Promise<Omit<WorkSetAnswer, 'replayed'>> {
  const set = (await repo.findWorkSetOfSession(db, session.id))!
  const [latest, objects] = await Promise.all([latestTakeover(db, set.id), repo.listSetObjects(db, set.id)])
  const view = takeoverView(set, latest, objects.filter(isRealAction).length)
  return {
    workSetId: set.id, sessionId: session.id, revision: set.revision, ...view,
    ...(view.takeoverState === 'failed' ? { retry: { action: 'takeover.retry' as const } } : {}),
    ...applied,
  }
}

/** Claims the key; answers the stored answer when it was claimed before (422 for another body, 409 while in flight). */
async function claimKey(trx: Executor, setId: string, input: WorkSetPatchInput, actorId: string, state: 'in-flight' | 'completed') {
  const key = input.idempotencyKey!
  const fingerprint = sha256Hex(JSON.stringify(input))
  const claimed = await trx.insertInto('workset_actions').values({
    work_set_id: setId, idempotency_key: key, action: input.action, fingerprint, state, response: null,
    actor_account_id: actorId, created_at: nowIso(), completed_at: null,
  }).onConflict((oc) => oc.columns(['work_set_id', 'idempotency_key']).doNothing()).executeTakeFirst()
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 1) return undefined
  const stored = await trx.selectFrom('workset_actions').selectAll().where('work_set_id', '=', setId).where('idempotency_key', '=', key).executeTakeFirstOrThrow()
  if (stored.fingerprint !== fingerprint) throw new AppError('idempotency_key_reused', 'This idempotencyKey was used with another action on this work set.')
  if (stored.state === 'in-flight' || stored.response === null) {
    throw new AppError('idempotency_in_flight', 'An action with this idempotencyKey is still running; retry shortly.', { headers: { 'Retry-After': '1' } })
  }
  return { ...JSON.parse(stored.response) as Omit<WorkSetAnswer, 'replayed'>, replayed: true }
}

const completeKey = (trx: Executor, setId: string, key: string, answer: unknown) =>
  trx.updateTable('workset_actions').set({ state: 'completed', response: JSON.stringify(answer), completed_at: nowIso() })
    .where('work_set_id', '=', setId).where('idempotency_key', '=', key).execute()

export async function patchWorkSet(deps: AppDeps, caller: Caller, sessionId: string, input: WorkSetPatchInput): Promise<WorkSetAnswer> {
  const { db } = deps.database
  const session = await findSessionRow(db, caller.membership.workspaceId, sessionId) ?? notFound('session', sessionId)
  if (input.action === 'takeover.retry' || input.action === 'takeover.refresh') return rederive(deps, caller, session, input)
  // (the compiler does not narrow this union by its literal unions)
  const action = input as Exclude<WorkSetPatchInput, { action: 'takeover.retry' | 'takeover.refresh' }>
  return db.transaction().execute(async (trx) => {
    const set = await repo.findWorkSetOfSession(trx, session.id)
    if (!set) return notFound(action.action === 'clarify.resolve' ? 'clarify item' : 'relation', action.action === 'clarify.resolve' ? action.clarifyId : action.relationId)
    if (action.idempotencyKey !== undefined) {
      const replay = await claimKey(trx, set.id, action, caller.actor.accountId, 'completed')
      if (replay) return replay
    }
    const applied: Applied = action.action === 'clarify.resolve'
      ? { clarification: presentClarification(await resolveClarification(deps, trx, caller, set, action)) }
      : { relation: presentRelation(await decideRelation(deps, trx, caller, set, action)) }
    const answer = await answerOf(deps, trx, session, applied)
    if (action.idempotencyKey !== undefined) await completeKey(trx, set.id, action.idempotencyKey, answer)
    return { ...answer, replayed: false }
  })
}

/** takeover.retry / takeover.refresh: derive the summary again at the set's current revision. */
async function rederive(deps: AppDeps, caller: Caller, session: SessionRow, input: WorkSetPatchInput & { idempotencyKey: string }) {
  if (session.state === 'recording' || session.state === 'processing') {
    throw new AppError('transition_not_allowed', 'The takeover summary is derived after the meeting; this session is still ' + session.state + '.', {
      extra: { sessionState: session.state, reason: 'meeting_in_progress' },
    })
  }
  const { db } = deps.database
  const claimed = await db.transaction().execute(async (trx) => {
    const set = await ensureWorkSet(trx, session)
    return { set, replay: await claimKey(trx, set.id, input, caller.actor.accountId, 'in-flight') }
  })
  if (claimed.replay) return claimed.replay
  try {
    await deriveTakeover(deps, session.id)
    const answer = await answerOf(deps, db, session, {})
    await completeKey(db, claimed.set.id, input.idempotencyKey, answer)
    return { ...answer, replayed: false }
  } catch (error) {
    // A failed attempt must not pin the key: the client may retry it.
    await db.deleteFrom('workset_actions').where('work_set_id', '=', claimed.set.id).where('idempotency_key', '=', input.idempotencyKey).execute()
    throw error
  }
}
