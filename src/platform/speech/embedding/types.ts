// Speaker embeddings: one interface, engines chosen by config (VOICE_ENGINE). An embedding is a
// unit-length vector; two of the same voice have a high cosine similarity. Platform code: no rule
// about who may be named lives here, only how voices are measured.
export type SpeakerEmbedder = {
  /** `builtin` | `sherpa-onnx` */
  name: string
  /** one constant per engine and model: enrollments made with another version are refused */
  modelVersion: string
  dimension: number
  /** how a client frames the audio it embeds (the manifest repeats it) */
  input: { sampleRate: number; channels: 1; encoding: 'pcm_s16le' | 'float32'; frameMs: number; hopMs: number }
  /** speech shorter than this gives no embedding */
  minSpeechMs: number
  /** cosine at or above which a session speaker is named as an enrolled member */
  matchThreshold: number
  /** cosine at or above which an utterance joins a session speaker in diarization */
  sameVoiceThreshold: number
  /** cosine at or above which a voice is suggested (a person confirms) */
  suggestThreshold: number
  /** cosine at or above which an utterance or a session speaker counts as an enrolled voice in diarization (platform/speech/speakers.ts Anchors) */
  anchorThreshold: number
  /** the full naming rule (voice/judge.ts): normalized score, margin and evidence on top of the cosines */
  naming: { match: number; suggest: number; normalizedMatch: number; margin: number; minUtterances: number }
  /** background voices (unit vectors) that scores are normalized against; empty when the model has none */
  cohort: readonly (readonly number[])[]
  /**
   * The embedding of 16 kHz mono samples, or undefined when they hold too little speech.
   * `pitchHz`: the samples' median pitch when the caller has measured it already (saves the work).
   */
  embed(samples: Int16Array, hints?: { pitchHz?: number | undefined }): Promise<Float32Array | undefined>
  /** what a client needs to compute the same embeddings (JSON), or undefined when the model is a file */
  parameters(): Record<string, unknown> | undefined
  close?(): void
}

export class EmbeddingEngineError extends Error {
  override name = 'EmbeddingEngineError'
}
