// A neural speaker embedding through sherpa-onnx (k2-fsa's ONNX runtime for speech) with a model
// file the operator supplies (VOICE_MODEL_PATH: e.g. a 3D-Speaker or WeSpeaker ONNX export). No
// model ships with Confer. The model version names the file's content, so embeddings of another
// model are never compared with these.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { createRequire } from 'node:module'
import { SAMPLE_RATE } from '../audio.ts'
import { EmbeddingEngineError, type SpeakerEmbedder } from './types.ts'

type Stream = { acceptWaveform(input: { sampleRate: number; samples: Float32Array }): void; inputFinished(): void }
type Extractor = { dim: number; createStream(): Stream; isReady(stream: Stream): boolean; compute(stream: Stream): Float32Array }
type SherpaModule = { SpeakerEmbeddingExtractor: new (config: { model: string; numThreads: number; debug: boolean; provider: string }) => Extractor }

const MIN_SPEECH_MS = 1000

export function loadSherpa(): SherpaModule {
  try {
    return createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule
  } catch (error) {
    throw new EmbeddingEngineError(`VOICE_ENGINE=sherpa-onnx: the sherpa-onnx-node package could not be loaded (${(error as Error).message})`)
  }
}

/**
 * Loads the model once in a child process first: onnxruntime aborts the whole process (not a JS
 * exception) on a file that is not a model, and a bad VOICE_MODEL_PATH must be an error, not a crash.
 */
function probeModel(modelPath: string) {
  const script = `const s = require(${JSON.stringify(createRequire(import.meta.url).resolve('sherpa-onnx-node'))});
const e = new s.SpeakerEmbeddingExtractor({ model: process.argv[1], numThreads: 1, debug: false, provider: 'cpu' }); console.log(e.dim)`
  const probe = spawnSync(process.execPath, ['-e', script, modelPath], { encoding: 'utf8', timeout: 60_000 })
  if (probe.status !== 0 || !(Number(probe.stdout.trim()) > 0)) {
    const reason = (probe.stderr || probe.error?.message || 'no embedding size').split('\n').filter(Boolean).slice(-2).join(' ').slice(0, 300)
    throw new EmbeddingEngineError(`VOICE_MODEL_PATH=${modelPath}: sherpa-onnx could not load it as a speaker embedding model (${reason})`)
  }
}

export async function sherpaEmbedder(modelPath: string, options: { matchThreshold?: number; suggestThreshold?: number } = {}): Promise<SpeakerEmbedder> {
  const info = await stat(modelPath).catch(() => undefined)
  if (!info?.isFile()) throw new EmbeddingEngineError(`VOICE_MODEL_PATH=${modelPath}: no such model file`)
  const digest = createHash('sha256').update(await readFile(modelPath)).digest('hex').slice(0, 16)
  const sherpa = loadSherpa()
  probeModel(modelPath)
  let extractor: Extractor
  try {
    extractor = new sherpa.SpeakerEmbeddingExtractor({ model: modelPath, numThreads: 1, debug: false, provider: 'cpu' })
  } catch (error) {
    throw new EmbeddingEngineError(`VOICE_MODEL_PATH=${modelPath}: sherpa-onnx could not load it as a speaker embedding model (${(error as Error).message})`)
  }
  if (!(extractor.dim > 0)) throw new EmbeddingEngineError(`VOICE_MODEL_PATH=${modelPath}: the model reports no embedding size`)
  return {
    name: 'sherpa-onnx',
    modelVersion: `sherpa-onnx-${basename(modelPath).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 60)}-${digest}`,
    dimension: extractor.dim,
    input: { sampleRate: SAMPLE_RATE, channels: 1, encoding: 'float32', frameMs: 25, hopMs: 10 },
    minSpeechMs: MIN_SPEECH_MS,
    // Usual cosine operating points of ECAPA/ResNet speaker models; operators may tune them.
    matchThreshold: options.matchThreshold ?? 0.6,
    suggestThreshold: options.suggestThreshold ?? 0.45,
    sameVoiceThreshold: options.matchThreshold ?? 0.6,
    anchorThreshold: options.matchThreshold ?? 0.6,
    // No bundled cohort: scores are normalized against the other enrolled profiles only.
    naming: { match: options.matchThreshold ?? 0.6, suggest: options.suggestThreshold ?? 0.45, normalizedMatch: 0, margin: 0.1, minUtterances: 2 },
    cohort: [],
    async embed(samples) {
      if ((samples.length * 1000) / SAMPLE_RATE < MIN_SPEECH_MS) return undefined
      const stream = extractor.createStream()
      stream.acceptWaveform({ sampleRate: SAMPLE_RATE, samples: Float32Array.from(samples, (value) => value / 32768) })
      stream.inputFinished()
      if (!extractor.isReady(stream)) return undefined
      const vector = extractor.compute(stream)
      let length = 0
      for (const value of vector) length += value * value
      length = Math.sqrt(length)
      return Float32Array.from(vector, (value) => value / (length || 1))
    },
    parameters: () => undefined,
  }
}
