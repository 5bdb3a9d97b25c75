// Sentences, punctuation and the workspace's words on recognizer output (no audio needed).
import { describe, expect, it } from 'vitest'
import { asksByWording, punctuateWords, type SpokenWord } from './punctuate.ts'
import { rewriteWritten } from './written-terms.ts'
import { normalizeNumbers } from './numbers.ts'
import { buildTerms, hearTerms, letterToSound, MEETING_WORDS, soundOfNewWord, titleWords, type Lexicon } from './vocabulary.ts'

/** Words 250 ms long; `|` marks a short silence (60 ms) the recognizer would time between words. */
function timed(text: string): SpokenWord[] {
  const words: SpokenWord[] = []
  let at = 0
  for (const token of text.split(' ')) {
    if (token === '|') {
      at += 60
      continue
    }
    words.push({ word: token, startMs: at, endMs: at + 250 })
    at += 260
  }
  return words
}

describe('sentences and punctuation from recognized words', () => {
  it('ends sentences at pauses and openers, asks by wording, capitalizes', () => {
    expect(punctuateWords(timed('so the plan is that alice will send the budget by friday | can someone tell me whether the alerting fired'), new Map([['alice', 'Alice']])))
      .toBe('So the plan is that Alice will send the budget by Friday. Can someone tell me whether the alerting fired?')
    expect(punctuateWords(timed('sure i can do that | do i need to present at the all hands'))).toBe('Sure. I can do that. Do I need to present at the all hands?')
    expect(punctuateWords(timed('who is going to write the release notes'))).toBe('Who is going to write the release notes?')
  })

  it('ends a sentence after an opening interjection with a short silence, and at a 0.2 s pause', () => {
    expect(punctuateWords(timed('agreed | it was set years ago'))).toBe('Agreed. It was set years ago.')
    const paused = timed('that is fine | take it in')
    paused[3]!.startMs += 150
    expect(punctuateWords(paused)).toBe('That is fine. Take it in.')
  })

  it('keeps a question word that follows "asking", "not sure" and the like in its sentence', () => {
    expect(punctuateWords(timed('merchants kept asking | why checkout was slow'))).toBe('Merchants kept asking why checkout was slow.')
  })

  it('does not end a sentence on a word that cannot close one', () => {
    expect(punctuateWords(timed('i think | we should ship the report | that i sent'))).toBe('I think we should ship the report that I sent.')
  })

  it('tells questions from answers by their first words', () => {
    expect(asksByWording(['will', 'do'])).toBe(false)
    expect(asksByWording(['can', 'do'])).toBe(false)
    expect(asksByWording(['okay', 'so', 'what', 'is', 'the', 'plan'])).toBe(true)
    expect(asksByWording(['i', 'will', 'send', 'it'])).toBe(false)
    // An auxiliary asks before its subject only: a lost "I" or a sentence cut short is no question.
    expect(asksByWording(['can', 'put', 'together', 'a', 'survey'])).toBe(false)
    expect(asksByWording(['was', 'slow'])).toBe(false)
    expect(asksByWording(['is', 'the', 'release', 'still', 'on', 'thursday'])).toBe(true)
    expect(asksByWording(['can', 'maria', 'take', 'it'], new Map([['maria', 'Maria']]))).toBe(true)
  })
})

describe('hearing the workspace\'s words', () => {
  const lexicon: Lexicon = new Map([
    ['run', ['R', 'AH', 'N']], ['book', ['B', 'UH', 'K']], ['runbook', ['R', 'AH', 'N', 'B', 'UH', 'K']],
    ['team', ['T', 'IY', 'M']], ['led', ['L', 'EH', 'D']], ['lead', ['L', 'IY', 'D']], ['budgets', ['B', 'AH', 'JH', 'AH', 'T', 'S']],
    ['budget', ['B', 'AH', 'JH', 'AH', 'T']], ['pellet', ['P', 'EH', 'L', 'AH', 'T']], ['palette', ['P', 'AE', 'L', 'AH', 'T']],
  ])
  const terms = [...buildTerms(['Palette', 'Yusuf Demir'], lexicon, true), ...buildTerms(MEETING_WORDS, lexicon, false)]

  it('joins split compounds, restores the workspace\'s names and spelled acronyms, leaves known words alone', () => {
    const heard = hearTerms(timed('update the run book and the p d f for the pellet project budgets'), terms, lexicon).map((word) => word.word)
    expect(heard).toEqual(['update', 'the', 'runbook', 'and', 'the', 'PDF', 'for', 'the', 'Palette', 'project', 'budgets'])
  })

  it('puts the workspace\'s names and spelled identifiers into an engine\'s written text, keeping its punctuation and times', () => {
    const text = 'Thanks. Can the pellet team send it, Yusef Deemer? Yes, budgets first.'
    const words = text.split(' ').map((word, index) => ({ word: word.replace(/[.,?]/g, ''), startMs: index * 400, endMs: index * 400 + 300 }))
    const own = terms.filter((term) => term.own)
    const hear = (bare: SpokenWord[]) => normalizeNumbers(hearTerms(bare, own, lexicon))
    const heard = rewriteWritten(text, words, hear)!
    expect(heard.text).toBe('Thanks. Can the Palette team send it, Yusuf Demir? Yes, budgets first.')
    expect(heard.words.map((word) => word.word)).toEqual(['Thanks', 'Can', 'the', 'Palette', 'team', 'send', 'it', 'Yusuf', 'Demir', 'Yes', 'budgets', 'first'])
    expect(heard.words[7]).toMatchObject({ startMs: 2800, endMs: 3150 })
    expect(heard.words[8]).toMatchObject({ startMs: 3150, endMs: 3500 })
    // Meeting words are the engine's own business: "run book" stays as written.
    expect(rewriteWritten('Read the run book.', timed('read the run book'), hear)!.text).toBe('Read the run book.')
    // A spelled identifier, as the engine writes it, becomes one.
    expect(rewriteWritten('Okay, so, e, x, p, one, eighteen, the trial.', timed('okay so e x p one eighteen the trial'), hear)!.text).toBe('Okay, so, EXP-118, the trial.')
    expect(rewriteWritten('One two.', timed('one'), hear)).toBeUndefined()
  })

  it('spells unknown words by rule', () => {
    expect(letterToSound('palette')).toEqual(['P', 'AE', 'L', 'EH', 'T'])
    expect(letterToSound('yusuf')).toEqual(['Y', 'AH', 'S', 'AH', 'F'])
    // Acronyms the dictionary lacks are said letter by letter, their plurals with a final Z.
    expect(soundOfNewWord('kpi')).toEqual(['K', 'EY', 'P', 'IY', 'AY'])
    expect(soundOfNewWord('apis')).toEqual(['EY', 'P', 'IY', 'AY', 'Z'])
    expect(soundOfNewWord('runbook')).toEqual(letterToSound('runbook'))
  })
})

describe('titleWords', () => {
  it('keeps names and words the dictionary lacks from work titles, not common words', () => {
    const lexicon: Lexicon = new Map([['estimate', []], ['the', []], ['cost', []], ['of', []], ['managed', []], ['kafka', []], ['update', []]])
    expect(titleWords(['Estimate the cost of managed Kafka', 'Update the runbook'], lexicon)).toEqual(['Kafka', 'runbook'])
  })
})
