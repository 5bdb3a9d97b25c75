// pocketsphinx (Debian `pocketsphinx` + `pocketsphinx-en-us`), spawned as a CLI: no usable Node
// binding exists. One process per batch. With `pocketsphinx_batch` (the same package), each
// utterance is its own file and is decoded whole, so cepstral mean normalization is computed over
// that utterance (the model's `-cmn batch`) rather than carried over from the previous speaker;
// without it, `pocketsphinx_continuous` gets the utterances laid end to end with a second of
// silence between them, and the recognized words are given back to the utterance they fall in.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SAMPLE_RATE, wavFile } from '../audio.ts'
import { adaptedModel } from './language-model.ts'
import { soundOfNewWord } from '../vocabulary.ts'
import { joinWords, SpeechEngineError, type Recognized, type RecognizedWord, type SpeechEngine } from './types.ts'

const GAP_SAMPLES = SAMPLE_RATE
/** weight of the in-domain (workspace and meeting) words against the general model (docs/speech.md) */
export const LM_WEIGHT = Number(process.env.CONFER_LM_WEIGHT ?? 0.05)
/** weight of the in-domain word pairs (meeting phrases: "we decided", "can you"; docs/speech.md, "Cue words") */
export const LM_PAIR_WEIGHT = Number(process.env.CONFER_LM_PAIR_WEIGHT ?? LM_WEIGHT)
/** weight of the in-domain bigrams and trigrams of meeting speech (meeting-ngrams.json; 0: none; docs/speech.md, "Meeting n-grams") */
export const LM_NGRAM_WEIGHT = Number(process.env.CONFER_LM_NGRAM_WEIGHT ?? 0.2)
const FILLERS = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/

/**
 * Decoder settings shared by both CLIs. Its noise estimate adapts across the whole input: one
 * voice's level would distort the next speaker's utterances, and Confer's VAD already cut the
 * silence away, so it is off. One pass with a phone lookahead (-fwdflat no -pl_window 7): 10–25 %
 * less CPU than the defaults at the same word error rate on meeting speech (docs/speech.md). A
 * bounded beam (-maxhmmpf 3000) would halve it but loses words ("decided" → "assign it").
 */
const DECODER = ['-remove_noise', 'no', '-fwdflat', 'no', '-pl_window', '7', '-logfn', '/dev/null']

/** `bin`: pocketsphinx_continuous; `batchBin`: pocketsphinx_batch when installed (preferred). */
export function pocketsphinxEngine(bin: string, batchBin?: string): SpeechEngine {
  return {
    name: 'pocketsphinx',
    async transcribe(utterances, options) {
      if (utterances.length === 0) return []
      const adapted = options.vocabulary?.length ? await adaptedModel(options.vocabulary, LM_WEIGHT, soundOfNewWord, undefined, LM_PAIR_WEIGHT, LM_NGRAM_WEIGHT) : undefined
      const model = adapted ? ['-lm', adapted.lm, '-dict', adapted.dict] : []
      if (batchBin) return decodeEach(batchBin, utterances, model)
      const offsets: number[] = []
      let total = 0
      for (const utterance of utterances) {
        offsets.push(total)
        total += utterance.length + GAP_SAMPLES
      }
      const joined = new Int16Array(total)
      utterances.forEach((utterance, index) => joined.set(utterance, offsets[index]))
      const file = path.join(tmpdir(), `confer-ps-${randomBytes(8).toString('hex')}.wav`)
      await writeFile(file, wavFile(joined))
      try {
        const output = await run(bin, [...model, '-infile', file, '-time', 'yes', ...DECODER])
        return assign(parseWords(output), utterances, offsets)
      } finally {
        await rm(file, { force: true })
      }
    },
  }
}

/** Each utterance decoded whole by pocketsphinx_batch (raw 16 kHz files listed in a control file); words from its CTM output. */
async function decodeEach(bin: string, utterances: Int16Array[], model: string[]): Promise<Recognized[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'confer-ps-'))
  try {
    const names = utterances.map((_, index) => `u${index}`)
    await Promise.all(utterances.map((utterance, index) => writeFile(path.join(dir, `${names[index]}.raw`), new Uint8Array(utterance.buffer, utterance.byteOffset, utterance.byteLength))))
    await writeFile(path.join(dir, 'ctl'), names.join('\n') + '\n')
    const ctm = path.join(dir, 'out.ctm')
    await run(bin, [...model, '-ctl', path.join(dir, 'ctl'), '-cepdir', dir, '-cepext', '.raw', '-adcin', 'yes', '-samprate', String(SAMPLE_RATE), '-ctm', ctm, '-hyp', path.join(dir, 'out.hyp'), ...DECODER])
    const byName = parseCtm(await readFile(ctm, 'utf8'))
    return names.map((name) => {
      const words = byName.get(name) ?? []
      const scores = words.map((word) => word.confidence ?? 0)
      return { text: joinWords(words), words, ...(scores.length ? { confidence: Number((scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(3)) } : {}) }
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** CTM lines (`utterance channel start duration word confidence`, seconds) per utterance; fillers and alternate markers removed. */
export function parseCtm(output: string): Map<string, RecognizedWord[]> {
  const byName = new Map<string, RecognizedWord[]>()
  for (const line of output.split('\n')) {
    const parts = line.trim().split(/\s+/)
    if (parts.length < 5) continue
    const [name, , start, duration, token, probability] = parts as [string, string, string, string, string, string | undefined]
    if (!/^-?\d+(\.\d+)?$/.test(start) || !/^\d+(\.\d+)?$/.test(duration) || FILLERS.test(token)) continue
    const startMs = Math.round(Number(start) * 1000)
    const word: RecognizedWord = { word: token.replace(/\(\d+\)$/, ''), startMs, endMs: startMs + Math.round(Number(duration) * 1000) }
    if (probability !== undefined && Number.isFinite(Number(probability))) word.confidence = Number(probability)
    byName.set(name, [...(byName.get(name) ?? []), word])
  }
  return byName
}

/** `word start end prob` lines (seconds); filler and silence tokens and alternate markers removed. */
export function parseWords(output: string): RecognizedWord[] {
  const words: RecognizedWord[] = []
  for (const line of output.split('\n')) {
    const parts = line.trim().split(/\s+/)
    if (parts.length !== 4) continue
    const [token, start, end, probability] = parts as [string, string, string, string]
    if (!/^-?\d+(\.\d+)?$/.test(start) || !/^-?\d+(\.\d+)?$/.test(end) || FILLERS.test(token)) continue
    words.push({
      word: token.replace(/\(\d+\)$/, ''),
      startMs: Math.round(Number(start) * 1000),
      endMs: Math.round(Number(end) * 1000),
      confidence: Number(probability),
    })
  }
  return words
}

function assign(words: RecognizedWord[], utterances: Int16Array[], offsets: number[]): Recognized[] {
  const results: Recognized[] = utterances.map(() => ({ text: '', words: [] }))
  for (const word of words) {
    const middle = ((word.startMs + word.endMs) / 2) * (SAMPLE_RATE / 1000)
    let index = offsets.length - 1
    while (index > 0 && offsets[index]! > middle) index -= 1
    const offsetMs = Math.round((offsets[index]! * 1000) / SAMPLE_RATE)
    results[index]!.words!.push({ ...word, startMs: word.startMs - offsetMs, endMs: word.endMs - offsetMs })
  }
  for (const result of results) {
    result.text = joinWords(result.words!)
    const scores = result.words!.map((word) => word.confidence ?? 0)
    if (scores.length > 0) result.confidence = Number((scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(3))
  }
  return results
}

function run(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (data: Buffer) => { out += String(data) })
    child.stderr.on('data', (data: Buffer) => { err += String(data) })
    child.on('error', (error) => reject(new SpeechEngineError(`${bin} could not start: ${error.message}`)))
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new SpeechEngineError(`${bin} exited with ${code}: ${err.slice(0, 300)}`))))
  })
}
