// Fits the built-in engine's background statistics and its within-speaker whitening (WCCN) on
// training voices that are in neither eval split (espeak-ng variants; none of the f3, m3 or f4
// variants the held-out voices use), and writes src/platform/speech/embedding/builtin-model.ts.
// `node eval/voices/train.ts` (needs espeak-ng and ffmpeg). Deterministic for a given espeak-ng.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pcmSamples } from '../../src/platform/speech/audio.ts'
import { rawFeatures } from '../../src/platform/speech/embedding/builtin.ts'
import { tmpdir } from 'node:os'

export const TRAINING_VOICES = [
  'en+m4', 'en+m5', 'en+m6', 'en+m7', 'en+f5', 'en-us+m1', 'en-us+f1', 'en-us+m2', 'en-us+f2', 'en-gb-x-gbclan+m4',
  'en-029+f5', 'en-us-nyc+m6', 'en+klatt', 'en+klatt2', 'en+Alex', 'en+benjamin', 'en+Andy', 'en+Annie', 'en+belinda',
  'en+boris', 'en+david', 'en+linda', 'en+paul', 'en+robert', 'en+steph', 'en+travis', 'en+zac', 'en-gb-x-gbcwmd+m2',
]
const TEXTS = [
  'We looked at the numbers again this morning and they still do not add up.', 'Could you share the link to the design file with me?',
  'The server restarted twice during the night and nobody noticed.', 'I would like to hear what the customers said about pricing.',
  'Next week we start the migration of the billing system.', 'Honestly I think the deadline is too tight for this scope.',
  'Let me check with legal before we sign anything.', 'The meeting room on the third floor is booked all day.',
]

function samplesOf(voice: string, text: string) {
  const wav = path.join(tmpdir(), `confer-train-${process.pid}.wav`)
  execFileSync('espeak-ng', ['-v', voice, '-w', wav, text])
  return pcmSamples(execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', wav, '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'], { maxBuffer: 1 << 26 }))
}

/** Eigen-decomposition of a symmetric matrix (cyclic Jacobi): [eigenvalues, eigenvectors as columns]. */
function eigen(matrix: number[][]): [number[], number[][]] {
  const n = matrix.length
  const a = matrix.map((row) => [...row])
  const v: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)))
  for (let sweep = 0; sweep < 100; sweep += 1) {
    let off = 0
    for (let p = 0; p < n; p += 1) for (let q = p + 1; q < n; q += 1) off += a[p]![q]! ** 2
    if (off < 1e-18) break
    for (let p = 0; p < n; p += 1) {
      for (let q = p + 1; q < n; q += 1) {
        if (Math.abs(a[p]![q]!) < 1e-15) continue
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * a[p]![q]!)
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < n; k += 1) {
          const akp = a[k]![p]!
          const akq = a[k]![q]!
          a[k]![p] = c * akp - s * akq
          a[k]![q] = s * akp + c * akq
        }
        for (let k = 0; k < n; k += 1) {
          const apk = a[p]![k]!
          const aqk = a[q]![k]!
          a[p]![k] = c * apk - s * aqk
          a[q]![k] = s * apk + c * aqk
        }
        for (let k = 0; k < n; k += 1) {
          const vkp = v[k]![p]!
          const vkq = v[k]![q]!
          v[k]![p] = c * vkp - s * vkq
          v[k]![q] = s * vkp + c * vkq
        }
      }
    }
  }
  return [a.map((row, i) => row[i]!), v]
}

// Raw features are cached per espeak-ng voice list (re-fitting with another regularization is then instant).
const cacheFile = path.join(tmpdir(), 'confer-train-features.json')
const cached = existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) as { voices: string[]; features: number[][][] } : undefined
const perVoice = cached && cached.voices.join() === TRAINING_VOICES.join() && cached.features[0]?.[0]?.length === rawFeatures(samplesOf(TRAINING_VOICES[0]!, TEXTS[0]!))!.length
  ? cached.features
  : TRAINING_VOICES.map((voice) => TEXTS.map((text) => rawFeatures(samplesOf(voice, text))!).filter(Boolean))
writeFileSync(cacheFile, JSON.stringify({ voices: TRAINING_VOICES, features: perVoice }))
const all = perVoice.flat()
const size = all[0]!.length
const mean = Array.from({ length: size }, (_, i) => all.reduce((sum, row) => sum + row[i]!, 0) / all.length)
const spread = Array.from({ length: size }, (_, i) => Math.sqrt(all.reduce((sum, row) => sum + (row[i]! - mean[i]!) ** 2, 0) / all.length) || 1)
const standard = perVoice.map((rows) => rows.map((row) => row.map((value, i) => (value - mean[i]!) / spread[i]!)))
// Within-speaker covariance: how features move with the words rather than the voice.
const within = Array.from({ length: size }, () => new Array<number>(size).fill(0))
let count = 0
for (const rows of standard) {
  const centre = Array.from({ length: size }, (_, i) => rows.reduce((sum, row) => sum + row[i]!, 0) / rows.length)
  for (const row of rows) {
    for (let i = 0; i < size; i += 1) for (let j = 0; j < size; j += 1) within[i]![j]! += (row[i]! - centre[i]!) * (row[j]! - centre[j]!)
    count += 1
  }
}
const regularization = Number(process.env.WCCN_REGULARIZATION ?? 0.1)
const trace = within.reduce((sum, row, i) => sum + row[i]! / count, 0) / size
for (let i = 0; i < size; i += 1) for (let j = 0; j < size; j += 1) within[i]![j] = within[i]![j]! / count + (i === j ? regularization * trace : 0)
const [values, vectors] = eigen(within)
// W^-1/2 = V diag(1/sqrt(λ)) Vᵀ
const whitening = Array.from({ length: size }, (_, i) => Array.from({ length: size }, (_, j) => {
  let sum = 0
  for (let k = 0; k < size; k += 1) sum += vectors[i]![k]! * vectors[j]![k]! / Math.sqrt(values[k]!)
  return sum
}))
const round = (value: number) => Math.round(value * 1e5) / 1e5
// The impostor cohort for score normalization: each training voice's centroid (as the engine embeds it).
const embed = (row: number[]) => {
  const whitened = whitening.map((weights) => weights.reduce((sum, weight, i) => sum + weight * row[i]!, 0))
  const length = Math.hypot(...whitened)
  return whitened.map((value) => value / length)
}
const cohort = standard.map((rows) => {
  const sum = new Array<number>(size).fill(0)
  for (const row of rows) embed(row).forEach((value, i) => { sum[i]! += value })
  const length = Math.hypot(...sum)
  return sum.map((value) => round(value / length))
})
const file = `// Generated by eval/voices/train.ts from ${TRAINING_VOICES.length} espeak-ng training voices (${TEXTS.length} sentences each),
// none of them in eval/voices/split.ts. Do not edit by hand: run \`node eval/voices/train.ts\`.
/** mean and spread of the raw features (19 MFCC means, 19 MFCC spreads, log pitch) */
export const BACKGROUND_MEAN = ${JSON.stringify(mean.map(round))}
export const BACKGROUND_SPREAD = ${JSON.stringify(spread.map(round))}
/** within-speaker whitening (WCCN, regularised by ${regularization} of the mean variance) of the standardised features */
export const WHITENING = ${JSON.stringify(whitening.map((row) => row.map(round)))}
/** background voices (one unit centroid per training voice): the impostor cohort identification normalizes scores against */
export const COHORT = ${JSON.stringify(cohort)}
`
writeFileSync(new URL('../../src/platform/speech/embedding/builtin-model.ts', import.meta.url), file)
console.log(`trained on ${all.length} utterances of ${TRAINING_VOICES.length} voices; eigenvalues ${Math.min(...values).toFixed(3)}…${Math.max(...values).toFixed(3)}`)
