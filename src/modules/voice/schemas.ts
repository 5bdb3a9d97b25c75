// TypeBox schemas of the voice routes: profile and enrollment, the model manifest, workspace
// voice identities, the session speaker opt-out and naming a session speaker.
import { Type, type Static } from 'typebox'

const Id = Type.String({ minLength: 1, maxLength: 80 })

export const EnrollmentParams = Type.Object({ enrollmentId: Id })
export const ModelParams = Type.Object({ modelVersion: Type.String({ minLength: 1, maxLength: 120 }) })
export const IdentityParams = Type.Object({ identityId: Id })
export const SpeakerParams = Type.Object({ sessionId: Id, speakerId: Id })

export const VoiceProfileModelManifest = Type.Object({
  modelVersion: Type.String({ description: 'The one model version enrollments must be made with.' }),
  engine: Type.String({ description: '`builtin` (MFCC statistics, computed in plain JS) or `sherpa-onnx` (a neural model).' }),
  format: Type.String({ description: '`confer-mfcc-stats` (parameters in GET …/models/{modelVersion}) or `onnx`.' }),
  downloadable: Type.Boolean({ description: 'Whether GET …/models/{modelVersion} carries what a client needs to compute embeddings itself.' }),
  input: Type.Object({
    sampleRate: Type.Integer(), channels: Type.Integer(), encoding: Type.String(), frameMs: Type.Number(), hopMs: Type.Number(),
  }),
  embedding: Type.Object({
    size: Type.Integer(), metric: Type.Literal('cosine'), normalized: Type.Literal(true),
    normTolerance: Type.Number({ description: 'Each embedding\'s L2 norm must be within 1 ± this.' }),
  }),
  thresholds: Type.Object({
    match: Type.Number({ description: 'Cosine similarity at or above which a session speaker is named.' }),
    suggest: Type.Number({ description: 'Cosine similarity at or above which the member is only suggested.' }),
    cohesion: Type.Number({ description: 'Each enrollment embedding must be at least this similar to their mean (one voice).' }),
  }),
  enrollment: Type.Object({
    minUtterances: Type.Integer(), maxUtterances: Type.Integer(), minUtteranceMs: Type.Integer(), maxUtteranceMs: Type.Integer(),
  }),
  issuedAt: Type.String({ format: 'date-time' }),
  signature: Type.Object({
    algorithm: Type.Literal('Ed25519'),
    keyId: Type.String(),
    publicKey: Type.String({ description: 'base64url raw Ed25519 public key of this server' }),
    value: Type.String({ description: 'base64url signature over the RFC 8785 canonical JSON of the manifest without `signature`' }),
  }),
}, { $id: 'VoiceProfileModelManifest' })

export const VoiceProfileResponse = Type.Object({
  status: Type.Union([Type.Literal('not-enrolled'), Type.Literal('enrolled'), Type.Literal('needs-reenrollment')], {
    description: 'needs-reenrollment: the profile was made with another model version and is not used for matching.',
  }),
  revision: Type.Integer({ description: 'The profile\'s revision (0 without a profile): PUT …/enrollments/{id} takes it as `expectedRevision`.' }),
  currentModelVersion: Type.String(),
  modelVersion: Type.Optional(Type.String({ description: 'The model version of the stored profile.' })),
  embeddingCount: Type.Integer(),
  enrolledAt: Type.Optional(Type.String({ format: 'date-time' })),
  optedOutWorkspaceIds: Type.Array(Type.String(), { description: 'Workspaces where this voice is never matched (an opt-out).' }),
}, { $id: 'VoiceProfileResponse' })

export const DeleteVoiceProfileResponse = Type.Object({
  deleted: Type.Boolean({ description: 'false when there was nothing to delete' }),
  deletedIdentities: Type.Integer(),
  unnamedSpeakers: Type.Integer({ description: 'Session speakers that were named from this profile and are "Speaker N" again.' }),
})

export const CreateVoiceProfileEnrollmentRequest = Type.Object({
  consent: Type.Literal(true, { description: 'The person agrees that their voice is stored and used to name them in their workspaces\' meetings.' }),
}, { additionalProperties: false, $id: 'CreateVoiceProfileEnrollmentRequest' })

export const EnrollmentCreated = Type.Object({
  enrollmentId: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
  revision: Type.Integer({ description: 'The profile\'s current revision, to send back as `expectedRevision`.' }),
  manifest: Type.Ref('VoiceProfileModelManifest'),
})

export const SaveEnrollmentBody = Type.Object({
  modelVersion: Type.String({ minLength: 1, maxLength: 120 }),
  embeddings: Type.Array(Type.Array(Type.Number(), { minItems: 1, maxItems: 4096 }), { minItems: 1, maxItems: 20 }),
  expectedRevision: Type.Integer({ minimum: 0 }),
}, { additionalProperties: false })
export type SaveEnrollmentBody = Static<typeof SaveEnrollmentBody>

export const ModelResponse = Type.Object({
  manifest: Type.Ref('VoiceProfileModelManifest'),
  parameters: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Everything the built-in engine computes with (feature settings, background statistics).' })),
})

export const WorkspaceVoiceIdentity = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  displayName: Type.String(),
  memberAccountId: Type.Optional(Type.String({ description: 'The workspace member this voice is linked to.' })),
  source: Type.Union([Type.Literal('enrollment'), Type.Literal('manual')]),
  nameIsManual: Type.Boolean(),
  mergedFrom: Type.Array(Type.String()),
  sessionSpeakers: Type.Array(Type.Object({ sessionId: Type.String(), speakerId: Type.String(), state: Type.String(), score: Type.Optional(Type.Number()) })),
  hasCentroid: Type.Boolean({ description: 'Whether embeddings exist for it (the centroid itself is never returned).' }),
  revision: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
}, { $id: 'WorkspaceVoiceIdentity' })

export const WorkspaceVoiceIdentityUtterance = Type.Object({
  segmentId: Type.String(),
  sessionId: Type.String(),
  speakerId: Type.String(),
  startMs: Type.Integer(),
  endMs: Type.Integer(),
  text: Type.String(),
}, { $id: 'WorkspaceVoiceIdentityUtterance' })

export const IdentityDetail = Type.Object({
  identity: Type.Ref('WorkspaceVoiceIdentity'),
  utterances: Type.Array(Type.Ref('WorkspaceVoiceIdentityUtterance'), { description: 'Newest first, at most 200.' }),
})

export const PatchIdentityBody = Type.Object({
  displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  memberAccountId: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 80 }), Type.Null()], { description: 'Link to a workspace member, or null to unlink.' })),
  expectedRevision: Type.Optional(Type.Integer({ minimum: 0 })),
  confirmSpeaker: Type.Optional(Type.Object({ sessionId: Id, speakerId: Id }, {
    additionalProperties: false,
    description: 'A session speaker a person confirms is this voice (typically the suggestion in `speaker.updated`): named with this identity\'s name, and never changed by the engine again.',
  })),
  declineSpeaker: Type.Optional(Type.Object({ sessionId: Id, speakerId: Id }, {
    additionalProperties: false,
    description: 'A session speaker a person says is not this voice: the suggestion (or the name) goes and the engine leaves the speaker alone.',
  })),
}, { additionalProperties: false, minProperties: 1 })
export type PatchIdentityBody = Static<typeof PatchIdentityBody>

export const MergeBody = Type.Object({
  targetIdentityId: Id,
}, { additionalProperties: false })

export const SplitBody = Type.Object({
  sessionId: Id,
  speakerId: Id,
}, { additionalProperties: false })

export const SplitResult = Type.Object({
  identity: Type.Ref('WorkspaceVoiceIdentity'),
  splitIdentity: Type.Ref('WorkspaceVoiceIdentity'),
})

export const DeleteIdentityResult = Type.Object({
  deleted: Type.Literal(true),
  identityId: Type.String(),
  unnamedSpeakers: Type.Integer(),
})

export const OptOutResult = Type.Object({
  optedOut: Type.Literal(true),
  deletedIdentity: Type.Boolean({ description: 'true when an identity built only from this speaker\'s voice was deleted with it' }),
  speaker: Type.Object({ sessionId: Type.String(), speakerId: Type.String(), label: Type.String() }),
})

export const NameSpeakerBody = Type.Object({
  name: Type.Union([Type.String({ minLength: 1, maxLength: 120 }), Type.Null()], { description: 'What the speaker is called in this session (e.g. "Dana Li"); null gives back "Speaker N".' }),
}, { additionalProperties: false })

export const NameSpeakerResult = Type.Object({
  speaker: Type.Object({
    sessionId: Type.String(), speakerId: Type.String(), label: Type.String(),
    voice: Type.Object({ state: Type.Union([Type.Literal('unnamed'), Type.Literal('opted-out')]) }),
  }),
  renamedOwners: Type.Integer({ minimum: 0, description: 'Work objects of the session whose suggested owner was the old label and is now the new one.' }),
})

export const voiceSchemas = [VoiceProfileModelManifest, VoiceProfileResponse, CreateVoiceProfileEnrollmentRequest, WorkspaceVoiceIdentity, WorkspaceVoiceIdentityUtterance]
