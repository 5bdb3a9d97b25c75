// Text primitives shared by the engine and project ranking: language guess, sentence split and
// content tokens (stemmed English words, Chinese character bigrams: zh-Hans has no spaces).
import { stemmer } from 'stemmer'

export type Language = 'en' | 'zh'

const HAN = /\p{Script=Han}/gu
const LATIN = /[A-Za-z]/g

export function detectLanguage(text: string, hint?: string): Language {
  if (hint?.toLowerCase().startsWith('zh')) return 'zh'
  const han = text.match(HAN)?.length ?? 0
  const latin = text.match(LATIN)?.length ?? 0
  if (hint?.toLowerCase().startsWith('en') && han === 0) return 'en'
  return han > 0 && han * 3 >= latin ? 'zh' : 'en'
}

/**
 * Sentences keep their end mark. English ends at . ! ? followed by a space (not between a spelled letter and its number:
 * "ticket M. 218", "job card J.C. 3204", as a recognizer writes them); Chinese at 。！？ anywhere.
 */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[。！？；])|(?<=[.!?…])(?<!(?:^|\s)\p{Lu}(?:\.\p{Lu})*\.)\s+|(?<=(?:^|\s)\p{Lu}(?:\.\p{Lu})*\.)\s+(?!\d)|(?<=[!?])(?=\p{Script=Han})/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence))
}

const ENGLISH_STOPWORDS = new Set(`
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing done down during each few for from further get gets got
had has have having he her here hers herself him himself his how i if in into is it its itself just
let lets me more most my myself no nor not now of off on once only or other our ours ourselves out over
own same she should so some such than that the their theirs them themselves then there these they this
those through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself yourselves ll re ve d s t m don didn doesn isn aren wasn weren won wouldn
shouldn couldn can't okay ok yeah yep yes um uh hmm oh well like really actually maybe thing things
something anything everything someone anyone everyone one also still even quick right sure just gonna
need needs want wants think thought guess kind sort lot bit please thanks thank great good fine cool
`.split(/\s+/).filter(Boolean))

// Function characters split Chinese runs before bigrams, so "的" or "了" never pair with content.
const CHINESE_FUNCTION_CHARACTERS = new Set('的了吗呢吧啊嗯哦呀么是在就都也还我你他她它们这那个一有和与及把被给要会能对说很太更再又让并或而但'.split(''))

const CONTRACTION = /['’](ll|s|re|ve|d|m|t)\b/g

/** The space after an English comma, which clauses rejoined at commas lose ("by the 9th,it's"), put back. */
export const withCommaSpaces = (text: string): string => text.replace(/,(?=[^\s\d,])|(?<=[^\s\d,]),(?=\d)/g, ', ')

/** Content tokens of a text: English stems without stopwords, Chinese bigrams, numbers. */
export function contentTokens(text: string): string[] {
  const tokens: string[] = []
  const lower = text.toLowerCase().replace(CONTRACTION, '')
  for (const match of lower.matchAll(/\p{Script=Han}+|[a-z0-9]+/gu)) {
    const run = match[0]
    if (/[a-z0-9]/.test(run[0]!)) {
      if (run.length < 2 && !/\d/.test(run)) continue
      if (ENGLISH_STOPWORDS.has(run)) continue
      tokens.push(stemmer(run))
      continue
    }
    let piece = ''
    for (const character of run + '的') {
      if (!CHINESE_FUNCTION_CHARACTERS.has(character)) {
        piece += character
        continue
      }
      if (piece.length === 1) tokens.push(piece)
      for (let index = 0; index + 1 < piece.length; index += 1) tokens.push(piece.slice(index, index + 2))
      piece = ''
    }
  }
  return tokens
}

export type TermVector = Map<string, number>

export function termVector(tokens: Iterable<string>): TermVector {
  const vector: TermVector = new Map()
  for (const token of tokens) vector.set(token, (vector.get(token) ?? 0) + 1)
  return vector
}

export function addInto(target: TermVector, source: TermVector): void {
  for (const [term, weight] of source) target.set(term, (target.get(term) ?? 0) + weight)
}

/** Cosine similarity of two term vectors (0 when either is empty). */
export function cosine(a: TermVector, b: TermVector): number {
  if (a.size === 0 || b.size === 0) return 0
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let dot = 0
  for (const [term, weight] of small) dot += weight * (large.get(term) ?? 0)
  if (dot === 0) return 0
  return dot / (norm(a) * norm(b))
}

function norm(vector: TermVector): number {
  let sum = 0
  for (const weight of vector.values()) sum += weight * weight
  return Math.sqrt(sum)
}

/** Share of the smaller set's terms found in the other: robust when one side is much longer. */
export function overlapCoefficient(a: TermVector, b: TermVector): number {
  if (a.size === 0 || b.size === 0) return 0
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let shared = 0
  for (const term of small.keys()) if (large.has(term)) shared += 1
  return shared / small.size
}
