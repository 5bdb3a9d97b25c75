// Recommended actions, drafted from work objects (nothing leaves Confer here): an action item → an
// issue in the project's tracker; a decision → a message to the project's channel (a signed
// webhook); a dated follow-up → a calendar event (once a calendar connector exists); an action item
// about sending or telling someone something → an email (email-draft.ts). Each cites its work
// object and the object's source segments. A work object's project is its targetProjectId, else its
// session's project (as the project's work lists it: work/project-work.ts); the connection is the
// project's first one that may run the action.
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, notFound } from '../../platform/http/errors.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { findSessionBriefs } from '../sessions/index.ts'
import { announceWorkSetChange, readWorkObject, readWorkSet, type WorkObject } from '../work/index.ts'
import { listMembers } from '../workspace/index.ts'
import { emailInput, isMessageItem, type Addressee } from './email-draft.ts'
import { allowsAction } from './access.ts'
import type { Caller } from './connections.ts'
import { actionOf } from './connectors/index.ts'
import { presentRecommendation } from './presenter.ts'
import * as repo from './repo.ts'

type Draft = { actionId: string; connectionId: string; projectId: string; title: string; input: Record<string, unknown>; reason: string }

/** Which catalog actions suit a work object, best first, with why. Pure. */
export function suitableActions(object: WorkObject): { actionIds: string[]; reason: string }[] {
  const wanted: { actionIds: string[]; reason: string }[] = []
  if (object.kind === 'action') {
    wanted.push({ actionIds: ['github.create_issue', 'linear.create_issue'], reason: 'An action item becomes an issue in the project\'s tracker.' })
    if (object.dueDate) wanted.push({ actionIds: ['caldav.create_event'], reason: `A follow-up dated ${object.dueDate} becomes a calendar event.` })
    if (isMessageItem(object)) wanted.push({ actionIds: ['email.send'], reason: 'An action item about sending or telling someone something becomes an email to them.' })
  }
  if (object.kind === 'decision') {
    wanted.push({ actionIds: ['slack.post_message', 'webhook.send'], reason: 'A decision is announced in the project\'s channel.' })
  }
  return wanted
}

function citation(object: WorkObject) {
  const sources = object.sourceSegmentIds.length > 0 ? ` Sources: ${object.sourceSegmentIds.join(', ')}.` : ''
  return `From Confer work object ${object.id} (${object.kind}).${sources}`
}

function inputFor(actionId: string, object: WorkObject, connection: repo.ConnectionRow, members: Addressee[]): Record<string, unknown> | undefined {
  if (actionId === 'email.send') return emailInput(object, members, citation(object))
  const settings = JSON.parse(connection.settings) as Record<string, unknown>
  if (actionId === 'github.create_issue') {
    const [owner, repoName] = typeof settings.repository === 'string' ? settings.repository.split('/') : []
    if (!owner || !repoName) return undefined
    const lines = [object.summary, object.dueDate ? `Due: ${object.dueDate}` : undefined, citation(object)].filter(Boolean)
    return { owner, repo: repoName, title: object.title.slice(0, 256), body: lines.join('\n\n') }
  }
  if (actionId === 'linear.create_issue') {
    if (typeof settings.teamId !== 'string') return undefined
    return {
      teamId: settings.teamId, title: object.title.slice(0, 255), description: [object.summary, citation(object)].filter(Boolean).join('\n\n'),
      ...(object.dueDate ? { dueDate: object.dueDate } : {}),
    }
  }
  if (actionId === 'caldav.create_event' && object.dueDate) {
    return { summary: object.title.slice(0, 300), start: object.dueDate, description: [object.summary, citation(object)].filter(Boolean).join('\n\n') }
  }
  if (actionId === 'slack.post_message') {
    if (typeof settings.channel !== 'string') return undefined
    return { channel: settings.channel, text: [`Decision: ${object.title}`, object.summary, citation(object)].filter(Boolean).join('\n') }
  }
  if (actionId === 'webhook.send') {
    return {
      type: `confer.${object.kind}`,
      data: { workObjectId: object.id, workSetId: object.workSetId, title: object.title, summary: object.summary ?? '', sourceSegmentIds: object.sourceSegmentIds },
    }
  }
  return undefined
}

/** The project a work object's actions go to: its targetProjectId, else the project its meeting was recorded in. */
async function projectOf(deps: AppDeps, workspaceId: string, object: WorkObject): Promise<string | undefined> {
  if (object.targetProjectId) return object.targetProjectId
  if (!object.sessionId) return undefined
  const [session] = await findSessionBriefs(deps.database.db, workspaceId, [object.sessionId])
  return session?.projectId ?? undefined
}

async function draftsFor(deps: AppDeps, workspaceId: string, object: WorkObject): Promise<Draft[]> {
  if (object.proposal?.state === 'pending' || object.proposal?.state === 'rejected') return []
  const projectId = await projectOf(deps, workspaceId, object)
  if (!projectId) return []
  const { db } = deps.database
  const access = await repo.findAccess(db, projectId)
  if (!access) return []
  const connections = (await repo.listConnections(db, workspaceId, JSON.parse(access.connection_ids) as string[]))
    .filter((row) => row.status === 'active').sort((a, b) => a.id.localeCompare(b.id))
  const wants = suitableActions(object)
  // Recipients of an email are looked up among the workspace's members only when one is drafted.
  const members: Addressee[] = wants.some((want) => want.actionIds.includes('email.send'))
    ? (await listMembers(db, workspaceId)).map((member) => ({ name: member.name, email: member.email }))
    : []
  const drafts: Draft[] = []
  for (const want of wants) {
    for (const actionId of want.actionIds) {
      if (!actionOf(actionId)) continue
      const connection = connections.find((row) => allowsAction(access, row, actionId))
      const input = connection && inputFor(actionId, object, connection, members)
      if (!connection || !input) continue
      drafts.push({ actionId, connectionId: connection.id, projectId, title: `${actionOf(actionId)!.action.title}: ${object.title}`.slice(0, 300), input, reason: want.reason })
      break
    }
  }
  return drafts
}

/**
 * Drafts (and with `update`, redrafts) the recommendations of these objects; open ones whose object
 * no longer suits them become stale. With `update`, a prepared recommendation whose action has not
 * run yet (prepared or approved) and whose draft changed is redrafted too: the action is marked
 * `superseded` (its approval voided, execute refuses it) and the recommendation is open again with
 * the new draft; one that no longer fits goes stale the same way. An action already executing or
 * done keeps its recommendation as it was. Announces the change on the set. Answers the set's list.
 */
async function reconcileRecommendations(deps: AppDeps, workspaceId: string, workSetId: string, objects: WorkObject[], update: boolean) {
  const { db } = deps.database
  const planned = await Promise.all(objects.map(async (object) => ({ object, drafts: await draftsFor(deps, workspaceId, object) })))
  let drafted = 0
  let updated = 0
  const superseded: string[] = []
  await db.transaction().execute(async (trx) => {
    /** a prepared recommendation may be redrafted only once its pending actions are superseded */
    const release = async (row: repo.RecommendationRow, now: string) => {
      if (row.state !== 'prepared') return row.state === 'open' || row.state === 'stale'
      const pending = await repo.listPendingActionsOf(trx, row.id)
      if (pending.length === 0) return false
      await repo.supersedeActions(trx, pending.map((action) => action.id), now)
      superseded.push(...pending.map((action) => action.id))
      return true
    }
    for (const { object, drafts } of planned) {
      const existing = await repo.listObjectRecommendations(trx, object.id)
      const now = nowIso()
      for (const draft of drafts) {
        const same = existing.find((row) => row.action_id === draft.actionId)
        const values = {
          work_object_revision_hash: object.revisionHash, project_id: draft.projectId, connection_id: draft.connectionId,
          title: draft.title, input: JSON.stringify(draft.input), source_segment_ids: JSON.stringify(object.sourceSegmentIds), reason: draft.reason,
        }
        if (!same) {
          await repo.insertRecommendation(trx, { id: newId('rec'), workspace_id: workspaceId, work_set_id: workSetId, work_object_id: object.id, action_id: draft.actionId, state: 'open', created_at: now, updated_at: now, ...values })
          drafted += 1
          continue
        }
        const changed = same.state === 'stale' || (Object.keys(values) as (keyof typeof values)[]).some((key) => same[key] !== values[key])
        if (update && changed && same.state !== 'dismissed' && await release(same, now)) {
          await repo.updateRecommendation(trx, same.id, { ...values, state: 'open', updated_at: now })
          updated += 1
        }
      }
      if (update) {
        for (const row of existing.filter((candidate) => (candidate.state === 'open' || candidate.state === 'prepared') && !drafts.some((draft) => draft.actionId === candidate.action_id))) {
          if (!await release(row, now)) continue
          await repo.updateRecommendation(trx, row.id, { state: 'stale', updated_at: now })
          updated += 1
        }
      }
    }
    if (drafted + updated > 0) {
      await announceWorkSetChange(deps, trx, workSetId, 'action.recommendations_updated', { workSetId, drafted, updated, ...(superseded.length > 0 ? { supersededActionIds: superseded } : {}) })
    }
  })
  const ids = new Set(objects.map((object) => object.id))
  const rows = (await repo.listSetRecommendations(db, workSetId)).filter((row) => ids.has(row.work_object_id))
  return { recommendations: rows.map(presentRecommendation), drafted, updated }
}

/**
 * The `integrations.redraft` job: a work object with recommendations changed (the work module told
 * deps.ports.workObjectChanged in the transaction of the change). Its recommendations are redrafted
 * from the object as it is now; nothing leaves Confer.
 */
export async function redraftObjectRecommendations(deps: AppDeps, workspaceId: string, workObjectId: string) {
  const object = await readWorkObject(deps, workspaceId, workObjectId)
  if (!object) return
  await reconcileRecommendations(deps, workspaceId, object.workSetId, [object], true)
}

export async function refreshObjectRecommendations(deps: AppDeps, caller: Caller, workObjectId: string, expectedRevisionHash?: string) {
  const workspaceId = caller.membership.workspaceId
  const object = await readWorkObject(deps, workspaceId, workObjectId) ?? notFound('work object', workObjectId)
  if (expectedRevisionHash !== undefined && expectedRevisionHash !== object.revisionHash) {
    throw new AppError('stale_revision', 'The work object changed since expectedRevisionHash.', { extra: { revisionHash: object.revisionHash, revisionId: object.revisionId } })
  }
  return reconcileRecommendations(deps, workspaceId, object.workSetId, [object], true)
}

export async function draftSetRecommendations(deps: AppDeps, caller: Caller, workSetId: string, update: boolean) {
  const workspaceId = caller.membership.workspaceId
  const set = await readWorkSet(deps, workspaceId, workSetId) ?? notFound('work set', workSetId)
  return reconcileRecommendations(deps, workspaceId, set.id, set.workObjects, update)
}

export async function findRecommendationOf(deps: AppDeps, caller: Caller, recommendationId: string) {
  return await repo.findRecommendation(deps.database.db, caller.membership.workspaceId, recommendationId) ?? notFound('recommendation', recommendationId)
}
