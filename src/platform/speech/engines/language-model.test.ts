import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { adaptedModel, adaptTrieModel, bigramLog10, meetingNgrams, readTrieModel, trigramLog10, unigramLog10 } from './language-model.ts'
import { letterToSound } from '../vocabulary.ts'

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us'
const hasModel = existsSync(path.join(MODEL_DIR, 'en-us.lm.bin'))

describe.skipIf(!hasModel)('adapted language model (pocketsphinx-en-us)', () => {
  it('reads the general trie model and writes one biased toward the given words and pairs', async () => {
    const general = readTrieModel(path.join(MODEL_DIR, 'en-us.lm.bin'))
    expect(general.order).toBe(3)
    expect(general.words).toHaveLength(general.counts[0]!)
    expect(general.index.has('runbook')).toBe(false)

    const adapted = adaptTrieModel(general, { words: ['runbook', 'palette', 'lead'], bigrams: [['team', 'lead']], weight: 0.1 })
    const dir = await mkdtemp(path.join(tmpdir(), 'confer-lm-test-'))
    try {
      await writeFile(path.join(dir, 'adapted.bin'), adapted)
      const model = readTrieModel(path.join(dir, 'adapted.bin'))
      expect(model.counts).toEqual([general.counts[0]! + 1, general.counts[1], general.counts[2]])
      expect(model.words.at(-1)).toBe('runbook')
      // λ/|V| = 0.1/3 for each in-domain word, (1 − λ) of the rest.
      expect(unigramLog10(model, 'runbook')).toBeCloseTo(Math.log10(0.1 / 3), 3)
      expect(unigramLog10(model, 'palette')!).toBeGreaterThan(unigramLog10(general, 'palette')! + 1)
      expect(unigramLog10(model, 'the')).toBeCloseTo(unigramLog10(general, 'the')! + Math.log10(0.9), 3)
      // P(lead | team) moves toward 1 by λ; other bigrams keep their values.
      const before = bigramLog10(general, 'team', 'lead')!
      expect(10 ** bigramLog10(model, 'team', 'lead')!).toBeCloseTo(0.9 * 10 ** before + 0.1, 2)
      expect(bigramLog10(model, 'team', 'led')).toBe(bigramLog10(general, 'team', 'led'))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('interpolates in-domain bigrams and trigrams into the trie, adding those it lacks', async () => {
    const general = readTrieModel(path.join(MODEL_DIR, 'en-us.lm.bin'))
    expect(bigramLog10(general, 'zebra', 'invoice')).toBeUndefined()
    expect(trigramLog10(general, 'of', 'the', 'team')).toBeDefined()
    const ngrams = [
      { words: ['team', 'lead'], log10: Math.log10(0.3) },
      { words: ['zebra', 'invoice'], log10: Math.log10(0.5) },
      { words: ['zebra', 'invoice', 'tomorrow'], log10: Math.log10(0.5) },
      { words: ['runbook', 'says'], log10: Math.log10(0.5) },
    ]
    const adapted = adaptTrieModel(general, { words: ['runbook'], weight: 0.05, ngrams, ngramWeight: 0.2 })
    const dir = await mkdtemp(path.join(tmpdir(), 'confer-lm-test-'))
    try {
      await writeFile(path.join(dir, 'adapted.bin'), adapted)
      const model = readTrieModel(path.join(dir, 'adapted.bin'))
      // "invoice tomorrow" joins as the trigram's parent (the trie is keyed from the last word back).
      expect(model.counts).toEqual([general.counts[0]! + 1, general.counts[1]! + 3, general.counts[2]! + 1])
      expect(bigramLog10(general, 'invoice', 'tomorrow')).toBeUndefined()
      expect(bigramLog10(model, 'invoice', 'tomorrow')).toBeDefined()
      expect(10 ** bigramLog10(model, 'team', 'lead')!).toBeCloseTo(0.8 * 10 ** bigramLog10(general, 'team', 'lead')! + 0.2 * 0.3, 2)
      // Added n-grams: λ·P_in plus (1 − λ) of the general model's back-off (tiny here).
      expect(10 ** bigramLog10(model, 'zebra', 'invoice')!).toBeCloseTo(0.1, 2)
      expect(10 ** bigramLog10(model, 'runbook', 'says')!).toBeCloseTo(0.1, 2)
      expect(10 ** trigramLog10(model, 'zebra', 'invoice', 'tomorrow')!).toBeCloseTo(0.1, 2)
      // Everything else is as it was, across the re-packed arrays.
      for (const [first, second] of [['of', 'the'], ['team', 'led'], ['zebra', 'crossing'], ['the', 'zebra']] as const) expect(bigramLog10(model, first, second)).toBe(bigramLog10(general, first, second))
      expect(trigramLog10(model, 'of', 'the', 'team')).toBe(trigramLog10(general, 'of', 'the', 'team'))
      expect(trigramLog10(model, 'one', 'of', 'the')).toBe(trigramLog10(general, 'one', 'of', 'the'))
      expect(unigramLog10(model, 'runbook')).toBeCloseTo(Math.log10(0.05), 3)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    // The shipped meeting n-grams are read and carry probabilities.
    expect(meetingNgrams().length).toBeGreaterThan(1000)
    expect(meetingNgrams().every((ngram) => ngram.words.length >= 2 && ngram.words.length <= 3 && ngram.log10 <= 0)).toBe(true)
  })

  it('caches the adapted files by content and gives unknown words a pronunciation', async () => {
    const first = await adaptedModel(['runbook', 'Yusuf Demir'], 0.05, letterToSound)
    const again = await adaptedModel(['runbook', 'Yusuf Demir'], 0.05, letterToSound)
    expect(first).toBeDefined()
    expect(again).toEqual(first)
    const { readFile } = await import('node:fs/promises')
    const dictionary = await readFile(first!.dict, 'utf8')
    expect(dictionary).toMatch(/\nrunbook R AH N B UW K\n/)
    expect(dictionary).toMatch(/\nrunbooks /)
    expect(dictionary).not.toMatch(/\nyusufs /)
    await Promise.all([first!.lm, first!.dict].map((file) => rm(file, { force: true })))
  })
})
