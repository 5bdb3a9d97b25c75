// The model manifest: what a client needs to enroll with the server's one current model (input
// framing, embedding size and metric, thresholds, enrollment requirements), signed with an
// Ed25519 key derived from the server secret so a client can check it came from this server.
import { createHash, createHmac, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import canonicalize from 'canonicalize'
import type { SpeakerEmbedder } from '../../platform/speech/embedding/index.ts'

export const ENROLLMENT = { minUtterances: 3, maxUtterances: 10, minUtteranceMs: 2000, maxUtteranceMs: 15_000 }
/** an embedding's L2 norm must be within 1 ± this */
export const NORM_TOLERANCE = 0.02

/** Each enrollment embedding must be at least this similar to the mean of all: one voice. */
export const cohesionThreshold = (engine: SpeakerEmbedder) => engine.suggestThreshold

// PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex')

type SigningKey = { privateKey: KeyObject; publicKey: KeyObject; publicRaw: Buffer; keyId: string }
const keys = new Map<string, SigningKey>()

function signingKey(secret: string): SigningKey {
  const cached = keys.get(secret)
  if (cached) return cached
  const seed = createHmac('sha256', secret).update('confer voice model manifest ed25519 v1').digest()
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' })
  const publicKey = createPublicKey(privateKey)
  const publicRaw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)
  const key = { privateKey, publicKey, publicRaw, keyId: createHash('sha256').update(publicRaw).digest('hex').slice(0, 16) }
  keys.set(secret, key)
  return key
}

export type Manifest = ReturnType<typeof unsignedManifest> & { signature: { algorithm: 'Ed25519'; keyId: string; publicKey: string; value: string } }

function unsignedManifest(engine: SpeakerEmbedder, issuedAt: string) {
  return {
    modelVersion: engine.modelVersion,
    engine: engine.name,
    format: engine.name === 'builtin' ? 'confer-mfcc-stats' : 'onnx',
    downloadable: engine.parameters() !== undefined,
    input: { ...engine.input },
    embedding: { size: engine.dimension, metric: 'cosine' as const, normalized: true as const, normTolerance: NORM_TOLERANCE },
    thresholds: { match: engine.matchThreshold, suggest: engine.suggestThreshold, cohesion: cohesionThreshold(engine) },
    enrollment: { ...ENROLLMENT, minUtteranceMs: Math.max(ENROLLMENT.minUtteranceMs, engine.minSpeechMs) },
    issuedAt,
  }
}

export function signedManifest(engine: SpeakerEmbedder, secret: string, issuedAt = new Date().toISOString()): Manifest {
  const body = unsignedManifest(engine, issuedAt)
  const key = signingKey(secret)
  const value = sign(null, Buffer.from(canonicalize(body)!), key.privateKey).toString('base64url')
  return { ...body, signature: { algorithm: 'Ed25519', keyId: key.keyId, publicKey: key.publicRaw.toString('base64url'), value } }
}

/** Whether a manifest carries a valid signature of this server (what a client checks). */
export function verifyManifest(manifest: Manifest, secret: string): boolean {
  const { signature, ...body } = manifest
  const key = signingKey(secret)
  if (signature.keyId !== key.keyId) return false
  return verify(null, Buffer.from(canonicalize(body)!), key.publicKey, Buffer.from(signature.value, 'base64url'))
}
