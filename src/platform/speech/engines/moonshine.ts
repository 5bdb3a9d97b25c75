// Moonshine (Useful Sensors, MIT): English encoder-decoder speech models run in process by
// onnxruntime-node on one thread (docs/speech.md, "The default engine"). Two ship in `models/`
// as quantized ONNX: base (61 M parameters, 63 MB, the default; from the npm package
// @usefulsensors/moonshine-js 0.1.12) and tiny (27 M, 28 MB; @moonshine-ai/moonshine-js 0.1.29),
// each with `model.json` giving its decoder's shape; the vocabulary is LLaMA's
// (llama-tokenizer-js). It writes punctuated, capitalized text but gives no word times, so each
// utterance is first cut where the voice changes (from the audio alone: parts.ts) and where it
// runs long, each part is recognized on its own, and the words get times spread over their
// part's speech.
import { access, readFile } from 'node:fs/promises'
import path from 'node:path'
import { SAMPLE_RATE } from '../audio.ts'
import { speechParts, type SpeechPart } from '../parts.ts'
import { SpeechEngineError, type Recognized, type RecognizedWord, type SpeechEngine } from './types.ts'

type Tensor = { data: ArrayLike<number | bigint | boolean>; dims: readonly number[] }
type Session = { run(feeds: Record<string, unknown>): Promise<Record<string, Tensor>> }
type Ort = {
  InferenceSession: { create(file: string, options: Record<string, unknown>): Promise<Session> }
  Tensor: new (type: string, data: unknown, dims: number[]) => Tensor
}
type Tokenizer = { decode(tokens: number[], addBos?: boolean, addPrecedingSpace?: boolean): string }

/** The decoder's shape, from `model.json` beside the weights (tiny: 6 layers, 8 key/value heads of 36). */
type Shape = { layers: number; heads: number; headDim: number }
const START_TOKEN = 1
const END_TOKEN = 2
/** At most this many tokens per second of audio (the model card's bound against runaway output). */
const TOKENS_PER_SECOND = 6
/** Shorter than this is not worth a pass (a click, a breath). */
const MIN_SAMPLES = SAMPLE_RATE * 0.25

export const DEFAULT_MOONSHINE_DIR = path.resolve(import.meta.dirname, '../../../../models/moonshine-base')

export async function moonshineAvailable(modelDir = DEFAULT_MOONSHINE_DIR): Promise<boolean> {
  try {
    await access(path.join(modelDir, 'encoder_model.onnx'))
    await access(path.join(modelDir, 'decoder_model_merged.onnx'))
    await access(path.join(modelDir, 'model.json'))
    await import('onnxruntime-node')
    return true
  } catch {
    return false
  }
}

type Model = { ort: Ort; encoder: Session; decoder: Session; tokenizer: Tokenizer; shape: Shape }

async function loadModel(modelDir: string): Promise<Model> {
  try {
    const ort = (await import('onnxruntime-node')) as unknown as Ort
    const tokenizer = (await import('llama-tokenizer-js')).default as unknown as Tokenizer
    // One thread each: transcription runs beside the server and is measured per core (npm run bench).
    const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' }
    const shape = JSON.parse(await readFile(path.join(modelDir, 'model.json'), 'utf8')) as Shape
    const encoder = await ort.InferenceSession.create(path.join(modelDir, 'encoder_model.onnx'), options)
    const decoder = await ort.InferenceSession.create(path.join(modelDir, 'decoder_model_merged.onnx'), options)
    return { ort, encoder, decoder, tokenizer, shape }
  } catch (error) {
    throw new SpeechEngineError(`moonshine: the model in ${modelDir} cannot be loaded (${(error as Error).message})`)
  }
}

/** Greedy decoding with the decoder's key/value cache; the mean token probability is the confidence. */
async function recognize(model: Model, samples: Int16Array): Promise<{ text: string; confidence: number }> {
  const { ort, encoder, decoder, tokenizer, shape } = model
  const audio = Float32Array.from(samples, (value) => value / 32768)
  const { last_hidden_state: hidden } = await encoder.run({ input_values: new ort.Tensor('float32', audio, [1, audio.length]) })
  const past: Record<string, Tensor> = {}
  for (let layer = 0; layer < shape.layers; layer += 1) {
    for (const side of ['decoder', 'encoder']) {
      for (const part of ['key', 'value']) past[`past_key_values.${layer}.${side}.${part}`] = new ort.Tensor('float32', new Float32Array(0), [0, shape.heads, 1, shape.headDim])
    }
  }
  const tokens: number[] = []
  let logProbability = 0
  let next = START_TOKEN
  const limit = Math.max(4, Math.trunc((samples.length / SAMPLE_RATE) * TOKENS_PER_SECOND))
  for (let step = 0; step < limit; step += 1) {
    const output = await decoder.run({
      input_ids: new ort.Tensor('int64', BigInt64Array.of(BigInt(next)), [1, 1]),
      encoder_hidden_states: hidden,
      use_cache_branch: new ort.Tensor('bool', [step > 0], [1]),
      ...past,
    })
    const logits = output.logits!.data as Float32Array
    let best = 0
    for (let index = 1; index < logits.length; index += 1) if (logits[index]! > logits[best]!) best = index
    let sum = 0
    for (let index = 0; index < logits.length; index += 1) sum += Math.exp(logits[index]! - logits[best]!)
    if (best === END_TOKEN) break
    logProbability -= Math.log(sum)
    tokens.push(best)
    if (repeats(tokens)) break
    next = best
    // The encoder's keys and values are computed on the first step and kept; the decoder's grow.
    for (const [name, value] of Object.entries(output)) {
      if (!name.startsWith('present.')) continue
      const key = name.replace('present.', 'past_key_values.')
      if (step === 0 || key.includes('.decoder.')) past[key] = value
    }
  }
  // The model sometimes writes no space after a comma ("three hours,not a day").
  const text = tokenizer.decode(tokens, false, false).replace(/([,;!?])(?=\p{L})/gu, '$1 ').replace(/\s+/g, ' ').trim()
  return { text, confidence: tokens.length ? Number(Math.exp(logProbability / tokens.length).toFixed(3)) : 0 }
}

/** A run of the same tokens over and over (a model's loop on noise): stop at its second turn. */
function repeats(tokens: number[]): boolean {
  for (const size of [1, 2, 3, 4, 6, 8]) {
    const times = size === 1 ? 6 : 3
    if (tokens.length < size * times) continue
    const tail = tokens.slice(-size)
    let same = true
    for (let time = 2; time <= times && same; time += 1) {
      const earlier = tokens.slice(-size * time, -size * (time - 1))
      same = earlier.every((token, index) => token === tail[index])
    }
    if (same) return true
  }
  return false
}

const WORD = /[\p{L}\p{N}]/u

/**
 * The part's words, each given a share of its sound in proportion to its length: laid over the
 * stretches of sound only, so a pause falls between words (where sentences and turns end) rather
 * than inside one.
 */
export function timedWords(text: string, part: SpeechPart, confidence: number): RecognizedWord[] {
  const tokens = text.split(/\s+/).filter((token) => WORD.test(token))
  const total = tokens.reduce((sum, token) => sum + token.length + 1, 0)
  const sound = part.voiced.reduce((sum, [start, end]) => sum + end - start, 0)
  // The moment `share` of the way through the part's sound.
  const at = (share: number) => {
    let left = share * sound
    for (const [start, end] of part.voiced) {
      if (left <= end - start) return Math.round(start + left)
      left -= end - start
    }
    return part.voiced[part.voiced.length - 1]![1]
  }
  let done = 0
  return tokens.map((token) => {
    const startMs = at(done / total)
    done += token.length + 1
    // The word ends where its share does, or where its stretch of sound does, whichever is first.
    const stretch = part.voiced.find(([start, end]) => startMs >= start && startMs < end)
    const endMs = Math.max(startMs, Math.min(at((done - 1) / total), stretch ? stretch[1] : Infinity))
    return { word: token, startMs, endMs, confidence }
  })
}

/** English only: `auto` takes it when STT_LANGUAGE is English (engines/index.ts). */
export function moonshineEngine(modelDir = DEFAULT_MOONSHINE_DIR): SpeechEngine {
  let loading: Promise<Model> | undefined
  const model = () => (loading ??= loadModel(modelDir).catch((error: unknown) => {
    loading = undefined
    throw error
  }))
  return {
    name: 'moonshine',
    async transcribe(utterances) {
      const loaded = await model()
      const results: Recognized[] = []
      for (const samples of utterances) {
        const words: RecognizedWord[] = []
        const texts: string[] = []
        const turnStarts: number[] = []
        let confidence = 0
        let counted = 0
        // A new voice whose first part is too short or silent starts its turn at its next words.
        let newTurn = false
        for (const part of speechParts(samples)) {
          newTurn ||= part.newTurn
          const slice = samples.subarray(part.startSample, part.endSample)
          if (slice.length < MIN_SAMPLES) continue
          const heard = await recognize(loaded, slice)
          // A part ends where a voice stops or a pause is: its last sentence ends there too.
          if (heard.text && !/[.!?…]["')\]]*$/.test(heard.text)) heard.text = `${heard.text.replace(/[,;:]+$/, '')}.`
          const partWords = timedWords(heard.text, part, heard.confidence)
          if (partWords.length === 0) continue
          if (newTurn && words.length > 0) turnStarts.push(words.length)
          newTurn = false
          words.push(...partWords)
          texts.push(heard.text)
          confidence += heard.confidence * partWords.length
          counted += partWords.length
        }
        results.push({
          text: texts.join(' '),
          words,
          ...(turnStarts.length ? { turnStarts } : {}),
          ...(counted ? { confidence: Number((confidence / counted).toFixed(3)) } : {}),
          language: 'en',
        })
      }
      return results
    },
  }
}
