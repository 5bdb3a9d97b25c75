// whisper.cpp in process through `@fugood/whisper.node`, which the operator installs beside
// Confer (`npm install @fugood/whisper.node@^1`, ≈270 MB with its GPU variants) and points at a
// ggml model with WHISPER_MODEL_PATH. No model ships with Confer or with any package.
import { access } from 'node:fs/promises'
import { SpeechEngineError, type Recognized, type SpeechEngine } from './types.ts'

type WhisperContext = {
  transcribeData(audio: ArrayBuffer, options: { language?: string; temperature?: number }): {
    promise: Promise<{ result: string; language?: string; segments: { text: string; t0: number; t1: number }[] }>
  }
  release(): Promise<void>
}
type WhisperModule = { initWhisper(options: { filePath: string; useGpu?: boolean }): Promise<WhisperContext> }

export const WHISPER_PACKAGE = '@fugood/whisper.node'

export async function whisperEngine(modelPath: string, load: () => Promise<unknown> = () => import(WHISPER_PACKAGE)): Promise<SpeechEngine> {
  try {
    await access(modelPath)
  } catch {
    throw new SpeechEngineError(`WHISPER_MODEL_PATH: no model file at ${modelPath}`)
  }
  let binding: WhisperModule
  try {
    binding = await load() as WhisperModule
  } catch (error) {
    throw new SpeechEngineError(`WHISPER_MODEL_PATH is set but ${WHISPER_PACKAGE} cannot be loaded (${(error as Error).message}); install it with \`npm install ${WHISPER_PACKAGE}@^1\``)
  }
  const context = await binding.initWhisper({ filePath: modelPath, useGpu: false })
  // whisper.cpp segment times t0/t1 are in 10 ms units.
  const one = async (samples: Int16Array, language: string): Promise<Recognized> => {
    const copy = samples.slice()
    const result = await context.transcribeData(copy.buffer, { language: language.split('-')[0]!.toLowerCase(), temperature: 0 }).promise
    return {
      text: result.result.trim(),
      words: result.segments.map((segment) => ({ word: segment.text.trim(), startMs: segment.t0 * 10, endMs: segment.t1 * 10 })),
      ...(result.language ? { language: result.language } : {}),
    }
  }
  return {
    name: 'whisper',
    async transcribe(utterances, { language }) {
      const results: Recognized[] = []
      for (const utterance of utterances) results.push(await one(utterance, language))
      return results
    },
    close: () => context.release(),
  }
}
