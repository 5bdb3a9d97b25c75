// Hearing the workspace's own words. pocketsphinx decodes with its general English model; words
// it has never seen ("runbook") come out as near sounds ("run book"), and rare ones lose to
// common ones ("palette" → "pellet", "sprint" → "print"). After recognition, every window of one
// to three recognized words is compared, as phones, with the terms of the workspace (member names,
// project names: given by the caller) and of meetings in general (MEETING_WORDS); a window that
// sounds like a term, within a small phone edit distance, is written as that term. Pronunciations
// come from the CMU dictionary pocketsphinx-en-us ships (/usr/share/pocketsphinx/model/en-us/
// cmudict-en-us.dict, read once, ≈ 0.3 s), and for words it lacks, from letter-to-sound rules.
// Letters spelled out ("p d f") are joined into the acronym ("PDF").
import { readFile } from 'node:fs/promises'
import type { SpokenWord } from './punctuate.ts'

export const CMUDICT_PATH = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict'

export type Lexicon = Map<string, string[]>

const lexicons = new Map<string, Promise<Lexicon>>()

/** The pronouncing dictionary (first pronunciation of each word, stress marks removed); empty if absent. */
export function loadLexicon(path = CMUDICT_PATH): Promise<Lexicon> {
  let loaded = lexicons.get(path)
  if (!loaded) {
    loaded = readFile(path, 'utf8').then((text) => {
      const lexicon: Lexicon = new Map()
      for (const line of text.split('\n')) {
        const space = line.indexOf(' ')
        if (space <= 0) continue
        const word = line.slice(0, space)
        if (word.endsWith(')')) continue
        lexicon.set(word, line.slice(space + 1).trim().split(/\s+/).map((phone) => phone.replace(/\d$/, '')))
      }
      return lexicon
    }, () => new Map())
    lexicons.set(path, loaded)
  }
  return loaded
}

// Letter-to-sound for words the dictionary lacks: longest grapheme first, ARPAbet phones.
const GRAPHEMES: [string, string[]][] = ([
  ['tion', ['SH', 'AH', 'N']], ['sion', ['ZH', 'AH', 'N']], ['ough', ['AO']], ['augh', ['AO']], ['eigh', ['EY']],
  ['tch', ['CH']], ['sch', ['SH']], ['igh', ['AY']], ['dge', ['JH']], ['que', ['K']],
  ['ch', ['CH']], ['sh', ['SH']], ['th', ['TH']], ['ph', ['F']], ['wh', ['W']], ['ck', ['K']], ['ng', ['NG']], ['qu', ['K', 'W']],
  ['kn', ['N']], ['wr', ['R']], ['gh', ['G']], ['ee', ['IY']], ['ea', ['IY']], ['oo', ['UW']], ['ou', ['AW']], ['ow', ['OW']],
  ['oa', ['OW']], ['ai', ['EY']], ['ay', ['EY']], ['oi', ['OY']], ['oy', ['OY']], ['au', ['AO']], ['aw', ['AO']], ['ie', ['IY']],
  ['ei', ['EY']], ['ey', ['IY']], ['ue', ['UW']], ['ew', ['UW']], ['ar', ['AA', 'R']], ['er', ['ER']], ['ir', ['ER']], ['ur', ['ER']],
  ['or', ['AO', 'R']], ['ll', ['L']], ['ss', ['S']], ['tt', ['T']], ['pp', ['P']], ['ff', ['F']], ['mm', ['M']], ['nn', ['N']],
  ['rr', ['R']], ['dd', ['D']], ['bb', ['B']], ['gg', ['G']], ['zz', ['Z']], ['cc', ['K']],
  ['a', ['AE']], ['b', ['B']], ['c', ['K']], ['d', ['D']], ['e', ['EH']], ['f', ['F']], ['g', ['G']], ['h', ['HH']], ['i', ['IH']],
  ['j', ['JH']], ['k', ['K']], ['l', ['L']], ['m', ['M']], ['n', ['N']], ['o', ['AA']], ['p', ['P']], ['q', ['K']], ['r', ['R']],
  ['s', ['S']], ['t', ['T']], ['u', ['AH']], ['v', ['V']], ['w', ['W']], ['x', ['K', 'S']], ['y', ['Y']], ['z', ['Z']],
] as [string, string[]][]).sort((a, b) => b[0].length - a[0].length)

/** Rule-based pronunciation (rough, enough to compare sounds). */
export function letterToSound(word: string): string[] {
  const letters = word.toLowerCase().replace(/[^a-z]/g, '')
  const phones: string[] = []
  for (let at = 0; at < letters.length;) {
    // A final silent e ("palette", "make").
    if (at === letters.length - 1 && letters[at] === 'e' && letters.length > 3) break
    const match = GRAPHEMES.find(([graph]) => letters.startsWith(graph, at))!
    // "y" after a consonant at the end sounds like "ee"; "c" before e/i/y like "s".
    if (match[0] === 'y' && at === letters.length - 1 && at > 0) phones.push('IY')
    else if (match[0] === 'c' && /[eiy]/.test(letters[at + 1] ?? '')) phones.push('S')
    else if (match[0] === 'g' && /[eiy]/.test(letters[at + 1] ?? '') && at > 0) phones.push('JH')
    else phones.push(...match[1])
    at += match[0].length
  }
  return phones
}

const LETTER_NAMES: Record<string, string[]> = {
  a: ['EY'], b: ['B', 'IY'], c: ['S', 'IY'], d: ['D', 'IY'], e: ['IY'], f: ['EH', 'F'], g: ['JH', 'IY'], h: ['EY', 'CH'], i: ['AY'],
  j: ['JH', 'EY'], k: ['K', 'EY'], l: ['EH', 'L'], m: ['EH', 'M'], n: ['EH', 'N'], o: ['OW'], p: ['P', 'IY'], q: ['K', 'Y', 'UW'],
  r: ['AA', 'R'], s: ['EH', 'S'], t: ['T', 'IY'], u: ['Y', 'UW'], v: ['V', 'IY'], w: ['D', 'AH', 'B', 'AH', 'L', 'Y', 'UW'],
  x: ['EH', 'K', 'S'], y: ['W', 'AY'], z: ['Z', 'IY'],
}

/**
 * How a word the dictionary lacks is said: a short one ("kpi", "sdk", "ux") and its plural
 * ("apis", "okrs") letter by letter, as acronyms are; others by letter-to-sound ("runbook").
 * Read as a word, "apis" (AE P IH S) was heard in place of "dialogs".
 */
export function soundOfNewWord(word: string): string[] {
  const letters = word.toLowerCase().replace(/[^a-z]/g, '')
  const stem = /^[a-z]{2,3}s$/.test(letters) ? letters.slice(0, -1) : letters
  if (stem.length < 2 || stem.length > 3) return letterToSound(word)
  return [...[...stem].flatMap((letter) => LETTER_NAMES[letter]!), ...(stem === letters ? [] : ['Z'])]
}

export function pronounce(word: string, lexicon: Lexicon): string[] {
  const lower = word.toLowerCase().replace(/\(\d+\)$/, '')
  return lexicon.get(lower) ?? lexicon.get(lower.replace(/[^a-z']/g, '')) ?? soundOfNewWord(lower)
}

/** Words of meetings in general that a general model mishears (compounds, jargon). */
export const MEETING_WORDS = `runbook standup backlog rollout rollback hotfix onboarding offboarding dashboard roadmap
  postmortem checklist changelog codebase frontend backend workflow deadline timeline walkthrough writeup kickoff
  retro sprint palette figma jira confluence slack github gitlab kubernetes postgres redis kafka staging prod
  repo deploy deployment deploys pipeline on-call oncall escalation incident outage latency uptime mockup wireframe
  stakeholder stakeholders okr okrs kpi kpis sla slas eta api apis sdk ux ui qa mvp ci cd pr prs
  team-lead tech-lead all-hands one-on-one follow-up heads-up sign-off
  ticket tickets invoice invoices refund refunds vendor budget headcount`.split(/\s+/).filter(Boolean)

/**
 * How people in meetings say that something is decided, owned, due or asked, and where a document
 * lives ("it's in the folder", "the sheet": the words references are made of): phrases the default
 * engine's language model is biased toward (their words and word pairs, engines/language-model.ts).
 * Written from meeting speech in general (speech acts, times), not from any labelled meeting.
 * Commitments in their spoken, contracted form only: the pairs "i will" / "we will" made the
 * recognizer split "I'll" into "I will" (docs/speech.md).
 */
export const MEETING_PHRASES = `action item|action items|next steps|follow up|i'll follow up|i'll send
  i'll take|i'll take that|i'll own|i can take|i'll handle|i'll check|i'll update|i'll write|i'll draft|i'll ask|i'll talk to
  can you|could you|would you|will you|please send|please update|make sure|get back to|loop in|reach out
  we decided|we agreed|we'll go with|let's go with|let's do|let's keep|let's move|let's not|we're going with|the decision is
  going forward|from now on|we won't|we should|we need to|signed off|sign off|approved
  who owns|who will|who is going to|who's going to|do we|should we|can we|are we|is it|is there|what about|how long|how much
  when do|when will|open question|not sure|any questions|does anyone|can someone|do i need to
  by friday|by monday|by tuesday|by wednesday|by thursday|by tomorrow|end of day|end of week|end of month|next week|this week
  next sprint|next quarter|before the release|after the launch|due date|the deadline
  team lead|tech lead|all hands|one on one|heads up|pull request|code review|design doc|release notes|root cause
  status update|go live|roll back|write up|on call
  it's in the|it's on the|it's called|it's under|in the folder|the folder|shared drive|the drive|the sheet|the spreadsheet
  the doc|the document|the wiki|on the board|the board|the tracker|the link|the deck|the report|the template|the page|the channel`.split(/\s*[|\n]\s*/).filter(Boolean)

/**
 * The words of these titles (open work) worth biasing the language model toward: names and
 * product words — written with a capital after the first word ("managed Kafka"), or not in the
 * dictionary ("runbook"). Common words are left out: they would only dilute the bias.
 */
export function titleWords(titles: Iterable<string>, lexicon: Lexicon): string[] {
  const words = new Set<string>()
  for (const title of titles) {
    title.split(/[^\p{L}'-]+/u).filter(Boolean).forEach((word, index) => {
      if (word.length < 3 || !/^[A-Za-z][a-z'-]*$|^[A-Z][A-Za-z]+$/.test(word)) return
      if ((index > 0 && /^[A-Z]/.test(word)) || !lexicon.has(word.toLowerCase())) words.add(word)
    })
  }
  return [...words]
}

/** `own`: the workspace's word (a name, a project); meeting words never replace a known single word. */
export type Term = { written: string; phones: string[]; tokens: number; own: boolean }

/** Terms to listen for: each written form with its pronunciation (hyphens and spaces join words). */
export function buildTerms(written: Iterable<string>, lexicon: Lexicon, own = true): Term[] {
  const terms = new Map<string, Term>()
  for (const raw of written) {
    const form = raw.trim()
    if (!form || form.length < 3 || form.length > 40) continue
    const parts = form.split(/[\s-]+/).filter(Boolean)
    if (parts.length > 3) continue
    const phones = parts.flatMap((part) => pronounce(part, lexicon))
    if (phones.length < 3) continue
    const key = form.toLowerCase()
    if (!terms.has(key)) terms.set(key, { written: form.includes('-') && /^[a-z-]+$/.test(form) ? form.replace(/-/g, ' ') : form, phones, tokens: parts.length, own })
  }
  return [...terms.values()]
}

function phoneDistance(a: string[], b: string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i]
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

/**
 * Whether a heard word could be an identifier's prefix ("up" for "sup", "ink" for "inc"): the same
 * phones but one, or the prefix's phones ending with the word's (its first sound lost).
 */
export function soundsLikePrefix(lexicon: Lexicon): (heard: string, prefix: string) => boolean {
  return (heard, prefix) => {
    const heardPhones = pronounce(heard, lexicon)
    if (heardPhones.length === 0) return false
    // A prefix is said as a word ("sup") or letter by letter ("s r c h").
    return [lexicon.get(prefix) ?? letterToSound(prefix), soundOfNewWord(prefix)].some((prefixPhones) => {
      const tail = prefixPhones.slice(prefixPhones.length - heardPhones.length)
      return phoneDistance(heardPhones, prefixPhones) <= 1 || (heardPhones.length >= 2 && tail.join(' ') === heardPhones.join(' '))
    })
  }
}

/** Edits allowed between a window's phones and a term's: none for short terms, more for long ones. */
const allowedEdits = (phones: number) => (phones >= 9 ? 2 : phones >= 5 ? 1 : 0)

const SPELLED = /^[a-z]$/

/** The phones one sequence has beyond the other when one is a prefix of the other ('' otherwise). */
function morphologicalRest(a: string[], b: string[]): string {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  return short.every((phone, index) => long[index] === phone) ? long.slice(short.length).join(' ') : ''
}

/**
 * The recognized words with windows that sound like a term written as the term, and spelled-out
 * letters joined. Times are kept: a joined window spans its first word's start to its last's end.
 */
export function hearTerms(words: SpokenWord[], terms: Term[], lexicon: Lexicon): SpokenWord[] {
  const out: SpokenWord[] = []
  const phonesOf = words.map((word) => pronounce(word.word, lexicon))
  for (let index = 0; index < words.length;) {
    // "p d f" → "PDF" (two or more single letters in a row, not "a" or "i" alone).
    let run = index
    while (run < words.length && SPELLED.test(words[run]!.word.replace(/\(\d+\)$/, '').replace(/\.$/, ''))) run += 1
    if (run - index >= 2 && !(run - index === 2 && /^[ai]$/.test(words[index]!.word))) {
      out.push({ word: words.slice(index, run).map((word) => word.word[0]!.toUpperCase()).join(''), startMs: words[index]!.startMs, endMs: words[run - 1]!.endMs })
      index = run
      continue
    }
    let best: { term: Term; length: number; distance: number } | undefined
    for (let length = 1; length <= 3 && index + length <= words.length; length += 1) {
      const window = words.slice(index, index + length)
      const text = window.map((word) => word.word.toLowerCase()).join(' ')
      const phones = phonesOf.slice(index, index + length).flat()
      for (const term of terms) {
        if (Math.abs(term.phones.length - phones.length) > 2) continue
        if (term.written.toLowerCase() === text || term.written.toLowerCase().replace(/\s+/g, '') === text.replace(/\s+/g, '')) {
          if (length > 1 && (!best || best.distance > 0)) best = { term, length, distance: 0 }
          continue
        }
        const distance = phoneDistance(phones, term.phones)
        if (distance > allowedEdits(term.phones.length)) continue
        // One word the dictionary knows is taken as heard unless it sounds like the workspace's own
        // word, and never turned into its own plural or past ("budgets", "fixed").
        if (length === 1 && lexicon.has(text) && (!term.own || /^(?:S|Z|D|T|IH Z|AH Z|IH D)$/.test(morphologicalRest(phones, term.phones)))) continue
        if (!best || distance < best.distance || (distance === best.distance && length > best.length)) best = { term, length, distance }
      }
    }
    if (best) {
      const window = words.slice(index, index + best.length)
      const same = best.length === 1 && window[0]!.word.toLowerCase() === best.term.written.toLowerCase()
      out.push(same ? window[0]! : { word: best.term.written.replace(/\s+/g, '_'), startMs: window[0]!.startMs, endMs: window[window.length - 1]!.endMs, ...(window[0]!.confidence !== undefined ? { confidence: Math.min(...window.map((word) => word.confidence ?? 1)) } : {}) })
      index += best.length
      continue
    }
    out.push(words[index]!)
    index += 1
  }
  // Multi-word terms travel as one token through the splitter; written back with spaces here.
  return out.map((word) => (word.word.includes('_') ? { ...word, word: word.word.replace(/_/g, ' ') } : word))
}
