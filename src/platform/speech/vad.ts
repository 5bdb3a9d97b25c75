// Voice activity detection: WebRTC's VAD (libfvad compiled to WebAssembly) over 20 ms frames,
// smoothed into utterances — voiced runs joined across short pauses, too-short blips dropped.
import createFvad from '@echogarden/fvad-wasm'
import { SAMPLE_RATE } from './audio.ts'

const FRAME = (SAMPLE_RATE / 1000) * 20

type FvadModule = {
  _fvad_new(): number
  _fvad_free(handle: number): void
  _fvad_set_mode(handle: number, mode: number): number
  _fvad_set_sample_rate(handle: number, rate: number): number
  _fvad_process(handle: number, frame: number, length: number): number
  _malloc(size: number): number
  _free(pointer: number): void
  HEAP16: Int16Array
}

let loaded: Promise<FvadModule> | undefined
const fvad = () => (loaded ??= (createFvad as unknown as () => Promise<FvadModule>)())

/** true per 20 ms frame that holds speech (mode 0–3: higher is stricter). */
export async function voicedFrames(samples: Int16Array, mode = 2): Promise<boolean[]> {
  const module = await fvad()
  const handle = module._fvad_new()
  const pointer = module._malloc(FRAME * 2)
  try {
    module._fvad_set_mode(handle, mode)
    module._fvad_set_sample_rate(handle, SAMPLE_RATE)
    const frames: boolean[] = []
    for (let start = 0; start + FRAME <= samples.length; start += FRAME) {
      module.HEAP16.set(samples.subarray(start, start + FRAME), pointer >> 1)
      frames.push(module._fvad_process(handle, pointer, FRAME) === 1)
    }
    return frames
  } finally {
    module._free(pointer)
    module._fvad_free(handle)
  }
}

export type Utterance = { startSample: number; endSample: number }

export type UtteranceOptions = {
  /** pauses shorter than this stay inside one utterance */
  joinGapMs?: number
  /** utterances shorter than this are noise */
  minSpeechMs?: number
  /** audio kept before and after the voiced frames */
  padMs?: number
}

/** Utterances of the samples, in order. The last one may still be open (speech up to the end). */
export async function detectUtterances(samples: Int16Array, options: UtteranceOptions = {}): Promise<Utterance[]> {
  const joinGap = Math.round((options.joinGapMs ?? 400) / 20)
  const minSpeech = Math.round((options.minSpeechMs ?? 250) / 20)
  const pad = Math.round((options.padMs ?? 100) / 20)
  const frames = await voicedFrames(samples)
  const runs: [number, number][] = []
  for (let index = 0; index < frames.length; index += 1) {
    if (!frames[index]) continue
    const last = runs[runs.length - 1]
    if (last && index - last[1] <= joinGap) last[1] = index + 1
    else runs.push([index, index + 1])
  }
  return runs
    .filter(([start, end]) => end - start >= minSpeech)
    .map(([start, end]) => ({
      startSample: Math.max(0, (start - pad) * FRAME),
      endSample: Math.min(samples.length, (end + pad) * FRAME),
    }))
}
