// An account's voice profile: enrollment (with consent, against the one current model), reading,
// and deletion of everything derived from it in every workspace.
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { newId } from '../../platform/ids.ts'
import { centroid, cosine, norm } from '../../platform/speech/embedding/index.ts'
import { signedManifest, cohesionThreshold, ENROLLMENT, NORM_TOLERANCE } from './manifest.ts'
import * as repo from './repo.ts'
import type { SaveEnrollmentBody } from './schemas.ts'
import { announceSpeaker, recomputeCentroid } from './speakers.ts'

const ENROLLMENT_TTL_MS = 60 * 60_000

export async function getProfile(deps: AppDeps, accountId: string) {
  const db = deps.database.db
  const profile = await repo.findProfile(db, accountId)
  const current = deps.speech.voice.modelVersion
  return {
    status: !profile ? 'not-enrolled' as const : profile.model_version === current ? 'enrolled' as const : 'needs-reenrollment' as const,
    revision: profile?.revision ?? 0,
    currentModelVersion: current,
    ...(profile ? { modelVersion: profile.model_version, enrolledAt: profile.enrolled_at } : {}),
    embeddingCount: profile?.embedding_count ?? 0,
    optedOutWorkspaceIds: await repo.optedOutWorkspaces(db, accountId),
  }
}

export async function startEnrollment(deps: AppDeps, accountId: string) {
  const db = deps.database.db
  const now = new Date()
  const id = newId('ven')
  const expiresAt = new Date(now.getTime() + ENROLLMENT_TTL_MS).toISOString()
  await db.insertInto('voice_enrollments').values({
    id, account_id: accountId, model_version: deps.speech.voice.modelVersion, state: 'open', expires_at: expiresAt, created_at: now.toISOString(), completed_at: null,
  }).execute()
  const profile = await repo.findProfile(db, accountId)
  return { enrollmentId: id, expiresAt, revision: profile?.revision ?? 0, manifest: signedManifest(deps.speech.voice, deps.secret) }
}

export function getModel(deps: AppDeps, modelVersion: string) {
  const engine = deps.speech.voice
  if (modelVersion !== engine.modelVersion) notFound('voice model', modelVersion)
  const parameters = engine.parameters()
  return { manifest: signedManifest(engine, deps.secret), ...(parameters ? { parameters } : {}) }
}

/** The enrollment embeddings checked for model, count, size, norm and cohesion (one voice). */
function checkEmbeddings(deps: AppDeps, input: SaveEnrollmentBody) {
  const engine = deps.speech.voice
  if (input.modelVersion !== engine.modelVersion) {
    throw new AppError('validation_failed', `Enrollments are made with model ${engine.modelVersion}.`, {
      errors: [{ field: 'modelVersion', code: 'model_version_mismatch', message: `must be ${engine.modelVersion}` }],
      extra: { currentModelVersion: engine.modelVersion },
    })
  }
  const { embeddings } = input
  if (embeddings.length < ENROLLMENT.minUtterances || embeddings.length > ENROLLMENT.maxUtterances) {
    throw badRequest('embeddings', 'utterance_count', `give ${ENROLLMENT.minUtterances} to ${ENROLLMENT.maxUtterances} embeddings, one per utterance`)
  }
  for (const [index, embedding] of embeddings.entries()) {
    if (embedding.length !== engine.dimension) throw badRequest(`embeddings/${index}`, 'embedding_size', `must have ${engine.dimension} numbers`)
    if (Math.abs(norm(embedding) - 1) > NORM_TOLERANCE) throw badRequest(`embeddings/${index}`, 'embedding_norm', 'must be unit length (L2 norm 1)')
  }
  const mean = centroid(embeddings)!
  const threshold = cohesionThreshold(engine)
  for (const [index, embedding] of embeddings.entries()) {
    if (cosine(embedding, mean) < threshold) {
      throw badRequest(`embeddings/${index}`, 'embedding_incoherent', 'does not sound like the other utterances: record every utterance in your own voice, alone')
    }
  }
  return mean
}

export async function saveEnrollment(deps: AppDeps, accountId: string, enrollmentId: string, input: SaveEnrollmentBody) {
  const db = deps.database.db
  const enrollment = await repo.findEnrollment(db, accountId, enrollmentId) ?? notFound('voice enrollment', enrollmentId)
  const mean = checkEmbeddings(deps, input)
  if (enrollment.state !== 'open') throw new AppError('conflict', 'This enrollment was already saved; start a new one.', { extra: { state: enrollment.state } })
  if (Date.parse(enrollment.expires_at) < Date.now()) throw new AppError('conflict', 'This enrollment expired; start a new one.', { extra: { state: 'expired' } })
  const at = new Date().toISOString()
  await db.transaction().execute(async (trx) => {
    const stale = async () => {
      const current = await repo.findProfile(trx, accountId)
      return new AppError('stale_revision', 'The voice profile changed meanwhile.', { extra: { currentRevision: current?.revision ?? 0 } })
    }
    const row = { model_version: input.modelVersion, embedding: repo.vectorText(mean), embedding_count: input.embeddings.length, enrolled_at: at, updated_at: at }
    const saved = input.expectedRevision === 0
      ? await repo.insertProfile(trx, { account_id: accountId, revision: 1, ...row })
      : await repo.replaceProfile(trx, accountId, input.expectedRevision, { revision: input.expectedRevision + 1, ...row })
    if (!saved) throw await stale()
    const closed = await trx.updateTable('voice_enrollments').set({ state: 'completed', completed_at: at })
      .where('id', '=', enrollmentId).where('state', '=', 'open').executeTakeFirst()
    if (Number(closed.numUpdatedRows) === 0) throw new AppError('conflict', 'This enrollment was already saved; start a new one.', { extra: { state: 'completed' } })
    for (const identity of await repo.identitiesOfAccount(trx, accountId)) await recomputeCentroid(trx, identity, at)
  })
  return getProfile(deps, accountId)
}

/** Deletes the profile, its enrollments and the identities built on it in every workspace. */
export async function deleteProfile(deps: AppDeps, accountId: string) {
  return deps.database.db.transaction().execute(async (trx) => {
    const at = new Date().toISOString()
    const deleted = await repo.deleteProfile(trx, accountId)
    const identities = await repo.identitiesOfAccount(trx, accountId)
    let unnamedSpeakers = 0
    for (const identity of identities) {
      const speakers = await repo.releaseIdentitySpeakers(trx, identity.id, at)
      await repo.deleteIdentity(trx, identity.id)
      for (const speaker of speakers) {
        await announceSpeaker(deps, trx, speaker.workspace_id, speaker.session_id, speaker.speaker_id, undefined, { state: 'unnamed' })
        unnamedSpeakers += 1
      }
    }
    // Workspace opt-outs stay: they hold no voice, only the refusal, and must outlive a new enrollment.
    return { deleted: deleted || identities.length > 0, deletedIdentities: identities.length, unnamedSpeakers }
  })
}
