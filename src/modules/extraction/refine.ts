// Work refinement (issue 7): the extraction engine (engines.ts) over a session's final segments;
// every item it finds is kept (extraction_items, by the engine's stable key), and those at or above the quality
// gate arrive in the work set as proposals a person accepts or rejects. Runs while recording (after
// new final segments) and once more when the session ends, before it is `ready`. A key already
// seen is never proposed again, also when two runs race (the key's row decides). The run's clarify
// items and relations are stored with the work objects they name.
import type { AppDeps } from '../../platform/deps.ts'
import { nowIso } from '../../platform/ids.ts'
import { workModel } from '../../platform/llm/chat.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { finalSegments, listSpeakers } from '../transcripts/index.ts'
import { completeProposalHints, createProposal, deriveTakeover, recordFollowups, setNeedsRebuild, withdrawProposal, type ProposedRelation, type RaisedClarification } from '../work/index.ts'
import { listMembers } from '../workspace/index.ts'
import type { ExtractedItem, ExtractionResult, MeetingParticipant } from './engine/index.ts'
import { runEngine } from './engines.ts'
import { JOBS } from '../../domain/jobs.ts'
import { findSessionById, lockSessionRow } from '../sessions/index.ts'
import { isCapturing } from '../../domain/vocabulary.ts'
import { speakerLabel } from '../../platform/speech/speakers.ts'

export const REFINE_JOB = JOBS.refine

type Counts = { segments_processed: number; items_found: number; items_visible: number }

async function saveRefinement(deps: AppDeps, executor: Executor, session: { id: string; conversation_id: string }, state: 'running' | 'ready' | 'failed', values: Partial<Counts> & { last_error?: string | null; engine?: string }) {
  const now = nowIso()
  const row = {
    session_id: session.id, state, engine: values.engine ?? (workModel(deps) ? 'grounded-ai' : 'extractive'), gate: deps.config.extractionQualityGate,
    segments_processed: values.segments_processed ?? 0, items_found: values.items_found ?? 0, items_visible: values.items_visible ?? 0,
    last_error: values.last_error ?? null, last_run_at: state === 'running' ? null : now, updated_at: now,
  }
  const { session_id: _id, ...changes } = row
  const update = Object.fromEntries(Object.entries(changes).filter(([name]) => state !== 'running' || !['segments_processed', 'items_found', 'items_visible', 'last_run_at'].includes(name)))
  await executor.insertInto('work_refinements').values(row).onConflict((oc) => oc.column('session_id').doUpdateSet(update)).execute()
  const saved = await executor.selectFrom('work_refinements').selectAll().where('session_id', '=', session.id).executeTakeFirstOrThrow()
  await deps.events.append(executor, session.conversation_id, 'refinement.updated', presentRefinement(saved))
}

export function presentRefinement(row: { session_id: string; state: string; engine: string; gate: number; segments_processed: number; items_found: number; items_visible: number; last_error: string | null; last_run_at: string | null; updated_at: string }) {
  return {
    sessionId: row.session_id, state: row.state as 'idle' | 'running' | 'ready' | 'failed', engine: row.engine, qualityGate: Number(row.gate),
    segmentsProcessed: Number(row.segments_processed), itemsFound: Number(row.items_found), itemsVisible: Number(row.items_visible),
    ...(row.last_run_at ? { lastRunAt: row.last_run_at } : {}), ...(row.last_error ? { lastError: row.last_error } : {}), updatedAt: row.updated_at,
  }
}

export async function refineSession(deps: AppDeps, sessionId: string) {
  const { db } = deps.database
  const session = await findSessionById(db, sessionId)
  if (!session) return
  const segments = await finalSegments(db, sessionId)
  if (segments.length === 0) return
  await saveRefinement(deps, db, session, 'running', {})
  try {
    const speakers = new Map((await listSpeakers(db, sessionId)).map((speaker) => [speaker.speaker_id, speaker.label]))
    const run = await runEngine(deps, {
      segments: segments.map((segment) => ({
        id: segment.id, text: segment.text, startMs: segment.start_ms, endMs: segment.end_ms,
        ...(segment.speaker_id ? { speakerId: segment.speaker_id, speakerLabel: speakers.get(segment.speaker_id) ?? speakerLabel(segment.speaker_id) } : {}),
        ...(segment.language ? { language: segment.language } : {}),
        ...(typeof segment.confidence === 'number' ? { confidence: segment.confidence } : {}),
      })),
      participants: await participantsOf(deps, session.workspace_id),
      meetingStartedAt: session.started_at,
    })
    await db.transaction().execute(async (trx) => {
      // A speaker named while the engine ran (voice/naming.ts locks the session row too): its old label becomes the name.
      await lockSessionRow(trx, deps.database.dialect, sessionId)
      const renamed = await renamedSince(trx, sessionId, speakers)
      const items = run.result.items.map((item) => (item.ownerName && renamed.has(item.ownerName) ? { ...item, ownerName: renamed.get(item.ownerName)! } : item))
      await proposeItems(deps, trx, sessionId, items)
      await recordFollowups(deps, trx, sessionId, await followupsOf(trx, sessionId, run.result))
      const counts = await trx.selectFrom('extraction_items').select((eb) => [eb.fn.countAll<number>().as('found'), eb.fn.sum<number>('hidden').as('hidden')])
        .where('session_id', '=', sessionId).executeTakeFirstOrThrow()
      const found = Number(counts.found)
      await saveRefinement(deps, trx, session, 'ready', {
        engine: run.engine, last_error: run.fallbackReason ?? null,
        segments_processed: segments.length, items_found: found, items_visible: found - Number(counts.hidden ?? 0),
      })
    })
  } catch (error) {
    await saveRefinement(deps, db, session, 'failed', { last_error: (error as Error).message.slice(0, 500), segments_processed: segments.length })
    throw error
  }
}

/** Labels the session's speakers had when the engine ran (`before`) and no longer have: old label → current one. */
async function renamedSince(trx: Executor, sessionId: string, before: Map<string, string>): Promise<Map<string, string>> {
  const renamed = new Map<string, string>()
  for (const speaker of await listSpeakers(trx, sessionId)) {
    const old = before.get(speaker.speaker_id) ?? speakerLabel(speaker.speaker_id)
    if (old !== speaker.label) renamed.set(old, speaker.label)
  }
  return renamed
}

/** The workspace's members who can take work, by name: "Priya, can you…" names one of them. */
async function participantsOf(deps: AppDeps, workspaceId: string): Promise<MeetingParticipant[]> {
  const members = await listMembers(deps.database.db, workspaceId)
  return members.filter((member) => member.content_permission === 'edit' && member.name?.trim())
    .map((member) => ({ name: member.name.trim(), accountId: member.account_id }))
}

/** What the engine heard about who and by when, as a proposal carries it. */
const hintsOf = (item: ExtractedItem) => ({
  ...(item.ownerName ? { ownerHint: item.ownerName } : {}), ...(item.ownerAccountId ? { ownerHintAccountId: item.ownerAccountId } : {}),
  ...(item.dueDate ? { dueDate: item.dueDate } : {}),
})

type StoredItem = { item_key: string; kind: string; work_object_id: string | null; payload: string }
const engineOfKey = (key: string) => (key.startsWith('ai:') ? 'grounded-ai' : 'extractive')

/**
 * Stores each item by its key and proposes those at or above the gate. A key already stored was
 * handled by an earlier (or racing) run. An item of one engine citing a segment that an item of
 * the same kind from the other engine already cites is the same work found again (a grounded-ai
 * run that fell back to extractive): it is stored, linked to that work object, and not proposed.
 */
async function proposeItems(deps: AppDeps, trx: Executor, sessionId: string, items: ExtractedItem[]) {
  const gate = deps.config.extractionQualityGate
  const stored: StoredItem[] = await trx.selectFrom('extraction_items').select(['item_key', 'kind', 'work_object_id', 'payload']).where('session_id', '=', sessionId).execute()
  const sameWork = (item: ExtractedItem) => stored.find((row) => row.kind === item.kind && engineOfKey(row.item_key) !== engineOfKey(item.key)
    && (JSON.parse(row.payload) as ExtractedItem).sourceSegmentIds.some((id) => item.sourceSegmentIds.includes(id)))
  for (const item of items) {
    const hidden = item.confidence < gate
    const twin = sameWork(item)
    const claimed = await trx.insertInto('extraction_items').values({
      session_id: sessionId, item_key: item.key, kind: item.kind, confidence: item.confidence, gate, hidden: hidden ? 1 : 0,
      work_object_id: twin?.work_object_id ?? null, payload: JSON.stringify(item), created_at: nowIso(),
    }).onConflict((oc) => oc.columns(['session_id', 'item_key']).doNothing()).executeTakeFirst()
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) {
      // Found again by a later run: a reply after the request may name who takes it and by when.
      const proposed = hidden ? undefined : stored.find((row) => row.item_key === item.key)?.work_object_id
      if (proposed) await completeProposalHints(deps, trx, proposed, { ...hintsOf(item), sourceSegmentIds: item.sourceSegmentIds })
      continue
    }
    if (hidden || twin) continue
    const proposal = await createProposal(deps, trx, {
      sessionId, kind: item.kind, title: item.title, summary: item.summary, sourceSegmentIds: item.sourceSegmentIds,
      confidence: item.confidence, family: item.family, semanticType: item.semanticType,
      ...hintsOf(item),
    })
    await trx.updateTable('extraction_items').set({ work_object_id: proposal.id }).where('session_id', '=', sessionId).where('item_key', '=', item.key).execute()
    stored.push({ item_key: item.key, kind: item.kind, work_object_id: proposal.id, payload: JSON.stringify(item) })
  }
}

/** The run's clarify items and relations whose items all became work objects (hidden items have none). */
async function followupsOf(trx: Executor, sessionId: string, result: ExtractionResult) {
  const rows = await trx.selectFrom('extraction_items').select(['item_key', 'work_object_id']).where('session_id', '=', sessionId).execute()
  const objectOf = new Map(rows.filter((row) => row.work_object_id !== null).map((row) => [row.item_key, row.work_object_id!]))
  const clarifications: RaisedClarification[] = result.clarifications.flatMap((clarification) => {
    const ids = clarification.itemKeys.map((key) => objectOf.get(key))
    if (ids.some((id) => id === undefined)) return []
    return [{ key: clarification.key, kind: clarification.kind, question: clarification.question, workObjectIds: [...new Set(ids as string[])], sourceSegmentIds: clarification.sourceSegmentIds }]
  })
  const relations: ProposedRelation[] = result.relations.flatMap((relation) => {
    const [from, to] = [objectOf.get(relation.fromKey), objectOf.get(relation.toKey)]
    return from && to && from !== to ? [{ key: relation.key, type: relation.type, fromObjectId: from, toObjectId: to, confidence: relation.confidence }] : []
  })
  return { clarifications, relations }
}

/**
 * Rebuilds a session's work from its preserved transcript under the quality gate in force now:
 * items hidden by an older, stricter gate are proposed; proposals a stricter gate now hides are
 * withdrawn if nobody has touched them (accepted, edited or decided work is never changed); then
 * the transcript is refined again for anything new. Clears the work set's `needsRebuild`.
 */
export async function rebuildWorkSet(deps: AppDeps, sessionId: string) {
  const { db } = deps.database
  const gate = deps.config.extractionQualityGate
  let proposed = 0
  let withdrawn = 0
  await db.transaction().execute(async (trx) => {
    const stale = await trx.selectFrom('extraction_items').selectAll().where('session_id', '=', sessionId).where('gate', '!=', gate).execute()
    for (const row of stale) {
      const item = JSON.parse(row.payload) as ExtractedItem
      const visible = Number(row.confidence) >= gate
      let workObjectId = row.work_object_id
      // An item linked to another engine's object (found twice) shares that object: it is not
      // proposed again, and the object is withdrawn only when no item still shows it.
      if (visible && Number(row.hidden) === 1 && workObjectId === null) {
        workObjectId = (await createProposal(deps, trx, {
          sessionId, kind: item.kind, title: item.title, summary: item.summary, sourceSegmentIds: item.sourceSegmentIds,
          confidence: Number(row.confidence), family: item.family, semanticType: item.semanticType,
          ...hintsOf(item),
        })).id
        proposed += 1
      } else if (!visible && Number(row.hidden) === 0 && row.work_object_id && !await stillShown(trx, sessionId, row.work_object_id, row.item_key, gate)) {
        if (await withdrawProposal(deps, trx, row.work_object_id, `Below the quality gate ${gate} (confidence ${row.confidence}).`)) withdrawn += 1
      }
      await trx.updateTable('extraction_items').set({ gate, hidden: visible ? 0 : 1, work_object_id: workObjectId })
        .where('session_id', '=', sessionId).where('item_key', '=', row.item_key).execute()
    }
    await setNeedsRebuild(trx, [sessionId], false)
  })
  await refineSession(deps, sessionId)
  // After the meeting, the takeover summary follows the rebuilt work (a new one, pinned to now).
  const session = await findSessionById(db, sessionId)
  if (session && !isCapturing(session.state)) await deriveTakeover(deps, sessionId)
  return { proposed, withdrawn }
}

/** Whether another item linked to the object is at or above the gate. */
const stillShown = async (trx: Executor, sessionId: string, workObjectId: string, itemKey: string, gate: number) => Boolean(
  await trx.selectFrom('extraction_items').select('item_key').where('session_id', '=', sessionId).where('work_object_id', '=', workObjectId)
    .where('item_key', '!=', itemKey).where('confidence', '>=', gate).executeTakeFirst())

/** Marks the work sets whose extraction ran under another gate than the one in force (at start). */
export async function flagStaleWorkSets(deps: AppDeps) {
  const { db } = deps.database
  const stale = await db.selectFrom('extraction_items').select('session_id').distinct().where('gate', '!=', deps.config.extractionQualityGate).execute()
  await setNeedsRebuild(db, stale.map((row) => row.session_id), true)
}
