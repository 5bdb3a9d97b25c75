// Choosing the speaker-embedding engine (VOICE_ENGINE, docs/configuration.md): `builtin` (default,
// offline, nothing to download) or `sherpa-onnx` (a neural model file the operator supplies).
import { builtinEmbedder } from './builtin.ts'
import { sherpaEmbedder } from './sherpa.ts'
import type { SpeakerEmbedder } from './types.ts'

export type { SpeakerEmbedder } from './types.ts'
export { EmbeddingEngineError } from './types.ts'
export { centroid, cosine, norm, normalize, type Vector } from './vectors.ts'
export { BUILTIN_MODEL_VERSION, builtinEmbedder } from './builtin.ts'

export type VoiceConfig = { engine: 'builtin' | 'sherpa-onnx'; modelPath: string | undefined }

export async function createEmbedder(config: VoiceConfig): Promise<SpeakerEmbedder> {
  if (config.engine === 'sherpa-onnx') {
    if (!config.modelPath) throw new Error('VOICE_MODEL_PATH: required when VOICE_ENGINE is sherpa-onnx')
    return sherpaEmbedder(config.modelPath)
  }
  return builtinEmbedder()
}
