// Voice routes: the account's voice profile and enrollment, the model manifest, a session
// speaker's opt-out and name, and the workspace's voice identities.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { actorOf, memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { deleteIdentity, getIdentity, mergeIdentity, optOutSpeaker, patchIdentity, splitIdentity } from './identities.ts'
import { nameSpeaker } from './naming.ts'
import { deleteProfile, getModel, getProfile, saveEnrollment, startEnrollment } from './profile.ts'
import * as schemas from './schemas.ts'

const tags = [TAGS.account]
const Identity = Type.Ref('WorkspaceVoiceIdentity')

export function voiceRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/v1/account/voice-profile', {
    schema: {
      operationId: 'getVoiceProfile', tags,
      summary: 'The caller\'s voice profile: whether they enrolled, with which model, its revision, and the workspaces where their voice is never matched.',
      response: { 200: Type.Ref('VoiceProfileResponse'), ...problems(401, 429) },
    },
    config: { access: 'signedIn' },
  }, (request) => getProfile(deps, actorOf(request).accountId))

  app.delete('/v1/account/voice-profile', {
    schema: {
      operationId: 'deleteVoiceProfile', tags,
      summary: 'Deletes the profile, its enrollments and its voice identities in every workspace; session speakers named from it are "Speaker N" again and their embeddings are deleted.',
      response: { 200: schemas.DeleteVoiceProfileResponse, ...problems(401, 429) },
    },
    config: { access: 'signedIn' },
  }, (request) => deleteProfile(deps, actorOf(request).accountId))

  app.post('/v1/account/voice-profile/enrollments', {
    schema: {
      operationId: 'createVoiceProfileEnrollment', tags,
      summary: 'Starts an enrollment (`consent: true` required) and returns the signed manifest of the current model: compute one embedding per utterance with it, then PUT them.',
      body: Type.Ref('CreateVoiceProfileEnrollmentRequest'),
      response: { 200: schemas.EnrollmentCreated, ...problems(400, 401, 429) },
    },
    config: { access: 'signedIn' },
  }, (request) => startEnrollment(deps, actorOf(request).accountId))

  app.put('/v1/account/voice-profile/enrollments/:enrollmentId', {
    schema: {
      operationId: 'saveVoiceProfileEnrollment', tags,
      summary: 'Saves the enrollment\'s embeddings as the profile. 400 when `modelVersion` is not the current one (`currentModelVersion` in the body) or the embeddings have the wrong size, are not unit length or are not one voice; 409 `stale_revision` (with `currentRevision`) when the profile changed since `expectedRevision`.',
      params: schemas.EnrollmentParams,
      body: schemas.SaveEnrollmentBody,
      response: { 200: Type.Ref('VoiceProfileResponse'), ...problems(400, 401, 404, 409, 429) },
    },
    config: { access: 'signedIn' },
  }, (request) => saveEnrollment(deps, actorOf(request).accountId, request.params.enrollmentId, request.body))

  app.get('/v1/account/voice-profile/models/:modelVersion', {
    schema: {
      operationId: 'getVoiceProfileModel', tags,
      summary: 'The signed manifest of the current model and, for the built-in engine, every parameter a client needs to compute the same embeddings. Other versions: 404.',
      params: schemas.ModelParams,
      response: { 200: schemas.ModelResponse, ...problems(401, 404, 429) },
    },
    config: { access: 'signedIn' },
  }, (request) => getModel(deps, request.params.modelVersion))

  app.post('/v1/sessions/:sessionId/speakers/:speakerId/voice-opt-out', {
    schema: {
      operationId: 'optOutSessionSpeakerVoice', tags,
      summary: 'The speaker\'s voice embeddings are deleted, with any identity built only from them (`deletedIdentity`); the speaker is "Speaker N" and is never matched again; if they had been named as a member, that member\'s voice is not matched in this workspace any more. Any member may ask it (view permission is enough).',
      params: schemas.SpeakerParams,
      response: { 200: schemas.OptOutResult, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => optOutSpeaker(deps, memberOf(request).membership, request.params.sessionId, request.params.speakerId))

  app.patch('/v1/sessions/:sessionId/speakers/:speakerId', {
    schema: {
      operationId: 'nameSessionSpeaker', tags,
      summary: 'Name a session speaker ("Speaker 2" → "Dana Li"), or give back its "Speaker N" label with `name: null`. A person\'s name wins over voice recognition and unlinks the voice identity it had matched. The transcript\'s labels, `speaker.updated` and the session\'s work suggesting the old label as owner follow. A speaker only a segment names (a client\'s own recognizer) is named too; 404 when no segment of the session has it.',
      params: schemas.SpeakerParams,
      body: schemas.NameSpeakerBody,
      response: { 200: schemas.NameSpeakerResult, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'edit' },
  }, (request) => nameSpeaker(deps, { membership: memberOf(request).membership, accountId: actorOf(request).accountId }, request.params.sessionId, request.params.speakerId, request.body))

  app.get('/v1/workspace/voice-identities/:identityId', {
    schema: {
      operationId: 'getWorkspaceVoiceIdentity', tags,
      summary: 'A voice identity of the workspace with its session speakers and their utterances (newest first, at most 200).',
      params: schemas.IdentityParams,
      response: { 200: schemas.IdentityDetail, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => getIdentity(deps, memberOf(request).membership, request.params.identityId))

  app.patch('/v1/workspace/voice-identities/:identityId', {
    schema: {
      operationId: 'updateWorkspaceVoiceIdentity', tags,
      summary: 'Rename (`displayName`, a manual name the engine keeps), link to a workspace member (`memberAccountId`, null unlinks), confirm a session speaker as this voice (`confirmSpeaker`, e.g. a suggestion) or decline it (`declineSpeaker`). Optional `expectedRevision`: 409 `stale_revision` with `currentRevision`.',
      params: schemas.IdentityParams,
      body: schemas.PatchIdentityBody,
      response: { 200: Identity, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => patchIdentity(deps, memberOf(request).membership, request.params.identityId, request.body))

  app.delete('/v1/workspace/voice-identities/:identityId', {
    schema: {
      operationId: 'deleteWorkspaceVoiceIdentity', tags,
      summary: 'Deletes the identity and its session speakers\' embeddings; they are "Speaker N" again and the engine leaves them alone.',
      params: schemas.IdentityParams,
      response: { 200: schemas.DeleteIdentityResult, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'edit' },
  }, (request) => deleteIdentity(deps, memberOf(request).membership, request.params.identityId))

  app.post('/v1/workspace/voice-identities/:identityId/merge', {
    schema: {
      operationId: 'mergeWorkspaceVoiceIdentity', tags,
      summary: 'Merges this identity into `targetIdentityId`: session speakers united, centroid recomputed, this id kept in the target\'s `mergedFrom`, this identity deleted. 409 when both are linked to different members.',
      params: schemas.IdentityParams,
      body: schemas.MergeBody,
      response: { 200: Type.Object({ identity: Identity }), ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => mergeIdentity(deps, memberOf(request).membership, request.params.identityId, request.body.targetIdentityId))

  app.post('/v1/workspace/voice-identities/:identityId/split', {
    schema: {
      operationId: 'splitWorkspaceVoiceIdentity', tags,
      summary: 'Moves one session speaker (`sessionId`, `speakerId`) out of the identity into a new identity of its own; a manual placement the engine keeps. 400 when the speaker is not part of it.',
      params: schemas.IdentityParams,
      body: schemas.SplitBody,
      response: { 200: schemas.SplitResult, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => splitIdentity(deps, memberOf(request).membership, request.params.identityId, request.body.sessionId, request.body.speakerId))
}
