// Transcription throughput (no server): a one-hour two-speaker recording (flite turns repeated,
// with 0–0.8 s between turns) goes through what the transcription runs do besides the database,
// in the pipeline's 100-second batches, once per offline engine: voice activity detection, then
// Moonshine (the default: voice changes from the audio, parts of at most 20 s, the model on one
// onnxruntime thread) or pocketsphinx with its language model adapted to the workspace vocabulary
// (built once, inside the timing) and the vocabulary; then voice turns, sentences, speaker pitch.
// The figure is CPU time (this process, all its threads, and its pocketsphinx children) over audio
// time: on one core, a recording is processed in that share of its length. Wall time is printed
// too (it depends on what else runs on the machine).
// BENCH_TRANSCRIPTION_MINUTES shortens the recording (default 60).
import { readFileSync } from 'node:fs'
import { pcmSamples } from '../src/platform/speech/audio.ts'
import { batchBinOf } from '../src/platform/speech/engines/index.ts'
import { DEFAULT_MOONSHINE_DIR, moonshineAvailable, moonshineEngine } from '../src/platform/speech/engines/moonshine.ts'
import { pocketsphinxEngine } from '../src/platform/speech/engines/pocketsphinx.ts'
import type { SpeechEngine } from '../src/platform/speech/engines/types.ts'
import { medianPitch } from '../src/platform/speech/pitch.ts'
import { splitUtterance } from '../src/platform/speech/turns.ts'
import { detectUtterances } from '../src/platform/speech/vad.ts'
import { buildTerms, hearTerms, loadLexicon, MEETING_PHRASES, MEETING_WORDS } from '../src/platform/speech/vocabulary.ts'
import { hasFlite, hasPocketsphinx, speak } from '../test/speech.ts'

const LINES = [
  'Good morning everyone. Let us look at the plan for this week.',
  'The new version is ready and the tests are passing.',
  'Please send the report to the team by Friday.',
  'I will send it tomorrow morning. Who is going to update the runbook?',
  'We decided to move the launch to next week, and Marco owns the checklist.',
  'Can someone tell me whether the alerting fired during the outage?',
]
const BATCH_SECONDS = 100

/** CPU seconds used so far by this process and its finished children (Linux /proc). */
function cpuSeconds(): number {
  const own = process.cpuUsage()
  let children = 0
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
    // After "pid (comm) ": state is field 3, cutime and cstime fields 16 and 17.
    children = (Number(fields[13]) + Number(fields[14])) / 100
  } catch {
    // Not Linux: children's time unknown (the figure then counts this process only).
  }
  return (own.user + own.system) / 1e6 + children
}

export async function benchTranscription(): Promise<string> {
  if (!hasFlite) return 'transcription throughput: skipped (install flite)'
  const lines: string[] = []
  // BENCH_TRANSCRIPTION_ENGINES=moonshine (or pocketsphinx) measures one of them only.
  const engines = (process.env.BENCH_TRANSCRIPTION_ENGINES ?? 'moonshine,pocketsphinx').split(',')
  // MOONSHINE_MODEL_DIR measures another Moonshine model (as the server would run it).
  const modelDir = process.env.MOONSHINE_MODEL_DIR ?? DEFAULT_MOONSHINE_DIR
  if (engines.includes('moonshine') && await moonshineAvailable(modelDir)) lines.push(await measure(moonshineEngine(modelDir)))
  // As the server builds it: pocketsphinx_batch when installed.
  if (engines.includes('pocketsphinx') && hasPocketsphinx) lines.push(await measure(pocketsphinxEngine('pocketsphinx_continuous', batchBinOf('pocketsphinx_continuous'))))
  return lines.join('\n')
}

async function measure(engine: SpeechEngine): Promise<string> {
  const minutes = Number(process.env.BENCH_TRANSCRIPTION_MINUTES ?? 60)
  const voices = ['slt', 'rms'] as const
  const turns = LINES.flatMap((text, index) => voices.map((voice, offset) => pcmSamples(speak({ voice: voices[(index + offset) % 2]!, text }))))
  const total = Math.round(minutes * 60 * 16_000)
  const samples = new Int16Array(total)
  let seed = 7
  for (let at = 0, index = 0; at < total; index += 1) {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0
    at += Math.round(((seed >>> 16) % 5 === 0 ? 0 : ((seed >>> 16) % 800)) * 16)
    const turn = turns[index % turns.length]!
    samples.set(turn.subarray(0, Math.max(0, Math.min(turn.length, total - at))), Math.min(at, total))
    at += turn.length
  }
  const audioSeconds = total / 16_000
  const writes = engine.name !== 'pocketsphinx'
  const lexicon = await loadLexicon()
  const terms = [...buildTerms(['Marco Rossi', 'Marco', 'Rossi', 'Hannah Berg', 'Hannah', 'Berg', 'Checkout'], lexicon), ...buildTerms(MEETING_WORDS, lexicon, false)]
  const cpuBefore = cpuSeconds()
  const started = performance.now()
  let utteranceCount = 0
  let segments = 0
  let words = 0
  for (let from = 0; from < total; from += BATCH_SECONDS * 16_000) {
    const batch = samples.subarray(from, Math.min(total, from + BATCH_SECONDS * 16_000))
    const utterances = await detectUtterances(batch)
    const pieces = utterances.map((utterance) => batch.subarray(utterance.startSample, utterance.endSample))
    const results = await engine.transcribe(pieces, { language: 'en', ...(writes ? {} : { vocabulary: [...terms.map((term) => term.written), ...MEETING_PHRASES] }) })
    results.forEach((result, index) => {
      const heard = writes ? result.words ?? [] : hearTerms(result.words ?? [], terms, lexicon)
      const split = splitUtterance(pieces[index]!, heard, writes ? { writtenText: result.text, ...(result.turnStarts ? { changes: result.turnStarts } : {}) } : {})
      for (const turn of new Set(split.map((piece) => piece.turn))) {
        const inTurn = split.filter((piece) => piece.turn === turn)
        if (inTurn.length) medianPitch(pieces[index]!.subarray(inTurn[0]!.startMs * 16, inTurn[inTurn.length - 1]!.endMs * 16))
      }
      segments += split.length
      words += heard.length
    })
    utteranceCount += utterances.length
  }
  const wall = (performance.now() - started) / 1000
  const cpu = cpuSeconds() - cpuBefore
  return `${`transcription, ${engine.name} (one core)`.padEnd(44)} ${(audioSeconds / 60).toFixed(0)} min of audio: ${cpu.toFixed(0)} s of CPU (ratio to real time ${(cpu / audioSeconds).toFixed(3)}, goal < 0.25), ${wall.toFixed(0)} s wall; ${utteranceCount} utterances, ${segments} segments, ${words} words`
}
