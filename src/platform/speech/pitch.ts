// Pitch of a voice: normalized autocorrelation over 40 ms frames of voiced audio, median over the
// frames that are clearly periodic. Enough to tell voices apart where no speaker model exists.
import { SAMPLE_RATE } from './sample-rate.ts'

const FRAME = (SAMPLE_RATE / 1000) * 40
const MIN_HZ = 60
const MAX_HZ = 400

/** Pitch (Hz) of the 40 ms frame starting at `start`, or undefined when it is not clearly periodic. */
export function framePitch(samples: Int16Array, start: number): number | undefined {
  if (start + FRAME > samples.length) return undefined
  let energy = 0
  for (let index = start; index < start + FRAME; index += 1) energy += samples[index]! * samples[index]!
  if (energy / FRAME < 200 * 200) return undefined
  const minLag = Math.floor(SAMPLE_RATE / MAX_HZ)
  const maxLag = Math.ceil(SAMPLE_RATE / MIN_HZ)
  let bestLag = 0
  let best = 0
  for (let lag = minLag; lag <= maxLag; lag += 1) {
    let sum = 0
    let norm = 0
    for (let index = start; index < start + FRAME - lag; index += 1) {
      sum += samples[index]! * samples[index + lag]!
      norm += samples[index + lag]! * samples[index + lag]!
    }
    const score = norm > 0 ? sum / Math.sqrt(energy * norm) : 0
    if (score > best) {
      best = score
      bestLag = lag
    }
  }
  return best > 0.6 && bestLag > 0 ? SAMPLE_RATE / bestLag : undefined
}

/** Median pitch (Hz) of the samples, or undefined when too little of it is voiced. */
export function medianPitch(samples: Int16Array): number | undefined {
  const pitches: number[] = []
  for (let start = 0; start + FRAME <= samples.length; start += FRAME / 2) {
    const pitch = framePitch(samples, start)
    if (pitch !== undefined) pitches.push(pitch)
  }
  if (pitches.length < 3) return undefined
  pitches.sort((a, b) => a - b)
  return pitches[Math.floor(pitches.length / 2)]
}
