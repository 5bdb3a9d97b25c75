// Test helpers of the sessions module: a second member of a workspace, audio bodies, uploads.
import type { LightMyRequestResponse } from 'fastify'
import type { Harness, Member } from '../../../test/harness.ts'
import { nowIso } from '../../platform/ids.ts'

/** Signs a new person in as a member of `workspaceId` with the given content permission. */
export async function joinWorkspace(h: Harness, workspaceId: string, contentPermission: 'edit' | 'view'): Promise<Member> {
  const person = await h.member()
  const now = nowIso()
  await h.database.db.insertInto('workspace_members').values({
    workspace_id: workspaceId, account_id: person.accountId, access_role: 'member',
    content_permission: contentPermission, job_role: null, created_at: now, updated_at: now,
  }).execute()
  const selected = await person.post('/v1/account/bootstrap', { workspaceId })
  if (selected.statusCode !== 200) throw new Error(`could not join: ${selected.body}`)
  return { ...person, workspaceId }
}

/** Deterministic bytes that differ per label: silence would hide a mixed-up chunk. */
export function audioBytes(label: string, size = 3200): Buffer {
  const bytes = Buffer.alloc(size)
  let state = [...label].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7)
  for (let index = 0; index < size; index += 1) {
    state = (state * 1_103_515_245 + 12_345) >>> 0
    bytes[index] = state >>> 24
  }
  return bytes
}

export function uploadChunk(member: Member, sessionId: string, chunkId: string | undefined, body: Buffer, options: {
  contentType?: string; sequence?: number
} = {}): Promise<LightMyRequestResponse> {
  return member.request('POST', `/v1/sessions/${sessionId}/audio`, {
    payload: body,
    headers: {
      'content-type': options.contentType ?? 'audio/pcm;rate=16000',
      ...(chunkId === undefined ? {} : { 'x-service-chunk-id': chunkId }),
      ...(options.sequence === undefined ? {} : { 'x-service-chunk-sequence': String(options.sequence) }),
    },
  })
}

export async function startRecording(member: Member, body: Record<string, unknown> = {}) {
  const response = await member.post('/v1/sessions', { captureMode: 'microphone', ...body })
  if (response.statusCode !== 200) throw new Error(`create failed: ${response.statusCode} ${response.body}`)
  return response.json() as { id: string; conversationId: string; state: string; [key: string]: unknown }
}
