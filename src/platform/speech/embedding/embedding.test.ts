import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../../test/databases.ts'
import { hasFlite, speak } from '../../../../test/speech.ts'
import { pcmSamples } from '../audio.ts'
import { builtinEmbedder, centroid, cosine, createEmbedder, EmbeddingEngineError } from './index.ts'
import { loadSherpa, sherpaEmbedder } from './sherpa.ts'

describe('speaker embedding engines', () => {
  it('chooses the built-in engine by default', async () => {
    const engine = await createEmbedder({ engine: 'builtin', modelPath: undefined })
    expect(engine).toMatchObject({ name: 'builtin', modelVersion: 'confer-mfcc-wccn-v2', dimension: 39 })
  })

  it.skipIf(!hasFlite)('the built-in engine names a voice on unseen sentences and not another one', async () => {
    const engine = builtinEmbedder()
    const embed = async (voice: 'slt' | 'rms', text: string) => Array.from((await engine.embed(pcmSamples(speak({ voice, text }))))!)
    const enrolled = centroid([await embed('slt', 'We should check the numbers before the meeting.'), await embed('slt', 'The team will ship the update on Monday morning.')])!
    const same = await embed('slt', 'Could you send me the slides from yesterday please?')
    const other = await embed('rms', 'Could you send me the slides from yesterday please?')
    expect(cosine(enrolled, same)).toBeGreaterThan(engine.matchThreshold)
    expect(cosine(enrolled, other)).toBeLessThan(engine.matchThreshold)
  })

  it('loads the sherpa-onnx runtime, and refuses a missing or broken model file without crashing', async () => {
    expect(typeof loadSherpa().SpeakerEmbeddingExtractor).toBe('function')
    await expect(createEmbedder({ engine: 'sherpa-onnx', modelPath: undefined })).rejects.toThrow(/VOICE_MODEL_PATH/)
    await expect(sherpaEmbedder('/nonexistent/model.onnx')).rejects.toThrow(EmbeddingEngineError)
    const broken = path.join(tempDir('confer-voice-'), 'broken.onnx')
    writeFileSync(broken, 'not a model')
    await expect(sherpaEmbedder(broken)).rejects.toThrow(/could not load it as a speaker embedding model/)
  }, 60_000)
})
