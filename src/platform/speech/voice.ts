// Voice features over time, for telling where one voice stops and another starts inside an
// utterance (speakers who do not pause): per 20 ms frame, the pitch (autocorrelation, as
// pitch.ts) and the spectral envelope (log energy of 12 bands of a 512-point FFT, level removed).
// Two windows of speech either side of a word boundary are compared by both.
import { SAMPLE_RATE } from './audio.ts'
import { framePitch } from './pitch.ts'
import { fft } from './fft.ts'

const HOP = (SAMPLE_RATE / 1000) * 20
const WINDOW = 512
const BANDS = 12
const MIN_ENERGY = 150 * 150

export type VoiceFrame = { pitchHz: number | undefined; bands: Float64Array | undefined }

// Band edges on a mel-like scale from 100 Hz to 7.6 kHz, as FFT bin indexes.
const EDGES = (() => {
  const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700)
  const hz = (m: number) => 700 * (10 ** (m / 2595) - 1)
  const low = mel(100)
  const high = mel(7600)
  return Array.from({ length: BANDS + 1 }, (_, index) => Math.round((hz(low + ((high - low) * index) / BANDS) * WINDOW) / SAMPLE_RATE))
})()
const HANN = Float64Array.from({ length: WINDOW }, (_, index) => 0.5 - 0.5 * Math.cos((2 * Math.PI * index) / (WINDOW - 1)))

function frameBands(samples: Int16Array, start: number, re: Float64Array, im: Float64Array): Float64Array | undefined {
  let energy = 0
  for (let index = 0; index < WINDOW; index += 1) {
    const value = samples[start + index] ?? 0
    energy += value * value
    re[index] = value * HANN[index]!
    im[index] = 0
  }
  if (energy / WINDOW < MIN_ENERGY) return undefined
  fft(re, im)
  const bands = new Float64Array(BANDS)
  let mean = 0
  for (let band = 0; band < BANDS; band += 1) {
    let sum = 1
    for (let bin = EDGES[band]!; bin < Math.max(EDGES[band + 1]!, EDGES[band]! + 1); bin += 1) sum += re[bin]! * re[bin]! + im[bin]! * im[bin]!
    bands[band] = Math.log(sum)
    mean += bands[band]!
  }
  mean /= BANDS
  for (let band = 0; band < BANDS; band += 1) bands[band] = bands[band]! - mean
  return bands
}

/** One frame per 20 ms of the samples. */
export function voiceFrames(samples: Int16Array): VoiceFrame[] {
  const frames: VoiceFrame[] = []
  const re = new Float64Array(WINDOW)
  const im = new Float64Array(WINDOW)
  for (let start = 0; start + WINDOW <= samples.length; start += HOP) {
    frames.push({ pitchHz: framePitch(samples, start), bands: frameBands(samples, start, re, im) })
  }
  return frames
}

export const FRAME_MS = 20

export type VoiceSummary = { pitchHz: number | undefined; bands: Float64Array | undefined; voiced: number }

/** Median pitch and mean envelope of the frames between two times (ms from the start). */
export function summarize(frames: VoiceFrame[], fromMs: number, toMs: number): VoiceSummary {
  const pitches: number[] = []
  const sum = new Float64Array(BANDS)
  let count = 0
  for (let index = Math.max(0, Math.floor(fromMs / FRAME_MS)); index < Math.min(frames.length, Math.ceil(toMs / FRAME_MS)); index += 1) {
    const frame = frames[index]!
    if (frame.pitchHz !== undefined) pitches.push(frame.pitchHz)
    if (frame.bands) {
      for (let band = 0; band < BANDS; band += 1) sum[band] = sum[band]! + frame.bands[band]!
      count += 1
    }
  }
  pitches.sort((a, b) => a - b)
  return {
    pitchHz: pitches.length >= 3 ? pitches[Math.floor(pitches.length / 2)] : undefined,
    bands: count >= 5 ? sum.map((value) => value / count) : undefined,
    voiced: count,
  }
}

/**
 * How different two stretches sound: pitch distance in units of the same-voice ratio (≈ 3
 * semitones) plus envelope distance in units of a typical within-voice spread. About 1 and above:
 * likely another voice.
 */
export function voiceDistance(a: VoiceSummary, b: VoiceSummary): number {
  let distance = 0
  if (a.pitchHz !== undefined && b.pitchHz !== undefined) distance += Math.abs(Math.log(a.pitchHz / b.pitchHz)) / Math.log(1.19)
  if (a.bands && b.bands) {
    let squares = 0
    for (let band = 0; band < BANDS; band += 1) squares += (a.bands[band]! - b.bands[band]!) ** 2
    distance += Math.sqrt(squares / BANDS) / SPECTRAL_SCALE
  }
  return distance
}

/** Root-mean-square band difference (natural log units) counted as one unit of distance. */
const SPECTRAL_SCALE = 1.2
