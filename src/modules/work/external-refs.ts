// Receipts on the work object: when an external action executed for a work object succeeds, the
// integrations module (which owns executions) calls recordExternalReceipt in the transaction that
// records the outcome. The object's `externalRefs` gains the created item's id and URL, its activity
// an `external.created` entry, and the change is announced like any other (`workobject.external`).
import type { AppDeps } from '../../platform/deps.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import type { ExternalRef } from './presenter.ts'
import { nextTimestamp, recordChange } from './record.ts'
import * as repo from './repo.ts'

export async function recordExternalReceipt(deps: AppDeps, trx: Executor, input: { workspaceId: string; workObjectId: string; actorId: string | null; ref: ExternalRef }) {
  const object = await repo.lockObject(trx, deps.database.dialect, input.workObjectId, input.workspaceId)
  if (!object) return undefined
  const refs = JSON.parse(object.external_refs || '[]') as ExternalRef[]
  // One receipt per execution: an outcome recorded twice does not list it twice.
  if (refs.some((ref) => ref.executionId === input.ref.executionId)) return object
  const updated = await repo.updateObject(trx, object.id, {
    external_refs: JSON.stringify([...refs, input.ref]), updated_at: nextTimestamp(object.updated_at),
  })
  await recordChange(deps, trx, {
    object: updated, actorId: input.actorId, event: 'workobject.external', data: { externalRef: input.ref },
    activity: [{ verb: 'external.created', field: 'externalRefs', newValue: input.ref.url ?? input.ref.externalId, note: `${input.ref.provider} ${input.ref.externalId} (execution ${input.ref.executionId})` }],
  })
  return updated
}
