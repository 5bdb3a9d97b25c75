// The built-in speaker embedding: no model file, nothing to download, plain TypeScript that
// runs the same on the server and in the browser. Per utterance: the mean and spread of 19 MFCCs
// over the speech frames plus the log median pitch, standardised with fixed background
// statistics and L2-normalised (39 numbers). It is an i-vector-like summary without a trained
// projection: it tells clearly different voices apart (synthetic voices in eval/voices, see
// docs/voice.md for what it gets right and wrong) and is far weaker than a neural speaker model
// on real people in real rooms; operators who can supply one use VOICE_ENGINE=sherpa-onnx.
import { SAMPLE_RATE } from '../audio.ts'
import { medianPitch } from '../pitch.ts'
import { CEPSTRA, FRAME_SAMPLES, frames, HOP_SAMPLES, speechFrames } from './features.ts'
import type { SpeakerEmbedder } from './types.ts'

export const BUILTIN_MODEL_VERSION = 'confer-mfcc-stats-v1'

/**
 * Background statistics (mean, spread) of the raw features, measured on the development voices of
 * eval/voices/split.ts only (never the held-out ones): [19 MFCC means, 19 MFCC spreads, log pitch].
 */
const BACKGROUND_MEAN = [1.15,  -12.702,  20.118,  -16.182,  -9.06,  1.056,  -17.282,  2.809,  -3.986,  2.089,  -3.344,  -2.628,  2.136,  -2.03,  -3.179,  0.548,  -2.135,  -2.029,  -1.785,  40.759,  21.452,  26.674,  19.566,  15.817,  17.954,  15.582,  13.124,  10.357,  8.533,  8.517,  8.383,  7.306,  7.048,  6.657,  6,  6.129,  5.076,  4.899,  4.798]
const BACKGROUND_SPREAD = [30.83,  17.544,  8.922,  8.016,  4.683,  6.141,  4.06,  3.936,  3.058,  3.228,  3.556,  2.434,  2.229,  3.488,  2.433,  3.261,  2.992,  1.625,  1.891,  7.196,  2.431,  3.178,  2.78,  3.085,  4.98,  3.781,  2.7,  1.878,  1.85,  1.571,  1.822,  1.47,  1.526,  1.341,  1.404,  1.404,  1.439,  0.886,  0.319]
/** relative weight of the groups after standardising: spreads vary with the words more than means */
const SPREAD_WEIGHT = 0.5
const PITCH_WEIGHT = 2
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
  const weighted = raw.map((value, index) => {
    const standard = (value - BACKGROUND_MEAN[index]!) / BACKGROUND_SPREAD[index]!
    if (index === raw.length - 1) return standard * PITCH_WEIGHT
    return index >= CEPSTRA - 1 ? standard * SPREAD_WEIGHT : standard
  })
  const length = Math.hypot(...weighted)
  return Float32Array.from(weighted, (value) => (length > 0 ? value / length : 0))
}

export function builtinEmbedder(): SpeakerEmbedder {
  return {
    name: 'builtin',
    modelVersion: BUILTIN_MODEL_VERSION,
    dimension: 2 * (CEPSTRA - 1) + 1,
    input: { sampleRate: SAMPLE_RATE, channels: 1, encoding: 'pcm_s16le', frameMs: (FRAME_SAMPLES * 1000) / SAMPLE_RATE, hopMs: (HOP_SAMPLES * 1000) / SAMPLE_RATE },
    minSpeechMs: (MIN_SPEECH_FRAMES * HOP_SAMPLES * 1000) / SAMPLE_RATE,
    matchThreshold: 0.7,
    suggestThreshold: 0.55,
    async embed(samples, hints) {
      const raw = rawFeatures(samples, hints?.pitchHz)
      return raw ? embedRaw(raw) : undefined
    },
    parameters: () => ({
      features: { preEmphasis: 0.97, window: 'hamming', fftSize: 512, melBands: 40, melLowHz: 60, melHighHz: 7600, cepstra: CEPSTRA, dropC0: true, speechFramesWithinDb: 35, speechFloorDb: -65 },
      pitch: { method: 'normalized autocorrelation, 40 ms frames, median of frames with score > 0.6', minHz: 60, maxHz: 400 },
      backgroundMean: BACKGROUND_MEAN, backgroundSpread: BACKGROUND_SPREAD, spreadWeight: SPREAD_WEIGHT, pitchWeight: PITCH_WEIGHT,
      minSpeechFrames: MIN_SPEECH_FRAMES,
    }),
  }
}
