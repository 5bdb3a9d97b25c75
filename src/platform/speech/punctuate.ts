// Sentences, punctuation and capitals for recognizer output ("so the plan is that alice will send
// the budget by friday can someone tell me whether the alerting fired"), by rule: no model, no
// download. A sentence ends where the speaker pauses, or where the next word opens a sentence
// (a pronoun, a question word, a discourse marker) after a word that can close one, helped by the
// short silences the recognizer times between words. A sentence that opens as a question
// (wording, not intonation) ends with "?", the others with "."; "I", weekdays, months and the
// workspace's own names get their capitals.

export type SpokenWord = { word: string; startMs: number; endMs: number; confidence?: number }

const set = (words: string) => new Set(words.split(/\s+/).filter(Boolean))

/** A sentence rarely ends on these (articles, prepositions, conjunctions, auxiliaries, verbs of saying). */
const NO_END = set(`a an the to of in on at for with from by about into onto over under than as and or but nor
  so because if which who whose whom what how why when while where whether my your our their his her its this these those
  is are was were be been being am do does did have has had will would shall should can could may might must
  i i'm i'll i've i'd we we're we'll we've you you're you'll they they're he she it's let's let
  think thought guess know knew mean said say says tell told hope believe suppose wonder sure not very really just
  maybe also like uh um er the's whether either neither some any every each no more most much many few`)

/** Words that open a sentence when they follow a pause or a word that can close one. */
const STARTERS = set(`i i'm i'll i've i'd we we're we'll we've we'd let's let you you're you'll they they're
  so okay ok alright sure yes yeah yep no nope thanks thank great perfect cool right
  who who's what what's when where where's why how how's can could should shall would will do does did
  is are was were have has any anyone anybody someone somebody please also then now besides anyway actually
  today tomorrow next first second finally that's there's it's`)

/** Openers strong enough to start a sentence with no pause at all (after a word that can close one). */
const STRONG_STARTERS = set(`i'll i'm let's we'll we're okay alright thanks sure yes yeah who who's what's why how
  can could should does do did`)

/** Interjections that are a sentence of their own at the start of a turn ("sure i can do that"). */
const INTERJECTIONS = set('okay ok alright sure yes yeah yep no nope thanks great perfect cool right morning hi hello hey agreed done good fine true exactly absolutely nice noted awesome')

const WH_WORDS = set('who what when where why how which whether')
/** Verbs and adjectives that take a question-word clause ("asking why…", "figure out how…"). */
const TAKES_WH_CLAUSE = set(`ask asks asked asking know knows knew wonder wondering wondered explain explains explained
  understand understood decide decided deciding figure figured out check checked show see saw seen remember forget forgot
  find found idea sure unclear matter matters depends clear learn learned`)

/** A sentence asks when it opens (after fillers) with one of these. */
const QUESTION_OPENERS = set(`who who's whose whom what what's when when's where where's why how how's which
  do does did is isn't are aren't was wasn't were can can't could couldn't would wouldn't will won't should shouldn't
  shall have haven't has hasn't any anyone anybody am`)
const LEADING = set('so okay ok and but um uh well also then alright right now yeah')
/** "do I need to…", "can someone…", not "can do" / "will do" / "do it". */
const NOT_QUESTION_SECOND = set('do it that this so')

const PAUSE_MS = 200
const LONG_PAUSE_MS = 700
/** The recognizer times a short silence between words as a gap of at least this much. */
const SILENCE_MS = 60
/** A run longer than this is cut at its best place anyway. */
const MAX_SENTENCE_WORDS = 30

const bare = (word: string) => word.toLowerCase().replace(/\(\d+\)$/, '')

/** Boundary indexes (a boundary i sits before word i) where a sentence ends. */
export function sentenceBreaks(words: SpokenWord[]): number[] {
  const breaks: number[] = []
  let sentenceStart = 0
  const scoreAt = (index: number) => {
    const previous = bare(words[index - 1]!.word)
    const next = bare(words[index]!.word)
    const gap = words[index]!.startMs - words[index - 1]!.endMs
    if (gap >= LONG_PAUSE_MS) return 3
    // "sure i can do that", "okay so": an interjection that opens the sentence stands alone.
    if (index - sentenceStart === 1 && INTERJECTIONS.has(previous) && (STARTERS.has(next) || gap >= SILENCE_MS)) return 2
    // "asking why checkout was slow", "not sure what": a question word after these opens a clause, not a sentence.
    if (WH_WORDS.has(next) && TAKES_WH_CLAUSE.has(previous)) return 0
    if (NO_END.has(previous)) return 0
    if (gap >= PAUSE_MS) return 2
    if (STARTERS.has(next) && gap >= SILENCE_MS) return 2
    if (STRONG_STARTERS.has(next) && index - sentenceStart >= 3) return 1.5
    if (STARTERS.has(next)) return 0.5
    return 0
  }
  for (let index = 1; index < words.length; index += 1) {
    if (scoreAt(index) >= 1.5) {
      breaks.push(index)
      sentenceStart = index
      continue
    }
    if (index - sentenceStart >= MAX_SENTENCE_WORDS) {
      // Too long: cut at the best-scored place of the run.
      let best = index
      let bestScore = -1
      for (let candidate = sentenceStart + 4; candidate <= index; candidate += 1) {
        const score = scoreAt(candidate) + (words[candidate]!.startMs - words[candidate - 1]!.endMs) / 1000
        if (score > bestScore) {
          best = candidate
          bestScore = score
        }
      }
      breaks.push(best)
      sentenceStart = best
    }
  }
  return breaks
}

const CAPITALS = new Map([
  ...'monday tuesday wednesday thursday friday saturday sunday january february march april june july august september october november december'
    .split(' ').map((word) => [word, word[0]!.toUpperCase() + word.slice(1)] as const),
  ['i', 'I'], ["i'm", "I'm"], ["i'll", "I'll"], ["i've", "I've"], ["i'd", "I'd"],
])

/** Whether words (lower case, no punctuation) open a question by their wording. */
export function asksByWording(words: string[], properNouns?: Map<string, string>): boolean {
  let index = 0
  while (index < words.length - 1 && LEADING.has(words[index]!)) index += 1
  const first = words[index]
  if (!first || !QUESTION_OPENERS.has(first)) return false
  const second = words[index + 1]
  if (second === undefined) return /^(?:who|what|why|how|when|where)$/.test(first)
  // "will do", "can do", "do it": answers, not questions.
  if (/^(?:will|can|do|does|did)$/.test(first) && NOT_QUESTION_SECOND.has(second)) return false
  // An auxiliary asks only before its subject ("can you…", "is the plan…", "is Maria…"); "can put
  // together a survey" is a statement whose "I" the recognizer lost, "was slow" the rest of one.
  if (AUXILIARIES.has(first)) return SUBJECTS.has(second) || /'s$/.test(second) || Boolean(properNouns?.has(second))
  return true
}

const AUXILIARIES = set(`do does did is isn't are aren't was wasn't were can can't could couldn't would wouldn't will won't
  should shouldn't shall have haven't has hasn't am`)
/** What follows an auxiliary that asks: a pronoun, a determiner, "there", someone. */
const SUBJECTS = set(`i you we they he she it someone somebody anyone anybody everyone everybody there the a an this that
  these those our your my their his her its any all both either each everything anything something`)

/** One sentence of recognized words → its written form with a capital and an end mark. */
export function punctuate(tokens: string[], properNouns?: Map<string, string>): string {
  const kept = tokens.map((token) => token.replace(/\(\d+\)$/, '')).filter(Boolean)
  const words = kept.map((token) => token.toLowerCase())
  if (words.length === 0) return ''
  // Written forms from the vocabulary ("PDF", "Yusuf") keep their capitals.
  const written = words.map((word, index) => properNouns?.get(word) ?? CAPITALS.get(word) ?? (/[A-Z]/.test(kept[index]!) ? kept[index]! : word))
  written[0] = written[0]![0]!.toUpperCase() + written[0]!.slice(1)
  return `${written.join(' ')}${asksByWording(words, properNouns) ? '?' : '.'}`
}

/** Recognized text of several sentences → punctuated text (sentences joined by a space). */
export function punctuateWords(words: SpokenWord[], properNouns?: Map<string, string>): string {
  const cuts = [0, ...sentenceBreaks(words), words.length]
  const sentences: string[] = []
  for (let index = 0; index + 1 < cuts.length; index += 1) {
    const text = punctuate(words.slice(cuts[index]!, cuts[index + 1]!).map((word) => word.word), properNouns)
    if (text) sentences.push(text)
  }
  return sentences.join(' ')
}
