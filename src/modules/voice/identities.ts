// Workspace voice identities (a person's voice across sessions): read with utterances, rename or
// link to a member, merge, split a session speaker out, delete; and a session speaker's opt-out.
// What a person does here is manual and wins over the engine (identify.ts skips manual speakers).
import type { Membership } from '../../platform/auth/actor.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { newId } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { speakerLabel } from '../../platform/speech/speakers.ts'
import { findSessionRow } from '../sessions/index.ts'
import { findSpeaker, speakerSegments } from '../transcripts/index.ts'
import { listMembers } from '../workspace/index.ts'
import { confirmSpeaker, declineSpeaker } from './confirm.ts'
import { presentIdentity } from './presenter.ts'
import * as repo from './repo.ts'
import type { PatchIdentityBody } from './schemas.ts'
import { announceSpeaker, recomputeCentroid } from './speakers.ts'

const UTTERANCE_LIMIT = 200

async function identityOrNotFound(executor: Executor, workspaceId: string, identityId: string) {
  return await repo.findIdentity(executor, workspaceId, identityId) ?? notFound('voice identity', identityId)
}

async function present(executor: Executor, identity: repo.IdentityRow) {
  return presentIdentity(identity, await repo.voicesOfIdentity(executor, identity.id))
}

const stale = (identity: repo.IdentityRow) =>
  new AppError('stale_revision', 'The voice identity changed meanwhile.', { extra: { currentRevision: identity.revision } })

/** Relabels every session speaker of an identity (after a rename, a link, a merge). */
async function relabelSpeakers(deps: AppDeps, trx: Executor, identity: repo.IdentityRow) {
  for (const voice of await repo.voicesOfIdentity(trx, identity.id)) {
    if (voice.state !== 'named') continue
    await announceSpeaker(deps, trx, identity.workspace_id, voice.session_id, voice.speaker_id, identity.display_name, { state: 'named', identityId: identity.id })
  }
}

export async function getIdentity(deps: AppDeps, membership: Membership, identityId: string) {
  const db = deps.database.db
  const identity = await identityOrNotFound(db, membership.workspaceId, identityId)
  const speakers = await repo.voicesOfIdentity(db, identity.id)
  const segments = await speakerSegments(db, speakers.map((speaker) => ({ sessionId: speaker.session_id, speakerId: speaker.speaker_id })), UTTERANCE_LIMIT)
  return {
    identity: presentIdentity(identity, speakers),
    utterances: segments.map((segment) => ({
      segmentId: segment.id, sessionId: segment.session_id, speakerId: segment.speaker_id!, startMs: segment.start_ms, endMs: segment.end_ms, text: segment.text,
    })),
  }
}

export async function patchIdentity(deps: AppDeps, membership: Membership, identityId: string, input: PatchIdentityBody) {
  const db = deps.database.db
  if (input.memberAccountId) {
    const members = await listMembers(db, membership.workspaceId)
    if (!members.some((member) => member.account_id === input.memberAccountId)) {
      throw badRequest('memberAccountId', 'not_a_member', 'must be a member of this workspace')
    }
  }
  const { confirmSpeaker: confirm, declineSpeaker: decline } = input
  if (confirm && decline && confirm.sessionId === decline.sessionId && confirm.speakerId === decline.speakerId) {
    throw badRequest('declineSpeaker', 'contradiction', 'cannot confirm and decline the same speaker')
  }
  return db.transaction().execute(async (trx) => {
    const identity = await identityOrNotFound(trx, membership.workspaceId, identityId)
    if (input.expectedRevision !== undefined && input.expectedRevision !== identity.revision) throw stale(identity)
    if (input.memberAccountId && input.memberAccountId !== identity.account_id) {
      const other = await repo.findMemberIdentity(trx, membership.workspaceId, input.memberAccountId)
      if (other) throw new AppError('conflict', 'Another voice identity is linked to this member: merge the two instead.', { extra: { identityId: other.id } })
    }
    const at = new Date().toISOString()
    const changes = {
      ...(input.displayName !== undefined ? { display_name: input.displayName, name_is_manual: 1 } : {}),
      ...(input.memberAccountId !== undefined ? { account_id: input.memberAccountId } : {}),
      updated_at: at,
    }
    if (!await repo.updateIdentity(trx, identity, changes)) throw stale((await repo.findIdentity(trx, membership.workspaceId, identityId))!)
    const updated = (await repo.findIdentity(trx, membership.workspaceId, identityId))!
    if (input.memberAccountId !== undefined) await recomputeCentroid(trx, updated, at)
    if (confirm) await confirmSpeaker(deps, trx, updated, confirm, at)
    if (decline) await declineSpeaker(deps, trx, updated, decline, at)
    if (input.displayName !== undefined || input.memberAccountId !== undefined) await relabelSpeakers(deps, trx, updated)
    return present(trx, (await repo.findIdentity(trx, membership.workspaceId, identityId))!)
  })
}

/** Merges `identityId` into `targetIdentityId`: speakers united, centroid recomputed, mergedFrom kept. */
export async function mergeIdentity(deps: AppDeps, membership: Membership, identityId: string, targetIdentityId: string) {
  if (identityId === targetIdentityId) throw badRequest('targetIdentityId', 'same_identity', 'must be another identity')
  return deps.database.db.transaction().execute(async (trx) => {
    const source = await identityOrNotFound(trx, membership.workspaceId, identityId)
    const target = await identityOrNotFound(trx, membership.workspaceId, targetIdentityId)
    if (source.account_id && target.account_id && source.account_id !== target.account_id) {
      throw new AppError('conflict', 'The two identities are linked to different members.', { extra: { identityId: source.id, targetIdentityId: target.id } })
    }
    const at = new Date().toISOString()
    await trx.updateTable('voice_speakers').set({ identity_id: target.id, updated_at: at }).where('identity_id', '=', source.id).execute()
    await trx.updateTable('voice_speakers').set({ suggested_identity_id: target.id, updated_at: at }).where('suggested_identity_id', '=', source.id).execute()
    const mergedFrom = [...new Set([...JSON.parse(target.merged_from) as string[], source.id, ...JSON.parse(source.merged_from) as string[]])]
    const changes = { merged_from: JSON.stringify(mergedFrom), account_id: target.account_id ?? source.account_id, updated_at: at }
    if (!await repo.updateIdentity(trx, target, changes)) throw stale(target)
    await repo.deleteIdentity(trx, source.id)
    const merged = (await repo.findIdentity(trx, membership.workspaceId, target.id))!
    await recomputeCentroid(trx, merged, at)
    await relabelSpeakers(deps, trx, merged)
    return { identity: await present(trx, (await repo.findIdentity(trx, membership.workspaceId, target.id))!) }
  })
}

/** Moves one session speaker out of an identity into a new identity of its own (manual). */
export async function splitIdentity(deps: AppDeps, membership: Membership, identityId: string, sessionId: string, speakerId: string) {
  return deps.database.db.transaction().execute(async (trx) => {
    const identity = await identityOrNotFound(trx, membership.workspaceId, identityId)
    const voice = await repo.findVoice(trx, membership.workspaceId, sessionId, speakerId) ?? notFound('session speaker', `${sessionId}/${speakerId}`)
    if (voice.identity_id !== identity.id) throw badRequest('speakerId', 'not_in_identity', 'this session speaker is not part of the identity')
    const at = new Date().toISOString()
    const split: repo.IdentityRow = {
      id: newId('vid'), workspace_id: membership.workspaceId, display_name: speakerLabel(speakerId), account_id: null, source: 'manual',
      name_is_manual: 0, centroid: voice.embedding, merged_from: '[]', revision: 1, created_at: at, updated_at: at,
    }
    await repo.insertIdentity(trx, split)
    await repo.updateVoice(trx, sessionId, speakerId, { identity_id: split.id, state: 'unnamed', suggested_identity_id: null, is_manual: 1, updated_at: at })
    if (!await repo.updateIdentity(trx, identity, { updated_at: at })) throw stale(identity)
    await recomputeCentroid(trx, identity, at)
    await announceSpeaker(deps, trx, membership.workspaceId, sessionId, speakerId, undefined, { state: 'unnamed', identityId: split.id })
    return {
      identity: await present(trx, (await repo.findIdentity(trx, membership.workspaceId, identity.id))!),
      splitIdentity: await present(trx, split),
    }
  })
}

/** Deletes an identity and the embeddings of its session speakers; they are "Speaker N" again. */
export async function deleteIdentity(deps: AppDeps, membership: Membership, identityId: string) {
  return deps.database.db.transaction().execute(async (trx) => {
    const identity = await identityOrNotFound(trx, membership.workspaceId, identityId)
    const at = new Date().toISOString()
    const speakers = await repo.releaseIdentitySpeakers(trx, identity.id, at)
    await repo.deleteIdentity(trx, identity.id)
    for (const speaker of speakers) {
      await announceSpeaker(deps, trx, membership.workspaceId, speaker.session_id, speaker.speaker_id, undefined, { state: 'unnamed' })
    }
    return { deleted: true as const, identityId: identity.id, unnamedSpeakers: speakers.length }
  })
}

/**
 * A session speaker's opt-out: its embeddings are deleted, an identity built only from them goes
 * too, and it is never matched again; when it had been named as an enrolled member, that member's
 * voice is no longer matched in this workspace either.
 */
export async function optOutSpeaker(deps: AppDeps, membership: Membership, sessionId: string, speakerId: string) {
  const db = deps.database.db
  await findSessionRow(db, membership.workspaceId, sessionId) ?? notFound('session', sessionId)
  await findSpeaker(db, sessionId, speakerId) ?? notFound('session speaker', speakerId)
  return db.transaction().execute(async (trx) => {
    const at = new Date().toISOString()
    const voice = await repo.findVoice(trx, membership.workspaceId, sessionId, speakerId)
    let deletedIdentity = false
    const identity = voice?.identity_id ? await repo.findIdentity(trx, membership.workspaceId, voice.identity_id) : undefined
    await repo.upsertVoice(trx, {
      session_id: sessionId, speaker_id: speakerId, workspace_id: membership.workspaceId, embedding: null, embedding_weight: 0, state: 'opted-out',
      identity_id: null, suggested_identity_id: null, score: null, is_manual: 1, updated_at: at,
    })
    await repo.updateVoice(trx, sessionId, speakerId, {
      embedding: null, embedding_weight: 0, state: 'opted-out', identity_id: null, suggested_identity_id: null, score: null, is_manual: 1, updated_at: at,
    })
    if (identity) {
      if (identity.account_id) await repo.addOptOut(trx, membership.workspaceId, identity.account_id, at)
      const others = await repo.voicesOfIdentity(trx, identity.id)
      const hasProfile = identity.account_id ? (await repo.findProfile(trx, identity.account_id)) !== undefined : false
      if (others.length === 0 && !hasProfile) {
        await repo.deleteIdentity(trx, identity.id)
        deletedIdentity = true
      } else {
        await recomputeCentroid(trx, identity, at)
      }
    }
    const label = await announceSpeaker(deps, trx, membership.workspaceId, sessionId, speakerId, undefined, { state: 'opted-out' })
    return { optedOut: true as const, deletedIdentity, speaker: { sessionId, speakerId, label } }
  })
}
