// Test helpers of the work module: capture a work object through the real route, read events.
import type { Harness, Member } from '../../../test/harness.ts'
import { startRecording } from '../sessions/testing.ts'
import { inviteAndJoin } from '../workspace/testing.ts'

export type WorkObjectBody = {
  id: string; workSetId: string; sessionId: string; conversationId: string; kind: string; family: string; semanticType: string
  title: string; summary?: string; stage: string; revisionId: string; revisionHash: string; revisionNumber: number; reviewId: string
  ownerId?: string; reviewerId?: string; responsibility: { state: string; blockedReason?: string; updatedAt: string }
  proposal?: { state: string; kind: string; revisionId: string }; [key: string]: unknown
}

export async function capture(member: Member, sessionId: string, body: Record<string, unknown> = {}): Promise<WorkObjectBody> {
  const response = await member.post(`/v1/sessions/${sessionId}/workobjects`, { kind: 'action', title: 'Ship the beta', ...body })
  if (response.statusCode !== 200) throw new Error(`capture failed: ${response.statusCode} ${response.body}`)
  return response.json()
}

/** Logged events of a conversation after `afterSeq`, oldest first. */
export async function eventsOf(h: Harness, conversationId: string, afterSeq = 0) {
  const rows = await h.database.db.selectFrom('conversation_events').selectAll()
    .where('conversation_id', '=', conversationId).where('seq', '>', afterSeq).orderBy('seq', 'asc').execute()
  return rows.map((row) => ({ type: row.type, seq: Number(row.seq), channel: row.channel, data: JSON.parse(row.data) }))
}

export async function notificationsOf(h: Harness, accountId: string) {
  const rows = await h.database.db.selectFrom('notifications').selectAll()
    .where('recipient_account_id', '=', accountId).orderBy('id', 'asc').execute()
  return rows.map((row) => ({ kind: row.kind, actor: row.actor_account_id, subjectId: row.subject_id, data: JSON.parse(row.data) }))
}

/**
 * A workspace owner, an admin, the named edit members, a view member, someone from another
 * workspace, and a recording session of the owner's.
 */
export async function workTeam<const N extends string>(h: Harness, editors: readonly N[]) {
  const owner = await h.member()
  const admin = await inviteAndJoin(h, owner, { accessRole: 'admin', contentPermission: 'edit' })
  const named = {} as Record<N, Member>
  for (const name of editors) named[name] = await inviteAndJoin(h, owner, { contentPermission: 'edit' })
  const viewer = await inviteAndJoin(h, owner, { contentPermission: 'view' })
  const stranger = await h.member()
  const sessionId = (await startRecording(owner)).id
  return { owner, admin, viewer, stranger, sessionId, ...named }
}
