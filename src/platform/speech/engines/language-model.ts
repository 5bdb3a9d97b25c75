// An adapted language model for pocketsphinx, written at run time in TypeScript. Debian ships the
// general English model only as sphinxbase's binary trie (`en-us.lm.bin`) and no tool that can
// rebuild it, so this reads that file and writes a copy with the workspace's and meetings' words
// biased (docs/speech.md, "Hearing the workspace's own words"):
// - unigrams (stored as plain floats) of in-domain words are interpolated with a uniform in-domain
//   model: log10(λ·1/|V| + (1 − λ)·P(w)); words the model lacks are appended as new unigrams (no
//   bigram children), which keeps the trie's bit layout as long as the word count stays within the
//   same power of two;
// - bigrams of in-domain phrases that the model has ("team lead") get the same interpolation, written
//   into their quantized probability field (the nearest of the model's own 65,536 bins);
// - the bigrams and trigrams of meeting speech (meeting-ngrams.json) are interpolated in, the arrays
//   re-packed to add those the model lacks (ngram-trie.ts).
// Layout (sphinxbase lm_trie.c, ngram_model_trie.c): header "Trie Language Model", order (u8),
// counts (u32 × order), a dummy i32, quantization tables (f32; per middle order 2^16 probs then
// 2^16 backoffs, then 2^16 probs of the longest order), unigrams {f32 prob, f32 backoff, u32 next}
// × (count + 1), the bit-packed middle and longest arrays (keyed from the last word back: a
// unigram's children are the words before it; entry = word id, 16-bit backoff and probability bin
// numbers, child pointer), then the word strings (i32 total
// length, NUL-terminated words). Probabilities are in sphinxbase's log base 1.0001 (LOG_UNITS per
// decade).
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { interpolateNgrams, LOG_UNITS, logSum, nearestBin, readBits, requiredBits, trigramLog10 as arraysTrigramLog10, type InDomainNgram, type TrieArrays } from './ngram-trie.ts'

const HEADER = 'Trie Language Model'

export type TrieModel = {
  order: number
  counts: number[]
  /** the whole file */
  bytes: Buffer
  quantOffset: number
  unigramOffset: number
  ngramOffset: number
  wordsOffset: number
  words: string[]
  index: Map<string, number>
}

export function readTrieModel(path: string): TrieModel {
  const bytes = readFileSync(path)
  if (bytes.toString('latin1', 0, HEADER.length) !== HEADER) throw new Error(`${path} is not a sphinxbase trie language model`)
  let at = HEADER.length
  const order = bytes.readUInt8(at)
  at += 1
  const counts: number[] = []
  for (let index = 0; index < order; index += 1, at += 4) counts.push(bytes.readUInt32LE(at))
  at += 4 // the quantization type, unused
  const quantOffset = at
  if (order > 1) at += ((order - 2) * 2 * 65536 + 65536) * 4
  const unigramOffset = at
  at += (counts[0]! + 1) * 12
  const ngramOffset = at
  const wordBits = requiredBits(counts[0]!)
  let size = 0
  for (let index = 1; index < order - 1; index += 1) size += Math.floor(((1 + counts[index]!) * (wordBits + 32 + requiredBits(counts[index + 1]!)) + 7) / 8) + 8
  if (order > 1) size += Math.floor(((1 + counts[order - 1]!) * (wordBits + 16) + 7) / 8) + 8
  at += size
  const wordsOffset = at
  const length = bytes.readInt32LE(at)
  const words = bytes.toString('latin1', at + 4, at + 4 + length).split('\0').slice(0, counts[0])
  return { order, counts, bytes, quantOffset, unigramOffset, ngramOffset, wordsOffset, words, index: new Map(words.map((word, id) => [word, id])) }
}

export type Adaptation = {
  /** in-domain words (lowercase, as the dictionary writes them) */
  words: Iterable<string>
  /** in-domain word pairs */
  bigrams?: Iterable<[string, string]>
  /** weight of the in-domain model, 0–1 */
  weight: number
  /** weight of the in-domain word pairs (default: `weight`) */
  pairWeight?: number
  /** in-domain bigrams and trigrams interpolated in (re-packing the trie, ngram-trie.ts) */
  ngrams?: Iterable<InDomainNgram>
  /** their weight λ, 0–1 */
  ngramWeight?: number
}

/** The model with the adaptation applied, as the bytes of a new trie file. */
export function adaptTrieModel(model: TrieModel, adaptation: Adaptation): Buffer {
  const known = new Set<string>()
  const added: string[] = []
  for (const word of adaptation.words) {
    if (model.index.has(word)) known.add(word)
    else if (!added.includes(word)) added.push(word)
  }
  const base = model.counts[0]!
  // New words must not change the width of word ids in the packed arrays.
  const room = Math.max(0, 2 ** requiredBits(base) - 1 - base)
  const appended = added.slice(0, room)
  const vocabulary = known.size + appended.length
  if (vocabulary === 0 && !adaptation.ngrams) return model.bytes
  const lambda = adaptation.weight
  const inDomain = LOG_UNITS * Math.log10(lambda / Math.max(1, vocabulary))
  const keep = LOG_UNITS * Math.log10(1 - lambda)

  const count = base + appended.length
  const unigramBytes = (count + 1) * 12
  const head = Buffer.from(model.bytes.subarray(0, model.unigramOffset))
  head.writeUInt32LE(count, HEADER.length + 1)
  const unigrams = Buffer.alloc(unigramBytes)
  model.bytes.copy(unigrams, 0, model.unigramOffset, model.unigramOffset + base * 12)
  const sentinel = model.bytes.subarray(model.unigramOffset + base * 12, model.unigramOffset + (base + 1) * 12)
  const endNext = sentinel.readUInt32LE(8)
  // Every word keeps (1 − λ) of its mass; in-domain words get λ/|V| more.
  for (let id = 0; id < base; id += 1) {
    const prob = unigrams.readFloatLE(id * 12)
    if (prob > -90 * LOG_UNITS) unigrams.writeFloatLE(prob + keep, id * 12)
  }
  for (const word of known) {
    const id = model.index.get(word)!
    const prob = model.bytes.readFloatLE(model.unigramOffset + id * 12)
    unigrams.writeFloatLE(logSum(prob + keep, inDomain), id * 12)
  }
  appended.forEach((word, offset) => {
    const at = (base + offset) * 12
    unigrams.writeFloatLE(inDomain, at)
    unigrams.writeFloatLE(0, at + 4)
    unigrams.writeUInt32LE(endNext, at + 8)
  })
  sentinel.copy(unigrams, count * 12)

  let ngrams: Buffer = Buffer.from(model.bytes.subarray(model.ngramOffset, model.wordsOffset))
  if (adaptation.bigrams && model.order > 2) boostBigrams(model, ngrams, adaptation.bigrams, adaptation.pairWeight ?? lambda)
  if (adaptation.ngrams && model.order === 3) {
    const index = new Map(model.index)
    appended.forEach((word, offset) => index.set(word, base + offset))
    const repacked = interpolateNgrams({ ...arraysOf(model), count, unigrams, ngrams }, index, adaptation.ngrams, adaptation.ngramWeight ?? lambda)
    repacked.unigrams.copy(unigrams)
    ngrams = repacked.ngrams
    head.writeUInt32LE(repacked.bigramCount, HEADER.length + 1 + 4)
    head.writeUInt32LE(repacked.trigramCount, HEADER.length + 1 + 8)
  }

  const oldWords = model.bytes.subarray(model.wordsOffset + 4, model.wordsOffset + 4 + model.bytes.readInt32LE(model.wordsOffset))
  const newWords = Buffer.from(appended.map((word) => `${word}\0`).join(''), 'latin1')
  const length = Buffer.alloc(4)
  length.writeInt32LE(oldWords.length + newWords.length)
  return Buffer.concat([head, unigrams, ngrams, length, oldWords, newWords])
}

/** A trigram model's arrays (ngram-trie.ts). */
function arraysOf(model: TrieModel): TrieArrays {
  const table = (at: number) => new Float32Array(Buffer.from(model.bytes.subarray(model.quantOffset + at * 65536 * 4, model.quantOffset + (at + 1) * 65536 * 4)).buffer)
  return {
    count: model.counts[0]!, bigramCount: model.counts[1]!, trigramCount: model.counts[2]!,
    unigrams: model.bytes.subarray(model.unigramOffset, model.ngramOffset), ngrams: model.bytes.subarray(model.ngramOffset, model.wordsOffset), bins: [table(0), table(1), table(2)],
  }
}

/** log10 P(third | first second) as the model stores it, or undefined if it has no such trigram (tests, diagnostics). */
export function trigramLog10(model: TrieModel, first: string, second: string, third: string): number | undefined {
  const ids = [first, second, third].map((word) => model.index.get(word))
  if (model.order !== 3 || ids.some((id) => id === undefined)) return undefined
  return arraysTrigramLog10(arraysOf(model), ids[0]!, ids[1]!, ids[2]!)
}

type Bigrams = { wordBits: number; total: number; bins: Float32Array; ngrams: Buffer }

function bigramsOf(model: TrieModel, ngrams: Buffer): Bigrams {
  const wordBits = requiredBits(model.counts[0]!)
  const bins = new Float32Array(65536)
  // The first middle order's probability bins come first in the quantization tables.
  for (let index = 0; index < 65536; index += 1) bins[index] = model.bytes.readFloatLE(model.quantOffset + index * 4)
  return { wordBits, total: wordBits + 32 + requiredBits(model.counts[2]!), bins, ngrams }
}

/** Bit offset of the probability field of the bigram (first, second), or -1 if the model lacks it. */
function findBigram(model: TrieModel, bigrams: Bigrams, first: string, second: string): number {
  const h = model.index.get(first)
  const w = model.index.get(second)
  if (h === undefined || w === undefined) return -1
  const nextOf = (id: number) => model.bytes.readUInt32LE(model.unigramOffset + id * 12 + 8)
  // The trie is keyed from the predicted word back: w's children are the words before it.
  let low = nextOf(w)
  let high = nextOf(w + 1)
  while (low < high) {
    const middle = (low + high) >>> 1
    const word = readBits(bigrams.ngrams, middle * bigrams.total, bigrams.wordBits)
    if (word === h) return middle * bigrams.total + bigrams.wordBits + 16
    if (word < h) low = middle + 1
    else high = middle
  }
  return -1
}

/** log10 P(second | first) as the model stores it, or undefined if it has no such bigram (tests, diagnostics). */
export function bigramLog10(model: TrieModel, first: string, second: string): number | undefined {
  if (model.order < 3) return undefined
  const bigrams = bigramsOf(model, model.bytes.subarray(model.ngramOffset, model.wordsOffset))
  const at = findBigram(model, bigrams, first, second)
  return at < 0 ? undefined : bigrams.bins[readBits(bigrams.ngrams, at, 16)]! / LOG_UNITS
}

/** log10 P(word) as the model stores it. */
export function unigramLog10(model: TrieModel, word: string): number | undefined {
  const id = model.index.get(word)
  return id === undefined ? undefined : model.bytes.readFloatLE(model.unigramOffset + id * 12) / LOG_UNITS
}

/** Bigram probabilities of in-domain pairs the model has, moved toward P(w | h) = 1 by λ. */
function boostBigrams(model: TrieModel, ngrams: Buffer, pairs: Iterable<[string, string]>, lambda: number) {
  const bigrams = bigramsOf(model, ngrams)
  for (const [first, second] of pairs) {
    const at = findBigram(model, bigrams, first, second)
    if (at < 0) continue
    const prob = bigrams.bins[readBits(ngrams, at, 16)]!
    const target = logSum(prob + LOG_UNITS * Math.log10(1 - lambda), LOG_UNITS * Math.log10(lambda))
    writeBits(ngrams, at, 16, nearestBin(bigrams.bins, target))
  }
}

function writeBits(buffer: Buffer, bit: number, length: number, value: number) {
  for (let index = 0; index < length; index += 1) {
    const at = bit + index
    const byte = at >>> 3
    const mask = 1 << (at & 7)
    buffer[byte] = (value >>> index) & 1 ? buffer[byte]! | mask : buffer[byte]! & ~mask
  }
}

export type AdaptedFiles = { lm: string; dict: string }

/** In-domain bigrams and trigrams of meeting speech (written by eval/meeting-ngrams.ts from the training meetings). */
const MEETING_NGRAMS_FILE = path.join(import.meta.dirname, 'meeting-ngrams.json')
let meetingNgramsCache: { ngrams: InDomainNgram[]; digest: string } | undefined
const meetingNgramsRead = () => {
  if (!meetingNgramsCache) {
    const text = readFileSync(MEETING_NGRAMS_FILE, 'utf8')
    const ngrams = Object.entries((JSON.parse(text) as { ngrams: Record<string, number> }).ngrams).map(([key, log10]) => ({ words: key.split(' '), log10 }))
    meetingNgramsCache = { ngrams, digest: createHash('sha256').update(text).digest('hex') }
  }
  return meetingNgramsCache
}
export const meetingNgrams = (): InDomainNgram[] => meetingNgramsRead().ngrams

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us'
const building = new Map<string, Promise<AdaptedFiles | undefined>>()
const built: string[] = []
/** adapted models kept on disk at once (each ≈ 30 MB) */
const KEEP = 4

/**
 * The general model adapted to these phrases (cached on disk by content): the trie file and a
 * dictionary with pronunciations for words the CMU dictionary lacks (`pronounce`). Undefined
 * when the general model cannot be read (then pocketsphinx runs with its defaults).
 */
export async function adaptedModel(phrases: string[], weight: number, pronounce: (word: string) => string[], dir = MODEL_DIR, pairWeight = weight, ngramWeight = 0): Promise<AdaptedFiles | undefined> {
  const words = new Set<string>()
  const bigrams = new Map<string, [string, string]>()
  for (const phrase of phrases) {
    const tokens = phrase.toLowerCase().split(/[\s-]+/).filter((token) => /^[a-z][a-z']*$/.test(token))
    tokens.forEach((token, index) => {
      words.add(token)
      // A single word's plural is heard as often as the word ("sprints", "tickets").
      if (tokens.length === 1 && /^[a-z]/.test(phrase) && token.length > 3 && !/(s|'\w*)$/.test(token)) words.add(`${token}s`)
      if (index > 0) bigrams.set(`${tokens[index - 1]} ${token}`, [tokens[index - 1]!, token])
    })
  }
  const key = createHash('sha256').update(JSON.stringify([dir, weight, ...(pairWeight === weight ? [] : [pairWeight]), [...words].sort(), [...bigrams.keys()].sort(), ...(ngramWeight > 0 ? [ngramWeight, meetingNgramsRead().digest] : [])])).digest('hex').slice(0, 16)
  let pending = building.get(key)
  if (pending) {
    // Files removed behind our back (a tmp cleaner) are built again.
    const files = await pending
    if (!files || (existsSync(files.lm) && existsSync(files.dict))) return files
    building.delete(key)
    pending = undefined
  }
  if (!pending) {
    pending = (async () => {
      const files = { lm: path.join(tmpdir(), `confer-lm-${key}.bin`), dict: path.join(tmpdir(), `confer-lm-${key}.dict`) }
      if (existsSync(files.lm) && existsSync(files.dict)) return files
      const part = `.${process.pid}.${randomBytes(4).toString('hex')}.part`
      try {
        const general = readTrieModel(path.join(dir, 'en-us.lm.bin'))
        const dictionary = await readFile(path.join(dir, 'cmudict-en-us.dict'), 'latin1')
        const missing = [...words].filter((word) => !general.index.has(word))
        const lines = missing.map((word) => `${word} ${pronounce(word).join(' ')}`).filter((line) => line.split(' ').length > 1)
        // Other processes may build the same files at once: each writes its own and renames.
        await writeFile(`${files.dict}${part}`, `${dictionary}${dictionary.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`)
        await writeFile(`${files.lm}${part}`, adaptTrieModel(general, { words, bigrams: bigrams.values(), weight, pairWeight, ...(ngramWeight > 0 ? { ngrams: meetingNgrams(), ngramWeight } : {}) }))
        await rename(`${files.dict}${part}`, files.dict)
        await rename(`${files.lm}${part}`, files.lm)
      } catch {
        await Promise.all([files.lm, files.dict].map((file) => rm(`${file}${part}`, { force: true })))
        return undefined
      }
      built.push(key)
      while (built.length > KEEP) {
        const old = built.shift()!
        building.delete(old)
        await Promise.all(['bin', 'dict'].map((ext) => rm(path.join(tmpdir(), `confer-lm-${old}.${ext}`), { force: true })))
      }
      return files
    })()
    building.set(key, pending)
  }
  return pending
}
