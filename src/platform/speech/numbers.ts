// Spoken numbers written the way a transcript writes them (inverse text normalisation), for
// engines that give bare words (pocketsphinx: "ticket sup twenty two ninety one"). By rule, on the
// recognized words with their times, before sentences are cut:
// - identifiers: a short prefix (spelled letters "s r c h" → "SRCH", or a short word that is no
//   function word) before a number read as digits ("twenty two ninety one", "zero seven one nine",
//   "seven seven one") → "SUP-2291"; before a plain number ("four hundred twelve") only after a
//   word that names a ticket ("ticket", "bug", "issue"…) or when the prefix was spelled;
//   identifiers the workspace already knows win when the digits match (the prefix heard wrongly:
//   "up twenty two ninety one" → "SUP-2291");
// - decimals ("four point six" → "4.6"), times after "at", "until", "between"… ("nine forty" →
//   "9:40"), years ("twenty twenty six" → "2026") and other digit strings of three or more;
// - plain quantities stay words ("three hundred and twenty articles", "ten percent"): the labelled
//   meetings and extraction's cues read them as words, and a digit there changes no meaning.
import type { SpokenWord } from './punctuate.ts'

const UNITS = new Map(['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'].map((word, value) => [word, value]))
const TEENS = new Map(['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'].map((word, index) => [word, index + 10]))
const TENS = new Map(['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'].map((word, index) => [word, (index + 2) * 10]))

const set = (words: string) => new Set(words.split(/\s+/).filter(Boolean))

/** Words that name something numbered: the word after them, with a number, is an identifier. */
const NAMES_A_TICKET = set('ticket tickets issue issues bug bugs incident incidents case req requisition story task epic card jira linear pr prs pull request number id')
/** What a number follows without being an identifier: function words, and nouns that count or order things. */
const NOT_A_PREFIX = set(`a an the to of in on at for with from by about into over under than as and or but so if
  is are was were be been am do does did have has had will would can could should may might must it it's its this that these those
  i we you they he she me us them my our your their his her up out off down around roughly nearly almost only just like maybe
  until till since before after between per each every top last next first all some any no not more less over
  step steps page pages room rooms floor day days week weeks month months year years level phase stage round part item items
  option options line lines slide slides row rows table version sprint team teams group size point points times minute minutes
  hour hours second seconds percent gate zone tier grade chapter section figure number plus minus got get take took make made
  march april may june july sept`)
/** Words that say what something is or is called: the short word after them may be an identifier's prefix. */
const SAYS_WHAT = set("is it's that's was called named under")
/** Words before a clock time. */
const BEFORE_TIME = set('at until till by from between around since before after about')

const bare = (word: string) => word.toLowerCase().replace(/\(\d+\)$/, '')
const isNumberWord = (word: string) => UNITS.has(word) || TEENS.has(word) || TENS.has(word) || word === 'hundred' || word === 'oh'

/** One spoken group of a number: its value and how many digits it stands for when read as digits. */
type Group = { value: number; digits: string; words: number; kind: 'unit' | 'teen' | 'tens' | 'hundreds' }

/** The groups of a run of number words ("twenty two ninety one" → 22, 91), or undefined when a word does not fit. */
function groupsOf(run: string[]): Group[] | undefined {
  const groups: Group[] = []
  for (let at = 0; at < run.length;) {
    const word = run[at]!
    const next = run[at + 1]
    if (word === 'oh' || word === 'zero') {
      groups.push({ value: 0, digits: '0', words: 1, kind: 'unit' })
      at += 1
    } else if (UNITS.has(word) && next === 'hundred') {
      // "four hundred [and] twelve": one group of three digits.
      let value = UNITS.get(word)! * 100
      let used = 2
      const rest = run[at + 2] === 'and' ? at + 3 : at + 2
      const tail = run[rest]
      if (tail && TENS.has(tail)) {
        value += TENS.get(tail)!
        used = rest - at + 1
        if (run[rest + 1] && UNITS.has(run[rest + 1]!) && run[rest + 1] !== 'zero') {
          value += UNITS.get(run[rest + 1]!)!
          used += 1
        }
      } else if (tail && (TEENS.has(tail) || (UNITS.has(tail) && tail !== 'zero'))) {
        value += TEENS.get(tail) ?? UNITS.get(tail)!
        used = rest - at + 1
      }
      groups.push({ value, digits: String(value), words: used, kind: 'hundreds' })
      at += used
    } else if (TENS.has(word)) {
      const unit = next && next !== 'zero' ? UNITS.get(next) : undefined
      const value = TENS.get(word)! + (unit ?? 0)
      groups.push({ value, digits: String(value), words: unit === undefined ? 1 : 2, kind: 'tens' })
      at += unit === undefined ? 1 : 2
    } else if (TEENS.has(word)) {
      groups.push({ value: TEENS.get(word)!, digits: String(TEENS.get(word)), words: 1, kind: 'teen' })
      at += 1
    } else if (UNITS.has(word)) {
      groups.push({ value: UNITS.get(word)!, digits: String(UNITS.get(word)), words: 1, kind: 'unit' })
      at += 1
    } else {
      return undefined
    }
  }
  return groups
}

/** "nine forty", "fourteen oh two", "eleven fifteen": an hour and its minutes. */
function clockTime(groups: Group[]): string | undefined {
  if (groups.length === 3 && groups[1]!.digits === '0' && groups[2]!.kind === 'unit' && groups[0]!.value >= 1 && groups[0]!.value <= 23) {
    return `${groups[0]!.value}:0${groups[2]!.value}`
  }
  if (groups.length !== 2) return undefined
  const [hour, minutes] = groups as [Group, Group]
  if (hour.value < 1 || hour.value > 23 || hour.kind === 'hundreds' || minutes.kind === 'unit' || minutes.kind === 'hundreds' || minutes.value > 59) return undefined
  return `${hour.value}:${String(minutes.value).padStart(2, '0')}`
}

/** An identifier the workspace already knows ("SUP-2291"): its prefix's sound and its digits. */
export type KnownIdentifier = { written: string; prefix: string; digits: string }

/** The identifiers ("SUP-2291", "INC-0719") written in these texts (open work titles, earlier transcripts). */
export function identifiersIn(texts: Iterable<string>): KnownIdentifier[] {
  const found = new Map<string, KnownIdentifier>()
  for (const text of texts) {
    for (const match of text.matchAll(/\b([A-Z][A-Z0-9]{1,9})-(\d{2,})\b/g)) found.set(match[0], { written: match[0], prefix: match[1]!.toLowerCase(), digits: match[2]! })
  }
  return [...found.values()]
}

export type NumberOptions = {
  known?: KnownIdentifier[]
  /** whether a heard word could be this prefix (by sound); without it, only the same spelling counts */
  soundsLike?: (heard: string, prefix: string) => boolean
}

const joined = (words: SpokenWord[], written: string): SpokenWord => {
  const confidences = words.map((word) => word.confidence).filter((value): value is number => value !== undefined)
  return { word: written, startMs: words[0]!.startMs, endMs: words[words.length - 1]!.endMs, ...(confidences.length ? { confidence: Math.min(...confidences) } : {}) }
}

/** The recognized words with spoken numbers written as digits where they name an identifier, a decimal, a time or a code. */
export function normalizeNumbers(words: SpokenWord[], options: NumberOptions = {}): SpokenWord[] {
  const out: SpokenWord[] = []
  for (let index = 0; index < words.length;) {
    const word = bare(words[index]!.word)
    // "oh" opens no number ("oh, and the retro notes").
    if (!isNumberWord(word) || word === 'oh' || word === 'hundred') {
      out.push(words[index]!)
      index += 1
      continue
    }
    let end = index
    while (end < words.length && (isNumberWord(bare(words[end]!.word)) || (bare(words[end]!.word) === 'and' && bare(words[end - 1]?.word ?? '') === 'hundred' && isNumberWord(bare(words[end + 1]?.word ?? ''))))) end += 1
    const run = words.slice(index, end).map((spoken) => bare(spoken.word))
    const groups = groupsOf(run)
    // A decimal: "four point six", "ninety nine point eight" (digits one by one after "point").
    if (groups && bare(words[end]?.word ?? '') === 'point') {
      let after = end + 1
      while (after < words.length && UNITS.has(bare(words[after]!.word))) after += 1
      const whole = groups.length === 1 ? groups[0]! : undefined
      // "at one point two people said" is no decimal.
      const isPhrase = whole?.value === 1 && /^(?:at|the|a|one)$/.test(bare(out[out.length - 1]?.word ?? ''))
      if (whole && after > end + 1 && whole.kind !== 'hundreds' && !isPhrase) {
        const decimals = words.slice(end + 1, after).map((spoken) => UNITS.get(bare(spoken.word))).join('')
        out.push(joined(words.slice(index, after), `${whole.value}.${decimals}`))
        index = after
        continue
      }
    }
    const written = groups ? writeNumber(groups, out, words[end], options) : undefined
    if (!written) {
      out.push(...words.slice(index, end))
      index = end
      continue
    }
    const span = words.slice(index, end)
    if (written.prefixTaken) span.unshift(out.pop()!)
    out.push(joined(span, written.text))
    index = end
  }
  return out
}

/** How a run of number groups is written, given the words already written before it; undefined: as words. */
function writeNumber(groups: Group[], before: SpokenWord[], after: SpokenWord | undefined, options: NumberOptions): { text: string; prefixTaken: boolean } | undefined {
  const previous = before[before.length - 1]
  const previousWord = previous ? bare(previous.word) : ''
  const asDigits = groups.map((group) => group.digits).join('')
  // A single cardinal ("four hundred twelve", "twenty two") reads as a quantity; several groups read as digits.
  const isDigitString = groups.length > 1
  const known = options.known?.filter((identifier) => identifier.digits === asDigits || (groups.length === 1 && identifier.digits === String(groups[0]!.value)))
  if (known?.length && asDigits.length >= 3) {
    const identifier = known.find((candidate) => previous && (previousWord === candidate.prefix || options.soundsLike?.(previousWord, candidate.prefix))) ?? known[0]!
    const takesPrefix = Boolean(previous && (previousWord === identifier.prefix || options.soundsLike?.(previousWord, identifier.prefix)))
    return { text: identifier.written, prefixTaken: takesPrefix }
  }
  // A clock time after "at", "until", "between"… (or after "and" following one: "between nine forty and eleven fifteen").
  const time = clockTime(groups)
  if (time && (BEFORE_TIME.has(previousWord) || (previousWord === 'and' && /\d:\d\d$/.test(before[before.length - 2]?.word ?? '')))) return { text: time, prefixTaken: false }
  // "fifteen twenty minutes", "five six people": a range or a list, not digits.
  const isRange = groups.length === 2 && groups.every((group) => group.kind === 'unit' || group.value % 5 === 0) && groups[0]!.value < groups[1]!.value
  const prefix = previous ? prefixOf(previous.word, previousWord, before[before.length - 2]) : undefined
  if (prefix?.strong && asDigits.length >= 2) return { text: `${prefix.text}-${asDigits}`, prefixTaken: true }
  if (!isDigitString || isRange) return undefined
  if (prefix && asDigits.length >= 3 && !isUnitNoun(after)) return { text: `${prefix.text}-${asDigits}`, prefixTaken: true }
  // "twenty twenty six": a year; three or more groups ("seven seven one", "zero seven one nine"): a code.
  const isYear = groups.length === 2 && groups[0]!.kind === 'tens' && groups[0]!.value === 20 && groups[1]!.value >= 10 && !isUnitNoun(after)
  if (isYear || (groups.length >= 3 && asDigits.length >= 3 && groups.every((group) => group.kind === 'unit'))) return { text: asDigits, prefixTaken: false }
  return undefined
}

const COUNTED = /^(?:minutes?|hours?|days?|weeks?|months?|years?|seconds?|people|percent|times|dollars?|euros?|k)$/
const isUnitNoun = (word: SpokenWord | undefined) => Boolean(word && COUNTED.test(bare(word.word)))

/**
 * The identifier prefix a word before a number could be: spelled letters joined earlier ("SRCH"),
 * or a short word that is no function word nor a counted noun, after a word that names a ticket
 * ("ticket ops seven seven one": strong) or that says what something is ("it's sup twenty two
 * ninety one": only before digits). "our books say three ninety eight" has neither.
 */
function prefixOf(written: string, word: string, before: SpokenWord | undefined): { text: string; strong: boolean } | undefined {
  if (/^[A-Z]{2,6}$/.test(written)) return { text: written, strong: true }
  if (!/^[a-z]{2,5}$/.test(word) || NOT_A_PREFIX.has(word) || isNumberWord(word) || !before) return undefined
  const cue = bare(before.word)
  if (NAMES_A_TICKET.has(cue)) return { text: word.toUpperCase(), strong: true }
  return SAYS_WHAT.has(cue) ? { text: word.toUpperCase(), strong: false } : undefined
}
