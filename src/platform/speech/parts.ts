// An utterance cut into the parts an engine without word times recognizes one by one
// (moonshine.ts): at voice changes found from the audio alone (candidate boundaries every 100 ms,
// the same comparison of pitch and spectral envelope as between words: turns.ts), each cut moved
// to the quietest moment nearby so no word is split; and a part longer than MAX_PART_MS is cut at
// its quietest moment (encoder-decoder models are trained on short clips and drift on long ones).
import { SAMPLE_RATE } from './audio.ts'
import { changesAmong } from './turns.ts'
import { FRAME_MS, voiceFrames } from './voice.ts'

export type SpeechPart = {
  startSample: number
  endSample: number
  /** where its speech starts and ends, ms from the start of the utterance */
  speechStartMs: number
  speechEndMs: number
  /** true when a new voice starts here (not for the first part, nor for a cut made for length) */
  newTurn: boolean
  /** its stretches of sound, ms from the start of the utterance: pauses of 100 ms and more between them */
  voiced: [number, number][]
}

const FRAME = (SAMPLE_RATE / 1000) * FRAME_MS
const STEP_MS = 100
/** a voice-change cut moves to the quietest 20 ms frame within this distance */
const SNAP_MS = 250
const MAX_PART_MS = 20_000
/** a cut for length falls in the last part of the window, so parts stay long enough to read */
const MIN_PART_MS = 8_000

function frameLoudness(samples: Int16Array): Float64Array {
  const loudness = new Float64Array(Math.ceil(samples.length / FRAME))
  for (let frame = 0; frame < loudness.length; frame += 1) {
    let sum = 0
    const end = Math.min(samples.length, (frame + 1) * FRAME)
    for (let index = frame * FRAME; index < end; index += 1) sum += samples[index]! * samples[index]!
    loudness[frame] = sum / Math.max(1, end - frame * FRAME)
  }
  return loudness
}

function quietestFrame(loudness: Float64Array, from: number, to: number): number {
  let best = Math.max(0, from)
  for (let frame = best; frame < Math.min(loudness.length, to); frame += 1) if (loudness[frame]! < loudness[best]!) best = frame
  return best
}

export function speechParts(samples: Int16Array): SpeechPart[] {
  const loudness = frameLoudness(samples)
  const durationMs = (samples.length / SAMPLE_RATE) * 1000
  const boundaries: number[] = []
  for (let at = 0; at < durationMs; at += STEP_MS) boundaries.push(at)
  const changes = changesAmong(voiceFrames(samples), boundaries)
    .map((index) => quietestFrame(loudness, (boundaries[index]! - SNAP_MS) / FRAME_MS, (boundaries[index]! + SNAP_MS) / FRAME_MS))
  const cuts: { frame: number; newTurn: boolean }[] = [{ frame: 0, newTurn: false }, ...changes.map((frame) => ({ frame, newTurn: true })), { frame: loudness.length, newTurn: false }]
  const parts: SpeechPart[] = []
  for (let index = 0; index + 1 < cuts.length; index += 1) {
    let from = cuts[index]!.frame
    const to = cuts[index + 1]!.frame
    let newTurn = cuts[index]!.newTurn
    while ((to - from) * FRAME_MS > MAX_PART_MS) {
      const cut = quietestFrame(loudness, from + MIN_PART_MS / FRAME_MS, from + MAX_PART_MS / FRAME_MS)
      parts.push(partOf(loudness, samples.length, from, cut, newTurn))
      from = cut
      newTurn = false
    }
    if (to > from) parts.push(partOf(loudness, samples.length, from, to, newTurn))
  }
  return parts
}

/** Frames quieter than this share of the part's loudest (power; −20 dB) are a pause between words or sentences. */
const PAUSE_SHARE = 1 / 100
/** A quiet stretch shorter than this is inside a word or between two words said together. */
const MIN_PAUSE_FRAMES = 5

/** The part's sample range, where its speech is (frames within 1/20 of its loudest) and its stretches of sound. */
function partOf(loudness: Float64Array, length: number, from: number, to: number, newTurn: boolean): SpeechPart {
  let peak = 0
  for (let frame = from; frame < to; frame += 1) peak = Math.max(peak, loudness[frame]!)
  let first = from
  while (first < to - 1 && loudness[first]! < peak / 400) first += 1
  let last = to - 1
  while (last > first && loudness[last]! < peak / 400) last -= 1
  const voiced: [number, number][] = []
  let quiet = 0
  for (let frame = first; frame <= last; frame += 1) {
    if (loudness[frame]! < peak * PAUSE_SHARE) {
      quiet += 1
      continue
    }
    const run = voiced[voiced.length - 1]
    if (run && quiet < MIN_PAUSE_FRAMES) run[1] = (frame + 1) * FRAME_MS
    else voiced.push([frame * FRAME_MS, (frame + 1) * FRAME_MS])
    quiet = 0
  }
  return {
    startSample: from * FRAME,
    endSample: Math.min(length, to * FRAME),
    speechStartMs: first * FRAME_MS,
    speechEndMs: (last + 1) * FRAME_MS,
    newTurn,
    voiced: voiced.length ? voiced : [[first * FRAME_MS, (last + 1) * FRAME_MS]],
  }
}
