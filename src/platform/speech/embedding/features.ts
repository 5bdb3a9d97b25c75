// Frame-level features of 16 kHz speech for the built-in speaker embedding: log mel energies
// (25 ms Hamming windows every 10 ms, 40 bands 60–7600 Hz) and their cepstrum (MFCC). Plain
// TypeScript, no model file: the same code runs on the server and in the web client.
import { SAMPLE_RATE } from '../sample-rate.ts'
import { fft } from '../fft.ts'

export const FRAME_SAMPLES = 400
export const HOP_SAMPLES = 160
const FFT_SIZE = 512
export const MEL_BANDS = 40
export const CEPSTRA = 20
const LOW_HZ = 60
const HIGH_HZ = 7600

const melOf = (hz: number) => 2595 * Math.log10(1 + hz / 700)
const hzOf = (mel: number) => 700 * (10 ** (mel / 2595) - 1)

const hamming = Float64Array.from({ length: FRAME_SAMPLES }, (_, index) => 0.54 - 0.46 * Math.cos((2 * Math.PI * index) / (FRAME_SAMPLES - 1)))

/** Triangular mel filters over the FFT bins: [band][bin] weights (sparse as start + weights). */
const filters = (() => {
  const low = melOf(LOW_HZ)
  const high = melOf(HIGH_HZ)
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, index) => hzOf(low + ((high - low) * index) / (MEL_BANDS + 1)))
  const binHz = SAMPLE_RATE / FFT_SIZE
  return Array.from({ length: MEL_BANDS }, (_, band) => {
    const [left, center, right] = [edges[band]!, edges[band + 1]!, edges[band + 2]!]
    const start = Math.floor(left / binHz)
    const end = Math.ceil(right / binHz)
    const weights: number[] = []
    for (let bin = start; bin <= end; bin += 1) {
      const hz = bin * binHz
      weights.push(hz <= left || hz >= right ? 0 : hz <= center ? (hz - left) / (center - left) : (right - hz) / (right - center))
    }
    return { start, weights }
  })
})()

const dct = Array.from({ length: CEPSTRA }, (_, k) => Float64Array.from({ length: MEL_BANDS }, (_, n) => Math.cos((Math.PI * k * (n + 0.5)) / MEL_BANDS)))

export type Frame = { logMel: Float64Array; cepstrum: Float64Array; energyDb: number }

/** Features of every frame of the samples. */
export function frames(samples: Int16Array): Frame[] {
  const result: Frame[] = []
  const re = new Float64Array(FFT_SIZE)
  const im = new Float64Array(FFT_SIZE)
  for (let start = 0; start + FRAME_SAMPLES <= samples.length; start += HOP_SAMPLES) {
    re.fill(0)
    im.fill(0)
    let previous = start > 0 ? samples[start - 1]! : 0
    let energy = 0
    for (let index = 0; index < FRAME_SAMPLES; index += 1) {
      const sample = samples[start + index]!
      const emphasized = (sample - 0.97 * previous) / 32768
      previous = sample
      re[index] = emphasized * hamming[index]!
      energy += (sample / 32768) ** 2
    }
    fft(re, im)
    const logMel = new Float64Array(MEL_BANDS)
    for (const [band, { start: first, weights }] of filters.entries()) {
      let sum = 0
      for (const [offset, weight] of weights.entries()) {
        const bin = first + offset
        if (weight > 0 && bin <= FFT_SIZE / 2) sum += weight * (re[bin]! ** 2 + im[bin]! ** 2)
      }
      logMel[band] = Math.log(sum + 1e-8)
    }
    const cepstrum = new Float64Array(CEPSTRA)
    for (let k = 0; k < CEPSTRA; k += 1) {
      let sum = 0
      for (let n = 0; n < MEL_BANDS; n += 1) sum += dct[k]![n]! * logMel[n]!
      cepstrum[k] = sum
    }
    result.push({ logMel, cepstrum, energyDb: 10 * Math.log10(energy / FRAME_SAMPLES + 1e-12) })
  }
  return result
}

/** The frames that carry speech: within 35 dB of the loudest frame and above an absolute floor. */
export function speechFrames(all: Frame[]): Frame[] {
  if (all.length === 0) return []
  const loudest = Math.max(...all.map((frame) => frame.energyDb))
  return all.filter((frame) => frame.energyDb > loudest - 35 && frame.energyDb > -65)
}
