// Bigrams and trigrams interpolated into sphinxbase's binary trie (a trigram model), re-packing its
// bit arrays: the inverse of the reader in language-model.ts (layout: sphinxbase lm_trie.c). The
// trie is keyed from the last word back: unigram w's bigram children are the words h before it
// (sorted by id), each bigram entry (h, w) = word id h, 16-bit backoff bin, 16-bit probability bin,
// pointer to its trigram children (the words u before "h w", sorted), each trigram entry = word id u
// and a 16-bit probability bin. Every array has one extra entry whose pointer closes the last range.
// An added n-gram gets P'(w | context) = λ·P_in(w | context) + (1 − λ)·P(w | context), P taken from
// the general model (through its back-off when it lacks the n-gram), written as the nearest of the
// model's own quantization bins; a trigram whose bigram the model lacks brings that bigram (backoff 0).
// Back-off weights are not renormalized (the added mass is small).

/** sphinxbase's logmath units per factor of ten (log base 1.0001) */
export const LOG_UNITS = 1 / Math.log10(1.0001)

export const requiredBits = (max: number) => (max === 0 ? 0 : Math.floor(Math.log2(max)) + 1)

/** log(a + b) from log a and log b, in logmath units */
export const logSum = (a: number, b: number) => Math.max(a, b) + LOG_UNITS * Math.log10(1 + 10 ** (-Math.abs(a - b) / LOG_UNITS))

export const readBits = (buffer: Buffer, bit: number, length: number) => length === 0 ? 0 : (buffer.readUInt32LE(bit >>> 3) >>> (bit & 7)) & ((1 << length) - 1)

/** Writes into zeroed bits (length + bit % 8 ≤ 32). */
const putBits = (buffer: Buffer, bit: number, value: number) => {
  const byte = bit >>> 3
  buffer.writeUInt32LE((buffer.readUInt32LE(byte) | (value << (bit & 7))) >>> 0, byte)
}

export function nearestBin(bins: Float32Array, value: number): number {
  let low = 0
  let high = bins.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (bins[middle]! < value) low = middle + 1
    else high = middle
  }
  if (low === 0) return 0
  if (low === bins.length) return bins.length - 1
  return value - bins[low - 1]! < bins[low]! - value ? low - 1 : low
}

const arrayBytes = (entries: number, bits: number) => Math.floor(((1 + entries) * bits + 7) / 8) + 8

/** The bit arrays of a trigram trie. */
export type TrieArrays = {
  /** unigram count (the arrays' word ids) */
  count: number
  /** as the header gives them (the arrays' sizes; the entries in use may be fewer) */
  bigramCount: number
  trigramCount: number
  /** {f32 prob, f32 backoff, u32 next} × (count + 1) */
  unigrams: Buffer
  /** the bigram then trigram bit arrays */
  ngrams: Buffer
  /** quantization tables: bigram probabilities, bigram backoffs, trigram probabilities (logmath units) */
  bins: [Float32Array, Float32Array, Float32Array]
}

const layout = (arrays: Pick<TrieArrays, 'count' | 'bigramCount' | 'trigramCount'>) => {
  const wordBits = requiredBits(arrays.count)
  const nextBits = requiredBits(arrays.trigramCount)
  const bigramBits = wordBits + 32 + nextBits
  return { wordBits, nextBits, bigramBits, trigramBits: wordBits + 16, trigramOffset: arrayBytes(arrays.bigramCount, bigramBits) * 8 }
}

export const ngramBytes = (arrays: Pick<TrieArrays, 'count' | 'bigramCount' | 'trigramCount'>) => {
  const { trigramOffset, trigramBits } = layout(arrays)
  return trigramOffset / 8 + arrayBytes(arrays.trigramCount, trigramBits)
}

/** An in-domain n-gram: its words (in order) and log10 P_in(last word | the words before). */
export type InDomainNgram = { words: string[]; log10: number }

/** Index of bigram (h, w) in the bigram array, or -1. */
export function findBigram(arrays: TrieArrays, h: number, w: number): number {
  const { wordBits, bigramBits } = layout(arrays)
  let low = arrays.unigrams.readUInt32LE(w * 12 + 8)
  let high = arrays.unigrams.readUInt32LE((w + 1) * 12 + 8)
  while (low < high) {
    const middle = (low + high) >>> 1
    const word = readBits(arrays.ngrams, middle * bigramBits, wordBits)
    if (word === h) return middle
    if (word < h) low = middle + 1
    else high = middle
  }
  return -1
}

/** log10 P(w | u h) as the arrays store it, or undefined without such a trigram (tests, diagnostics). */
export function trigramLog10(arrays: TrieArrays, u: number, h: number, w: number): number | undefined {
  const bigram = findBigram(arrays, h, w)
  const trigram = bigram < 0 ? -1 : findTrigram(arrays, bigram, u)
  if (trigram < 0) return undefined
  const { wordBits, trigramBits, trigramOffset } = layout(arrays)
  return arrays.bins[2][readBits(arrays.ngrams, trigramOffset + trigram * trigramBits + wordBits, 16)]! / LOG_UNITS
}

const bigramNext = (arrays: TrieArrays, index: number) => {
  const { wordBits, nextBits, bigramBits } = layout(arrays)
  return readBits(arrays.ngrams, index * bigramBits + wordBits + 32, nextBits)
}

export function findTrigram(arrays: TrieArrays, bigram: number, u: number): number {
  const { wordBits, trigramBits, trigramOffset } = layout(arrays)
  let low = bigramNext(arrays, bigram)
  let high = bigramNext(arrays, bigram + 1)
  while (low < high) {
    const middle = (low + high) >>> 1
    const word = readBits(arrays.ngrams, trigramOffset + middle * trigramBits, wordBits)
    if (word === u) return middle
    if (word < u) low = middle + 1
    else high = middle
  }
  return -1
}

/**
 * The arrays with the in-domain n-grams interpolated in (weight `lambda`), re-packed. Words must be
 * ids of `index`; n-grams with a word the model lacks are skipped.
 */
export function interpolateNgrams(arrays: TrieArrays, index: Map<string, number>, ngrams: Iterable<InDomainNgram>, lambda: number): TrieArrays {
  const bigramsOf = new Map<number, Map<number, number | undefined>>()
  const trigramsOf = new Map<number, Map<number, number>>()
  const pairKey = (h: number, w: number) => h * arrays.count + w
  let newBigrams = 0
  let newTrigrams = 0
  const addBigram = (h: number, w: number, log10: number | undefined) => {
    let children = bigramsOf.get(w)
    if (!children) bigramsOf.set(w, (children = new Map()))
    if (!children.has(h)) {
      if (findBigram(arrays, h, w) < 0) newBigrams += 1
      children.set(h, log10)
    } else if (log10 !== undefined) children.set(h, log10)
  }
  for (const ngram of ngrams) {
    const ids = ngram.words.map((word) => index.get(word))
    if (ids.some((id) => id === undefined || id >= arrays.count)) continue
    if (ids.length === 2) addBigram(ids[0]!, ids[1]!, ngram.log10)
    if (ids.length !== 3) continue
    const [u, h, w] = ids as [number, number, number]
    addBigram(h, w, bigramsOf.get(w)?.get(h))
    const key = pairKey(h, w)
    let children = trigramsOf.get(key)
    if (!children) trigramsOf.set(key, (children = new Map()))
    if (!children.has(u)) {
      const bigram = findBigram(arrays, h, w)
      if (bigram < 0 || findTrigram(arrays, bigram, u) < 0) newTrigrams += 1
    }
    children.set(u, ngram.log10)
  }

  const old = layout(arrays)
  const result: TrieArrays = { ...arrays, bigramCount: arrays.bigramCount + newBigrams, trigramCount: arrays.trigramCount + newTrigrams, unigrams: Buffer.from(arrays.unigrams) }
  const next = layout(result)
  result.ngrams = Buffer.alloc(ngramBytes(result))
  const [bigramProbs, backoffs, trigramProbs] = arrays.bins
  const zeroBackoff = nearestBin(backoffs, 0)
  const keep = LOG_UNITS * Math.log10(1 - lambda)
  const weight = LOG_UNITS * Math.log10(lambda)
  const mix = (general: number, log10: number | undefined) => (log10 === undefined ? general : logSum(general + keep, weight + LOG_UNITS * log10))
  const uniProb = (id: number) => arrays.unigrams.readFloatLE(id * 12)
  const uniBackoff = (id: number) => arrays.unigrams.readFloatLE(id * 12 + 4)
  const oldNext = (id: number) => arrays.unigrams.readUInt32LE(id * 12 + 8)
  const from = arrays.ngrams
  const to = result.ngrams
  let bigramAt = 0
  let trigramAt = 0

  const writeTrigram = (u: number, probBin: number) => {
    const bit = next.trigramOffset + trigramAt * next.trigramBits
    putBits(to, bit, u)
    putBits(to, bit + next.wordBits, probBin)
    trigramAt += 1
  }
  const writeTrigrams = (h: number, w: number, oldBigram: number, generalBigram: number) => {
    const added = trigramsOf.get(pairKey(h, w))
    const addedIds = added ? [...added.keys()].sort((a, b) => a - b) : []
    let oldAt = oldBigram < 0 ? 0 : bigramNext(arrays, oldBigram)
    const oldEnd = oldBigram < 0 ? 0 : bigramNext(arrays, oldBigram + 1)
    let addedAt = 0
    while (oldAt < oldEnd || addedAt < addedIds.length) {
      const bit = old.trigramOffset + oldAt * old.trigramBits
      const oldWord = oldAt < oldEnd ? readBits(from, bit, old.wordBits) : Infinity
      const addedWord = addedAt < addedIds.length ? addedIds[addedAt]! : Infinity
      if (oldWord <= addedWord) {
        const probBin = readBits(from, bit + old.wordBits, 16)
        writeTrigram(oldWord, oldWord === addedWord ? nearestBin(trigramProbs, mix(trigramProbs[probBin]!, added!.get(oldWord))) : probBin)
        oldAt += 1
        if (oldWord === addedWord) addedAt += 1
      } else {
        const context = findBigram(arrays, addedWord, h)
        const backoff = context < 0 ? 0 : backoffs[readBits(from, context * old.bigramBits + old.wordBits, 16)]!
        writeTrigram(addedWord, nearestBin(trigramProbs, mix(backoff + generalBigram, added!.get(addedWord))))
        addedAt += 1
      }
    }
  }
  const writeBigram = (h: number, w: number, backoffBin: number, probBin: number, oldBigram: number, generalProb: number) => {
    const bit = bigramAt * next.bigramBits
    putBits(to, bit, h)
    putBits(to, bit + next.wordBits, backoffBin)
    putBits(to, bit + next.wordBits + 16, probBin)
    putBits(to, bit + next.wordBits + 32, trigramAt)
    bigramAt += 1
    writeTrigrams(h, w, oldBigram, generalProb)
  }

  for (let w = 0; w < arrays.count; w += 1) {
    result.unigrams.writeUInt32LE(bigramAt, w * 12 + 8)
    const added = bigramsOf.get(w)
    const addedIds = added ? [...added.keys()].sort((a, b) => a - b) : []
    let oldAt = oldNext(w)
    const oldEnd = oldNext(w + 1)
    let addedAt = 0
    while (oldAt < oldEnd || addedAt < addedIds.length) {
      const bit = oldAt * old.bigramBits
      const oldWord = oldAt < oldEnd ? readBits(from, bit, old.wordBits) : Infinity
      const addedWord = addedAt < addedIds.length ? addedIds[addedAt]! : Infinity
      if (oldWord <= addedWord) {
        const backoffBin = readBits(from, bit + old.wordBits, 16)
        const probBin = readBits(from, bit + old.wordBits + 16, 16)
        const general = bigramProbs[probBin]!
        const log10 = oldWord === addedWord ? added!.get(oldWord) : undefined
        writeBigram(oldWord, w, backoffBin, log10 === undefined ? probBin : nearestBin(bigramProbs, mix(general, log10)), oldAt, general)
        oldAt += 1
        if (oldWord === addedWord) addedAt += 1
      } else {
        const general = uniBackoff(addedWord) + uniProb(w)
        writeBigram(addedWord, w, zeroBackoff, nearestBin(bigramProbs, mix(general, added!.get(addedWord))), -1, general)
        addedAt += 1
      }
    }
  }
  result.unigrams.writeUInt32LE(bigramAt, arrays.count * 12 + 8)
  putBits(to, bigramAt * next.bigramBits + next.wordBits + 32, trigramAt)
  // The header's counts may exceed the entries written (sphinxbase sizes the arrays from the ARPA
  // counts; en-us.lm.bin has 6 bigram slots fewer in use): the same slack is kept.
  const usedBigrams = oldNext(arrays.count)
  if (bigramAt !== usedBigrams + newBigrams || trigramAt !== bigramNext(arrays, usedBigrams) + newTrigrams) throw new Error('n-gram counts do not add up')
  return result
}
