// Transcription throughput (no server): a one-minute two-speaker meeting synthesized with flite
// goes through what a transcription run does besides the database — voice activity detection,
// pitch per utterance, and pocketsphinx — and the result is seconds of audio per second of wall time.
import { pcmSamples } from '../src/platform/speech/audio.ts'
import { pocketsphinxEngine } from '../src/platform/speech/engines/pocketsphinx.ts'
import { medianPitch } from '../src/platform/speech/pitch.ts'
import { detectUtterances } from '../src/platform/speech/vad.ts'
import { hasFlite, hasPocketsphinx, synthesizeMeeting } from '../test/speech.ts'

const LINES = [
  'Good morning everyone. Let us look at the plan for this week.',
  'The new version is ready and the tests are passing.',
  'Please send the report to the team by Friday.',
  'I will send it tomorrow morning.',
]

export async function benchTranscription(): Promise<string> {
  if (!hasFlite || !hasPocketsphinx) return 'transcription throughput: skipped (install flite and pocketsphinx)'
  const turns = Array.from({ length: 16 }, (_, index) => ({ voice: index % 2 === 0 ? 'slt' as const : 'rms' as const, text: LINES[index % LINES.length]! }))
  const { pcm } = synthesizeMeeting(turns, 800)
  const samples = pcmSamples(pcm)
  const audioSeconds = samples.length / 16_000
  const engine = pocketsphinxEngine('pocketsphinx_continuous')
  const started = performance.now()
  const utterances = await detectUtterances(samples)
  const pieces = utterances.map((utterance) => samples.subarray(utterance.startSample, utterance.endSample))
  for (const piece of pieces) medianPitch(piece)
  const results = await engine.transcribe(pieces, { language: 'en' })
  const seconds = (performance.now() - started) / 1000
  const words = results.reduce((sum, result) => sum + (result.words?.length ?? 0), 0)
  return `${'transcription throughput (pocketsphinx)'.padEnd(44)} ${audioSeconds.toFixed(1)} s of audio in ${seconds.toFixed(1)} s: ${(audioSeconds / seconds).toFixed(1)} s of audio per second (${utterances.length} utterances, ${words} words)`
}
