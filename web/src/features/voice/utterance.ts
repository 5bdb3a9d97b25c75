// One enrollment utterance from the microphone: 16 kHz mono samples (the rate the built-in engine
// takes; the browser resamples), a live loudness level, stopped by the person or at the maximum
// length. Then the embedding, computed here with the server's own built-in engine.
import { BUILTIN_MODEL_VERSION, embedRaw, rawFeatures } from '../../../../src/platform/speech/embedding/builtin.ts'
import { SAMPLE_RATE } from '../../../../src/platform/speech/sample-rate.ts'
import type { VoiceManifest } from '../../lib/types.ts'

export type UtteranceRecording = { level(): number; elapsedMs(): number; stop(): Promise<Int16Array> }

/** Whether this client can compute embeddings for the manifest's model (the built-in one only). */
export function canEmbed(manifest: VoiceManifest): boolean {
  return manifest.modelVersion === BUILTIN_MODEL_VERSION && manifest.format === 'confer-mfcc-stats' && manifest.input.sampleRate === SAMPLE_RATE
}

export async function recordUtterance(maxMs: number, onMax: () => void): Promise<UtteranceRecording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true } })
  const context = new AudioContext({ sampleRate: SAMPLE_RATE })
  void context.resume().catch(() => undefined)
  const source = context.createMediaStreamSource(stream)
  // A ScriptProcessor is enough for a few seconds of speech and needs no worklet module.
  const processor = context.createScriptProcessor(4096, 1, 1)
  const chunks: Float32Array[] = []
  let collected = 0
  let last = 0
  let maxed = false
  processor.onaudioprocess = (event) => {
    const input = event.inputBuffer.getChannelData(0)
    chunks.push(new Float32Array(input))
    collected += input.length
    let sum = 0
    for (const sample of input) sum += sample * sample
    last = Math.sqrt(sum / input.length)
    if (!maxed && (collected / context.sampleRate) * 1000 >= maxMs) { maxed = true; onMax() }
  }
  source.connect(processor)
  processor.connect(context.destination)
  let stopped: Promise<Int16Array> | undefined
  return {
    level: () => Math.min(1, last * 4),
    elapsedMs: () => (collected / context.sampleRate) * 1000,
    stop: () => (stopped ??= finish()),
  }
  async function finish(): Promise<Int16Array> {
    processor.disconnect()
    source.disconnect()
    for (const track of stream.getTracks()) track.stop()
    const rate = context.sampleRate
    await context.close()
    const joined = new Float32Array(collected)
    let offset = 0
    for (const chunk of chunks) { joined.set(chunk, offset); offset += chunk.length }
    const samples = rate === SAMPLE_RATE ? joined : resample(joined, rate, SAMPLE_RATE)
    const limit = Math.floor((maxMs / 1000) * SAMPLE_RATE)
    return Int16Array.from(samples.subarray(0, limit), (value) => Math.max(-32768, Math.min(32767, Math.round(value * 32767))))
  }
}

function resample(input: Float32Array, from: number, to: number): Float32Array {
  const output = new Float32Array(Math.floor((input.length * to) / from))
  for (let index = 0; index < output.length; index += 1) {
    const position = (index * from) / to
    const left = Math.floor(position)
    const fraction = position - left
    output[index] = (input[left] ?? 0) * (1 - fraction) + (input[left + 1] ?? input[left] ?? 0) * fraction
  }
  return output
}

/** The utterance's embedding, or undefined when it holds too little speech. */
export function embedUtterance(samples: Int16Array): number[] | undefined {
  const raw = rawFeatures(samples)
  return raw ? Array.from(embedRaw(raw)) : undefined
}
