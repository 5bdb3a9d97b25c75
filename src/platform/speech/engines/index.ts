// Choosing the engine (DESIGN §6). `auto` takes the first that is available: an OpenAI-compatible
// URL, a whisper model, Moonshine (shipped in models/, English only: when STT_LANGUAGE is English),
// the pocketsphinx binary; with none, the server accepts client-side
// segments only and says so (GET /healthz, the session snapshot).
import { spawnSync } from 'node:child_process'
import type { SpeechConfig } from '../../../config.ts'
import { openaiEngine } from './openai.ts'
import { pocketsphinxEngine } from './pocketsphinx.ts'
import type { SpeechEngine } from './types.ts'
import { createEmbedder, type SpeakerEmbedder } from '../embedding/index.ts'
import { whisperEngine } from './whisper.ts'
import { moonshineAvailable, moonshineEngine } from './moonshine.ts'

export type { Recognized, RecognizedWord, SpeechEngine } from './types.ts'
export { SpeechEngineError } from './types.ts'

export type SpeechSetup = {
  /** what transcribes uploaded audio; undefined: client-side recognition only */
  engine: SpeechEngine | undefined
  /** the engine's name, or 'client' */
  mode: 'openai' | 'whisper' | 'moonshine' | 'pocketsphinx' | 'client'
  /** speaker embeddings for diarization and voice identification (VOICE_ENGINE) */
  voice: SpeakerEmbedder
}

export function binaryAvailable(bin: string): boolean {
  const probe = spawnSync(bin, ['-h'], { stdio: 'ignore', timeout: 5000 })
  return !probe.error
}

/** pocketsphinx_batch beside pocketsphinx_continuous (same Debian package), when it runs: it decodes each utterance whole. */
export function batchBinOf(continuousBin: string): string | undefined {
  if (!/pocketsphinx_continuous$/.test(continuousBin)) return undefined
  const batch = continuousBin.replace(/pocketsphinx_continuous$/, 'pocketsphinx_batch')
  return binaryAvailable(batch) ? batch : undefined
}

export async function createSpeech(config: SpeechConfig): Promise<SpeechSetup> {
  const voice = await createEmbedder(config.voice)
  return { ...await createTranscriber(config), voice }
}

async function createTranscriber(config: SpeechConfig): Promise<Omit<SpeechSetup, 'voice'>> {
  const choose = async (name: SpeechConfig['engine']): Promise<Omit<SpeechSetup, 'voice'> | undefined> => {
    switch (name) {
      case 'openai':
        return config.openai ? { engine: openaiEngine(config.openai), mode: 'openai' } : undefined
      case 'whisper':
        return config.whisperModelPath ? { engine: await whisperEngine(config.whisperModelPath), mode: 'whisper' } : undefined
      case 'moonshine':
        return (config.engine === 'moonshine' || /^en\b/i.test(config.language)) && await moonshineAvailable(config.moonshineModelDir)
          ? { engine: moonshineEngine(config.moonshineModelDir), mode: 'moonshine' } : undefined
      case 'pocketsphinx':
        return binaryAvailable(config.pocketsphinxBin) ? { engine: pocketsphinxEngine(config.pocketsphinxBin, batchBinOf(config.pocketsphinxBin)), mode: 'pocketsphinx' } : undefined
      case 'client':
        return { engine: undefined, mode: 'client' }
      default:
        return undefined
    }
  }
  if (config.engine !== 'auto') {
    const chosen = await choose(config.engine)
    if (!chosen && config.engine === 'moonshine') throw new Error(`STT_ENGINE=moonshine: no model in ${config.moonshineModelDir} or onnxruntime-node cannot be loaded`)
    if (!chosen) throw new Error(`STT_ENGINE=${config.engine}: ${config.pocketsphinxBin} was not found (install Debian's pocketsphinx and pocketsphinx-en-us)`)
    return chosen
  }
  for (const name of ['openai', 'whisper', 'moonshine', 'pocketsphinx'] as const) {
    const chosen = await choose(name)
    if (chosen) return chosen
  }
  return { engine: undefined, mode: 'client' }
}
