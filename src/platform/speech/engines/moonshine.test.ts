// The default engine: Moonshine tiny on onnxruntime, with its utterances cut at voice changes
// found from the audio alone (parts.ts), since it gives no word times.
import { describe, expect, it } from 'vitest'
import { pcmSamples } from '../audio.ts'
import { speechParts } from '../parts.ts'
import { splitUtterance } from '../turns.ts'
import { moonshineAvailable, moonshineEngine, timedWords } from './moonshine.ts'
import { hasFfmpeg, hasFlite, speak, synthesizeMeeting, wordErrorRate } from '../../../../test/speech.ts'

const speech = hasFlite && hasFfmpeg
const ready = speech && await moonshineAvailable()

describe('moonshine', () => {
  it('ships with the checkout: the model and onnxruntime load', async () => {
    expect(await moonshineAvailable()).toBe(true)
    expect(await moonshineAvailable('/nonexistent')).toBe(false)
  })

  it.skipIf(!ready)('hears each utterance with punctuation and capitals, words in order with times inside it', async () => {
    const texts = ['Good morning everyone. The new version is ready and the tests are passing.', 'Can you send the budget to the team by Friday?']
    const utterances = texts.map((text, index) => pcmSamples(speak({ voice: index === 0 ? 'slt' : 'rms', text })))
    const results = await moonshineEngine().transcribe(utterances, { language: 'en' })
    expect(results).toHaveLength(2)
    expect(wordErrorRate(texts.join(' '), results.map((result) => result.text).join(' '))).toBeLessThanOrEqual(0.15)
    expect(results[1]!.text).toMatch(/^Can you send .*\?$/)
    results.forEach((result, index) => {
      const durationMs = (utterances[index]!.length / 16_000) * 1000
      expect(result.words!.map((word) => word.word).join(' ')).toBe(result.text.split(/\s+/).join(' '))
      for (const [at, word] of result.words!.entries()) {
        expect(word.startMs).toBeGreaterThanOrEqual(at ? result.words![at - 1]!.endMs : 0)
        expect(word.endMs).toBeLessThanOrEqual(durationMs)
      }
      expect(result.confidence).toBeGreaterThan(0.5)
    })
  }, 60_000)

  it.skipIf(!ready)('finds where a second voice takes over without a pause, and hears each turn on its own', async () => {
    const { pcm, turns } = synthesizeMeeting([
      { voice: 'slt', text: 'The vendor sent the contract this morning and legal has it now.' },
      { voice: 'rms', text: 'Good. I will review the pricing section by Thursday.' },
    ], 0)
    const samples = pcmSamples(pcm)
    const parts = speechParts(samples)
    const turnStarts = parts.filter((part) => part.newTurn).map((part) => (part.startSample / 16_000) * 1000)
    expect(turnStarts).toHaveLength(1)
    expect(Math.abs(turnStarts[0]! - turns[1]!.startMs)).toBeLessThan(400)
    const [result] = await moonshineEngine().transcribe([samples], { language: 'en' })
    expect(result!.turnStarts).toHaveLength(1)
    const second = result!.words!.slice(result!.turnStarts![0]).map((word) => word.word).join(' ')
    expect(wordErrorRate(turns[1]!.text, second)).toBeLessThanOrEqual(0.2)
  }, 60_000)

  it('lays the words over the part\'s sound, so a pause falls between two sentences rather than inside a word', () => {
    const part = { startSample: 0, endSample: 48_000, speechStartMs: 100, speechEndMs: 2900, newTurn: false, voiced: [[100, 1300], [1900, 2900]] as [number, number][] }
    const words = timedWords('We ship on Friday. Agreed, fine.', part, 0.9)
    expect(words.map((word) => word.word)).toEqual(['We', 'ship', 'on', 'Friday.', 'Agreed,', 'fine.'])
    const friday = words[3]!
    const agreed = words[4]!
    expect(friday.endMs).toBeLessThanOrEqual(1300)
    expect(agreed.startMs).toBeGreaterThanOrEqual(1300)
    for (const word of words) expect(part.voiced.some(([start, end]) => word.startMs >= start && word.startMs <= end)).toBe(true)
  })

  it('keeps a written sentence whole across a spelled letter or an abbreviation, and cuts at real ends', () => {
    const text = "It's T. R. 80417. Dr. Patel signed it, e.g. the permit. Then we go, right? Yes."
    const words = text.split(' ').map((word, index) => ({ word, startMs: index * 300, endMs: index * 300 + 250 }))
    expect(splitUtterance(new Int16Array(0), words, { writtenText: text, changes: [] }).map((piece) => piece.text))
      .toEqual(["It's T. R. 80417.", 'Dr. Patel signed it, e.g. the permit.', 'Then we go, right?', 'Yes.'])
  })

  it('cuts a long stretch of one voice into parts of at most 20 s, at quiet moments, and silence into nothing', async () => {
    // 50 s of a tone that dips to silence every 1.3 s, like words with gaps.
    const samples = new Int16Array(16_000 * 50)
    for (let index = 0; index < samples.length; index += 1) samples[index] = (index % 20_800) < 16_000 ? Math.round(3000 * Math.sin(index / 8)) : 0
    const parts = speechParts(samples)
    expect(parts.length).toBeGreaterThanOrEqual(3)
    for (const part of parts) expect((part.endSample - part.startSample) / 16).toBeLessThanOrEqual(20_000)
    expect(parts.every((part) => !part.newTurn)).toBe(true)
    for (const part of parts.slice(1)) expect(samples[part.startSample]).toBe(0)
    const [result] = await moonshineEngine().transcribe([new Int16Array(16_000 * 2)], { language: 'en' })
    expect(result!.words!.length).toBeLessThanOrEqual(2)
  }, 60_000)
})
