// Kysely queries over the voice tables. Reads that start from an id the client sent filter by
// workspace (identities, speakers) or by account (profiles, enrollments).
import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../platform/db/index.ts'
import type { VoiceIdentityTable, VoiceProfileTable, VoiceSpeakerTable } from '../../platform/db/tables.ts'
import type { Executor } from '../../platform/realtime/types.ts'

export type ProfileRow = Selectable<VoiceProfileTable>
export type IdentityRow = Selectable<VoiceIdentityTable>
export type SpeakerVoiceRow = Selectable<VoiceSpeakerTable>
type Reader = Db | Executor

export const parseVector = (text: string | null): number[] | undefined => (text ? JSON.parse(text) as number[] : undefined)
export const vectorText = (vector: ArrayLike<number>) => JSON.stringify(Array.from(vector, (value) => Math.round(value * 1e6) / 1e6))

const toProfile = (row: ProfileRow): ProfileRow => ({ ...row, embedding_count: Number(row.embedding_count), revision: Number(row.revision) })
const toIdentity = (row: IdentityRow): IdentityRow => ({ ...row, revision: Number(row.revision), name_is_manual: Number(row.name_is_manual) })
const toSpeaker = (row: SpeakerVoiceRow): SpeakerVoiceRow => ({
  ...row, embedding_weight: Number(row.embedding_weight), is_manual: Number(row.is_manual), score: row.score === null ? null : Number(row.score),
})

// Profiles and enrollments
export async function findProfile(db: Reader, accountId: string) {
  const row = await db.selectFrom('voice_profiles').selectAll().where('account_id', '=', accountId).executeTakeFirst()
  return row ? toProfile(row) : undefined
}

export async function profilesOf(db: Reader, accountIds: string[]) {
  if (accountIds.length === 0) return []
  return (await db.selectFrom('voice_profiles').selectAll().where('account_id', 'in', accountIds).execute()).map(toProfile)
}

/** Inserts the first profile; false when one exists already (a concurrent enrollment won). */
export async function insertProfile(db: Executor, row: Insertable<VoiceProfileTable>) {
  const result = await db.insertInto('voice_profiles').values(row).onConflict((oc) => oc.column('account_id').doNothing()).executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
}

/** Replaces the profile when its revision is still `expectedRevision`; false otherwise. */
export async function replaceProfile(db: Executor, accountId: string, expectedRevision: number, changes: Updateable<VoiceProfileTable>) {
  const result = await db.updateTable('voice_profiles').set(changes).where('account_id', '=', accountId).where('revision', '=', expectedRevision).executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function deleteProfile(db: Executor, accountId: string) {
  const result = await db.deleteFrom('voice_profiles').where('account_id', '=', accountId).executeTakeFirst()
  await db.deleteFrom('voice_enrollments').where('account_id', '=', accountId).execute()
  return Number(result.numDeletedRows) > 0
}

export const findEnrollment = (db: Reader, accountId: string, enrollmentId: string) =>
  db.selectFrom('voice_enrollments').selectAll().where('id', '=', enrollmentId).where('account_id', '=', accountId).executeTakeFirst()

// Opt-outs
export async function optedOutAccounts(db: Reader, workspaceId: string) {
  const rows = await db.selectFrom('voice_opt_outs').select('account_id').where('workspace_id', '=', workspaceId).execute()
  return new Set(rows.map((row) => row.account_id))
}

export async function optedOutWorkspaces(db: Reader, accountId: string) {
  const rows = await db.selectFrom('voice_opt_outs').select('workspace_id').where('account_id', '=', accountId).orderBy('workspace_id').execute()
  return rows.map((row) => row.workspace_id)
}

export async function addOptOut(db: Executor, workspaceId: string, accountId: string, at: string) {
  await db.insertInto('voice_opt_outs').values({ workspace_id: workspaceId, account_id: accountId, created_at: at })
    .onConflict((oc) => oc.columns(['workspace_id', 'account_id']).doNothing()).execute()
}

// Identities
export async function findIdentity(db: Reader, workspaceId: string, identityId: string) {
  const row = await db.selectFrom('voice_identities').selectAll().where('id', '=', identityId).where('workspace_id', '=', workspaceId).executeTakeFirst()
  return row ? toIdentity(row) : undefined
}

export async function findMemberIdentity(db: Reader, workspaceId: string, accountId: string) {
  const row = await db.selectFrom('voice_identities').selectAll().where('workspace_id', '=', workspaceId).where('account_id', '=', accountId)
    .orderBy('created_at').executeTakeFirst()
  return row ? toIdentity(row) : undefined
}

export async function identitiesOfAccount(db: Reader, accountId: string) {
  return (await db.selectFrom('voice_identities').selectAll().where('account_id', '=', accountId).execute()).map(toIdentity)
}

export async function insertIdentity(db: Executor, row: Insertable<VoiceIdentityTable>) {
  await db.insertInto('voice_identities').values(row).execute()
}

/** Updates an identity when its revision is still `expectedRevision` (bumping it); false otherwise. */
export async function updateIdentity(db: Executor, identity: IdentityRow, changes: Updateable<VoiceIdentityTable>, expectedRevision = identity.revision) {
  const result = await db.updateTable('voice_identities').set({ ...changes, revision: expectedRevision + 1 })
    .where('id', '=', identity.id).where('revision', '=', expectedRevision).executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function deleteIdentity(db: Executor, identityId: string) {
  await db.deleteFrom('voice_identities').where('id', '=', identityId).execute()
}

// Session speakers' voices
export async function sessionVoices(db: Reader, sessionId: string) {
  return (await db.selectFrom('voice_speakers').selectAll().where('session_id', '=', sessionId).orderBy('speaker_id').execute()).map(toSpeaker)
}

export async function findVoice(db: Reader, workspaceId: string, sessionId: string, speakerId: string) {
  const row = await db.selectFrom('voice_speakers').selectAll()
    .where('session_id', '=', sessionId).where('speaker_id', '=', speakerId).where('workspace_id', '=', workspaceId).executeTakeFirst()
  return row ? toSpeaker(row) : undefined
}

export async function voicesOfIdentity(db: Reader, identityId: string) {
  return (await db.selectFrom('voice_speakers').selectAll().where('identity_id', '=', identityId).orderBy('updated_at').orderBy('session_id').execute()).map(toSpeaker)
}

export async function upsertVoice(db: Executor, row: Insertable<VoiceSpeakerTable>) {
  await db.insertInto('voice_speakers').values(row)
    .onConflict((oc) => oc.columns(['session_id', 'speaker_id']).doUpdateSet({
      embedding: (eb) => eb.ref('excluded.embedding'),
      embedding_weight: (eb) => eb.ref('excluded.embedding_weight'),
      updated_at: (eb) => eb.ref('excluded.updated_at'),
    }).where('voice_speakers.state', '<>', 'opted-out'))
    .execute()
}

export async function updateVoice(db: Executor, sessionId: string, speakerId: string, changes: Updateable<VoiceSpeakerTable>) {
  await db.updateTable('voice_speakers').set(changes).where('session_id', '=', sessionId).where('speaker_id', '=', speakerId).execute()
}

/** Detaches every speaker of an identity, deleting their embeddings; the speakers as they were. */
export async function releaseIdentitySpeakers(db: Executor, identityId: string, at: string) {
  const speakers = await voicesOfIdentity(db, identityId)
  await db.updateTable('voice_speakers')
    .set({ identity_id: null, suggested_identity_id: null, state: 'unnamed', embedding: null, embedding_weight: 0, score: null, is_manual: 1, updated_at: at })
    .where('identity_id', '=', identityId).execute()
  await db.updateTable('voice_speakers').set({ suggested_identity_id: null, state: 'unnamed', updated_at: at })
    .where('suggested_identity_id', '=', identityId).execute()
  return speakers
}
