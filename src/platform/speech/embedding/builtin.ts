// The built-in speaker embedding: no model file, nothing to download, plain TypeScript that
// runs the same on the server and in the browser. Per utterance: the mean and spread of 19 MFCCs
// over the speech frames plus the log median pitch, standardised with fixed background
// statistics, whitened against within-speaker variation (WCCN, fitted on training voices by
// eval/voices/train.ts: builtin-model.ts) and L2-normalised (39 numbers). An i-vector-like
// summary: it tells clearly different voices apart but takes near neighbours of one synthesizer
// for each other (docs/voice.md has its figures), and it is far weaker than a neural speaker
// model on real people in real rooms; operators who can supply one use VOICE_ENGINE=sherpa-onnx.
import { SAMPLE_RATE } from '../sample-rate.ts'
import { medianPitch } from '../pitch.ts'
import { CEPSTRA, FRAME_SAMPLES, frames, HOP_SAMPLES, speechFrames } from './features.ts'
import { BACKGROUND_MEAN, BACKGROUND_SPREAD, COHORT, WHITENING } from './builtin-model.ts'
import type { SpeakerEmbedder } from './types.ts'

export const BUILTIN_MODEL_VERSION = 'confer-mfcc-wccn-v2'

const MIN_SPEECH_FRAMES = 50
/** an utterance whose pitch cannot be measured (whispered, too short) gets the background pitch */
const FALLBACK_LOG_PITCH = BACKGROUND_MEAN[BACKGROUND_MEAN.length - 1]!

/** The raw, unstandardised features of an utterance, or undefined with too little speech. */
export function rawFeatures(samples: Int16Array, knownPitchHz?: number): number[] | undefined {
  const speech = speechFrames(frames(samples))
  if (speech.length < MIN_SPEECH_FRAMES) return undefined
  const count = speech.length
  const mean = new Array<number>(CEPSTRA - 1).fill(0)
  const square = new Array<number>(CEPSTRA - 1).fill(0)
  for (const frame of speech) {
    for (let k = 1; k < CEPSTRA; k += 1) {
      mean[k - 1]! += frame.cepstrum[k]! / count
      square[k - 1]! += frame.cepstrum[k]! ** 2 / count
    }
  }
  const spread = mean.map((value, index) => Math.sqrt(Math.max(0, square[index]! - value * value)))
  const pitch = knownPitchHz ?? medianPitch(samples)
  return [...mean, ...spread, pitch ? Math.log(pitch) : FALLBACK_LOG_PITCH]
}

export function embedRaw(raw: number[]): Float32Array {
  const standard = raw.map((value, index) => (value - BACKGROUND_MEAN[index]!) / BACKGROUND_SPREAD[index]!)
  const whitened = WHITENING.map((row) => row.reduce((sum, weight, index) => sum + weight * standard[index]!, 0))
  const length = Math.hypot(...whitened)
  return Float32Array.from(whitened, (value) => (length > 0 ? value / length : 0))
}

export function builtinEmbedder(): SpeakerEmbedder {
  return {
    name: 'builtin',
    modelVersion: BUILTIN_MODEL_VERSION,
    dimension: 2 * (CEPSTRA - 1) + 1,
    input: { sampleRate: SAMPLE_RATE, channels: 1, encoding: 'pcm_s16le', frameMs: (FRAME_SAMPLES * 1000) / SAMPLE_RATE, hopMs: (HOP_SAMPLES * 1000) / SAMPLE_RATE },
    minSpeechMs: (MIN_SPEECH_FRAMES * HOP_SAMPLES * 1000) / SAMPLE_RATE,
    matchThreshold: 0.78,
    suggestThreshold: 0.6,
    sameVoiceThreshold: 0.6,
    // Chosen on the development and first held-out voices (docs/voice.md).
    anchorThreshold: 0.8,
    naming: { match: 0.78, suggest: 0.6, normalizedMatch: 1.5, margin: 0.05, minUtterances: 1 },
    cohort: COHORT,
    async embed(samples, hints) {
      const raw = rawFeatures(samples, hints?.pitchHz)
      return raw ? embedRaw(raw) : undefined
    },
    parameters: () => ({
      features: { preEmphasis: 0.97, window: 'hamming', fftSize: 512, melBands: 40, melLowHz: 60, melHighHz: 7600, cepstra: CEPSTRA, dropC0: true, speechFramesWithinDb: 35, speechFloorDb: -65 },
      pitch: { method: 'normalized autocorrelation, 40 ms frames, median of frames with score > 0.6', minHz: 60, maxHz: 400 },
      backgroundMean: BACKGROUND_MEAN, backgroundSpread: BACKGROUND_SPREAD, whitening: WHITENING,
      minSpeechFrames: MIN_SPEECH_FRAMES,
    }),
  }
}
