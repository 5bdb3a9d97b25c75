// Spoken numbers on recognizer output (no audio needed): identifiers, decimals, times, codes.
import { describe, expect, it } from 'vitest'
import { identifiersIn, normalizeNumbers, type NumberOptions } from './numbers.ts'
import type { SpokenWord } from './punctuate.ts'
import { loadLexicon, soundsLikePrefix } from './vocabulary.ts'

const timed = (text: string): SpokenWord[] => text.split(' ').map((word, index) => ({ word, startMs: index * 300, endMs: index * 300 + 250, confidence: 0.9 - index / 100 }))
const written = (text: string, options?: NumberOptions) => normalizeNumbers(timed(text), options).map((word) => word.word).join(' ')

describe('spoken numbers written as a transcript writes them', () => {
  it('writes identifiers: a short prefix before a number read as digits, or a spelled prefix', () => {
    expect(written("it's sup twenty two ninety one i'll paste it")).toBe("it's SUP-2291 i'll paste it")
    expect(written('the doc is inc zero seven one nine')).toBe('the doc is INC-0719')
    expect(written('the one with the accents SRCH four hundred twelve')).toBe('the one with the accents SRCH-412')
    expect(written('ticket ops seven seventy one')).toBe('ticket OPS-771')
    expect(written('the search bug web four hundred twelve')).toBe('the search bug WEB-412')
  })

  it('keeps times and spans of the joined words', () => {
    const words = normalizeNumbers(timed('ticket sup two two nine one please'))
    expect(words[1]).toEqual({ word: 'SUP-2291', startMs: 300, endMs: 1750, confidence: 0.85 })
    expect(words[2]!.word).toBe('please')
  })

  it('writes decimals, clock times, years and digit codes', () => {
    expect(written('the contrast fix brought it to four point six to one')).toBe('the contrast fix brought it to 4.6 to one')
    expect(written('crash free rate is at ninety nine point eight percent')).toBe('crash free rate is at 99.8 percent')
    expect(written('between nine forty and eleven fifteen')).toBe('between 9:40 and 11:15')
    expect(written('at fourteen oh two the database failed')).toBe('at 14:02 the database failed')
    expect(written('the retros of twenty twenty six')).toBe('the retros of 2026')
    expect(written('it is may twenty twenty six')).toBe('it is may 2026')
    expect(written('call me on five five five one two')).toBe('call me on 55512')
    expect(written('the room two oh four')).toBe('the room 204')
  })

  it('leaves quantities, ranges, lists and phrases as words', () => {
    for (const text of [
      'we are at about three hundred and twenty articles now',
      'the vendor says about twelve hundred dollars',
      'i think i can get five maybe six',
      'it takes fifteen twenty minutes',
      'ask five six people',
      'step one of five',
      'the top fifty last week sixteen had old screenshots',
      'at one point two people said no',
      'we had two interns in twenty twenty minutes',
      'oh and the notes',
      'sprint twenty three',
      'our books say three ninety eight',
      'the vendor web three ninety eight',
    ]) expect(written(text)).toBe(text)
  })

  it('prefers identifiers the workspace knows, also when the prefix was heard wrong', () => {
    const known = identifiersIn(['Fix the CSV export cut-off (SUP-2291)', 'Postmortem for INC-0719'])
    expect(known.map((identifier) => identifier.written)).toEqual(['SUP-2291', 'INC-0719'])
    const soundsLike = (heard: string, prefix: string) => prefix.endsWith(heard) || heard.startsWith(prefix)
    expect(written("it's up twenty two ninety one", { known, soundsLike })).toBe("it's SUP-2291")
    expect(written('the doc is zero seven one nine', { known, soundsLike })).toBe('the doc is INC-0719')
  })
})

describe('prefixes by sound', () => {
  it('hears a prefix said as a word or letter by letter, also without its first sound', async () => {
    const soundsLike = soundsLikePrefix(await loadLexicon())
    expect(soundsLike('up', 'sup')).toBe(true)
    expect(soundsLike('ink', 'inc')).toBe(true)
    expect(soundsLike('the', 'sup')).toBe(false)
    expect(soundsLike('at', 'ops')).toBe(false)
  })
})
