// The takeover summary: what someone taking the meeting's work over must know, derived after the
// meeting from the work set as it stands at one revision (pinned: `workSetRevision`). A summary is
// never rewritten — deriving again stores a new one and supersedes the old — and it never changes
// the work objects it lists. `extractive` assembles it from the objects; with a chat model
// (`grounded-ai`) the model also writes a brief whose every point cites the objects it rests on;
// if the model fails or cites anything else the derivation is `failed` (shown, with a retry).
import type { Selectable } from 'kysely'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import type { TakeoverSummaryTable } from '../../platform/db/tables.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { LlmError, workModel, type ChatClient } from '../../platform/llm/chat.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { announce, listSetClarifications } from './followups.ts'
import * as repo from './repo.ts'
import { blocksOf, briefPrompt, headlineOf, languageOf, type Block, type Brief } from './takeover-blocks.ts'

export type TakeoverRow = Selectable<TakeoverSummaryTable>
export type TakeoverContent = { headline: string; brief?: Brief; blocks: Block[] }

/** An action item that counts: not a rejected or withdrawn proposal (listSetObjects leaves those out). */
export const isRealAction = (object: Pick<repo.WorkObjectRow, 'kind' | 'proposal_state'>) =>
  object.kind === 'action' && object.proposal_state !== 'rejected' && object.proposal_state !== 'superseded'

export function presentTakeover(row: TakeoverRow) {
  const content = JSON.parse(row.content ?? '{"headline":"","blocks":[]}') as TakeoverContent
  return {
    id: row.id, workSetId: row.work_set_id, workSetRevision: Number(row.work_set_revision), generatedBy: row.generated_by,
    actionItems: Number(row.action_items), ...content, createdAt: row.created_at,
  }
}
export type TakeoverSummary = ReturnType<typeof presentTakeover>

export const presentFailure = (row: TakeoverRow) => ({ code: 'takeover_failed', detail: row.error ?? 'The takeover summary could not be derived.', at: row.created_at })

/** The latest summary of the set that nothing superseded. */
export const latestTakeover = (db: Executor, workSetId: string) =>
  db.selectFrom('takeover_summaries').selectAll().where('work_set_id', '=', workSetId).where('superseded_by', 'is', null)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst()

const Answer = Type.Object({
  headline: Type.String({ minLength: 1, maxLength: 300 }),
  points: Type.Array(Type.Object({ text: Type.String({ minLength: 1, maxLength: 1000 }), workObjectIds: Type.Array(Type.String()) }, { additionalProperties: false }), { maxItems: 30 }),
}, { additionalProperties: false })

/** The model's brief, checked: every point cites at least one listed object and nothing else. */
async function groundedBrief(model: ChatClient, blocks: Block[], language: 'en' | 'zh'): Promise<{ headline: string; brief: Brief }> {
  const answer = await model.json(briefPrompt(blocks, language), Answer, 'takeover_summary')
  const listed = new Set(blocks.flatMap((block) => block.items.map((item) => item.workObjectId).filter(Boolean)))
  if (answer.points.length === 0 || answer.points.some((point) => point.workObjectIds.length === 0 || point.workObjectIds.some((id) => !listed.has(id)))) {
    throw new LlmError('the model cited work objects that are not in the work set')
  }
  return { headline: answer.headline, brief: { points: answer.points } }
}

/**
 * Derives the session's takeover summary at the set's current revision and stores it (superseding
 * the previous one). Answers the stored row; undefined when the session has no work set yet.
 */
export async function deriveTakeover(deps: AppDeps, sessionId: string): Promise<TakeoverRow | undefined> {
  const { db } = deps.database
  // One snapshot: the set's revision and the objects it counts (a writer bumps the set last, so
  // with the set's row locked no newer object state is half-visible to this read).
  const read = await db.transaction().execute(async (trx) => {
    const set = await repo.lockWorkSetOfSession(trx, deps.database.dialect, sessionId)
    if (!set) return undefined
    const [objects, clarifications] = await Promise.all([repo.listSetObjects(trx, set.id), listSetClarifications(trx, set.id)])
    const names = await repo.accountNames(trx, objects.map((object) => object.owner_account_id).filter((id): id is string => id !== null))
    return { set, objects, clarifications, names }
  })
  if (!read) return undefined
  const { set, objects } = read
  const actionItems = objects.filter(isRealAction).length
  const language = languageOf(objects.map((object) => object.title))
  const blocks = blocksOf(read, language)
  let state: TakeoverRow['state'] = actionItems === 0 ? 'empty' : 'ready'
  let content: TakeoverContent | null = state === 'ready' ? { headline: headlineOf(blocks, language), blocks } : null
  let error: string | null = null
  const model = workModel(deps)
  const generatedBy = model ? 'grounded-ai' as const : 'extractive' as const
  if (state === 'ready' && model) {
    try {
      content = { ...(await groundedBrief(model, blocks, language)), blocks }
    } catch (failure) {
      if (!(failure instanceof LlmError)) throw failure
      state = 'failed'
      content = null
      error = `The chat model could not write the takeover summary: ${failure.message}`.slice(0, 500)
    }
  }
  const row: TakeoverRow = {
    id: newId('tko'), work_set_id: set.id, work_set_revision: set.revision, state, generated_by: generatedBy, action_items: actionItems,
    content: content ? JSON.stringify(content) : null, error, superseded_by: null, created_at: nowIso(),
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('takeover_summaries').values(row).execute()
    await trx.updateTable('takeover_summaries').set({ superseded_by: row.id })
      .where('work_set_id', '=', set.id).where('superseded_by', 'is', null).where('id', '!=', row.id).execute()
    await trx.updateTable('work_sets').set({ takeover_state: state }).where('id', '=', set.id).execute()
    await announce(deps, trx, set, 'workset.takeover', takeoverEventData(row))
  })
  return row
}

export function takeoverEventData(row: TakeoverRow) {
  return {
    workSetId: row.work_set_id, takeoverState: row.state,
    ...(row.state === 'ready' ? { takeoverSummary: presentTakeover(row) } : {}),
    ...(row.state === 'failed' ? { takeoverFailure: presentFailure(row) } : {}),
  }
}

/**
 * What a reader sees of the takeover: `failed` (with the failure) when the latest derivation
 * failed; `pending` while the meeting records or processes and nothing is derived yet; `empty`
 * when the set has no real action items now (the latest summary is then omitted); else `ready`.
 */
export function takeoverView(set: Pick<repo.WorkSetRow, 'session_state'>, latest: TakeoverRow | undefined, realActions: number) {
  if (latest?.state === 'failed') return { takeoverState: 'failed' as const, takeoverFailure: presentFailure(latest) }
  if (!latest) return { takeoverState: set.session_state === 'recording' || set.session_state === 'processing' ? 'pending' as const : 'empty' as const }
  if (realActions === 0 || latest.state !== 'ready') return { takeoverState: 'empty' as const }
  return { takeoverState: 'ready' as const, takeoverSummary: presentTakeover(latest) }
}

/** takeoverView from the state the set stores (its latest derivation's), for lists of sets. */
export function listedTakeoverState(set: repo.WorkSetRow, realActions: number) {
  const stored = set.takeover_state
  const latest = stored === null || stored === 'pending' ? undefined : { state: stored } as TakeoverRow
  return takeoverView(set, latest, realActions).takeoverState
}
