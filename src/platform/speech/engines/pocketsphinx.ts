// pocketsphinx (Debian `pocketsphinx` + `pocketsphinx-en-us`), spawned as a CLI: no usable Node
// binding exists. One process per batch: the utterances are laid end to end with a second of
// silence between them, and the recognized words are given back to the utterance they fall in.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SAMPLE_RATE, wavFile } from '../audio.ts'
import { adaptedModel } from './language-model.ts'
import { letterToSound } from '../vocabulary.ts'
import { joinWords, SpeechEngineError, type Recognized, type RecognizedWord, type SpeechEngine } from './types.ts'

const GAP_SAMPLES = SAMPLE_RATE
/** weight of the in-domain (workspace and meeting) words against the general model (docs/speech.md) */
export const LM_WEIGHT = Number(process.env.CONFER_LM_WEIGHT ?? 0.05)
const FILLERS = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/

export function pocketsphinxEngine(bin: string): SpeechEngine {
  return {
    name: 'pocketsphinx',
    async transcribe(utterances, options) {
      if (utterances.length === 0) return []
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
        // Its noise estimate adapts across the whole file: one voice's level would distort the next
        // speaker's utterances. Confer's VAD already cut the silence away, so it is turned off.
        // One pass with a phone lookahead (-fwdflat no -pl_window 7): 10–25 % less CPU than the
        // defaults at the same word error rate on meeting speech (docs/speech.md). A bounded beam
        // (-maxhmmpf 3000) would halve it but loses words ("decided" → "assign it").
        const adapted = options.vocabulary?.length ? await adaptedModel(options.vocabulary, LM_WEIGHT, (word) => letterToSound(word)) : undefined
        const model = adapted ? ['-lm', adapted.lm, '-dict', adapted.dict] : []
        const output = await run(bin, [...model, '-infile', file, '-time', 'yes', '-remove_noise', 'no', '-fwdflat', 'no', '-pl_window', '7', '-logfn', '/dev/null'])
        return assign(parseWords(output), utterances, offsets)
      } finally {
        await rm(file, { force: true })
      }
    },
  }
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
