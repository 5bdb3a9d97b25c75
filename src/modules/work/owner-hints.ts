// A session speaker named by a person ("Speaker 2" → "Dana Li"): the work of that session whose
// suggested owner was the speaker's old label (or its bare id, as extraction writes a speaker the
// session had no label for) now suggests the new name (the voice module calls
// this in the transaction that renames the speaker). Each change is recorded like any other.
import type { AppDeps } from '../../platform/deps.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { nextTimestamp, recordChange } from './record.ts'
import * as repo from './repo.ts'

export async function renameSuggestedOwner(deps: AppDeps, trx: Executor, input: { workspaceId: string; sessionId: string; from: string[]; to: string; actorId: string | null }) {
  const from = [...new Set(input.from)].filter((label) => label !== input.to)
  if (from.length === 0) return 0
  const rows = await trx.selectFrom('work_objects').select(['id', 'owner_hint']).where('workspace_id', '=', input.workspaceId)
    .where('session_id', '=', input.sessionId).where('owner_hint', 'in', from).orderBy('id').execute()
  for (const { id, owner_hint: old } of rows) {
    const current = (await repo.findObject(trx, input.workspaceId, id))!
    const updated = await repo.updateObject(trx, id, { owner_hint: input.to, updated_at: nextTimestamp(current.updated_at) })
    await recordChange(deps, trx, {
      object: updated, actorId: input.actorId, event: 'workobject.updated',
      activity: [{ verb: 'edited', field: 'suggestedOwnerName', oldValue: old, newValue: input.to }],
    })
  }
  return rows.length
}
