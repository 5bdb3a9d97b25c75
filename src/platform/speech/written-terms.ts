// The workspace's own names in an engine's written text. Moonshine writes what it hears with
// punctuation and capitals but knows no one in the workspace: "Priya" comes out "Pria" or
// "pre-a". Its words, without their punctuation, go through the same sound match as
// pocketsphinx's (vocabulary.ts hearTerms, the workspace's own terms only: member and project
// names), and a window that sounds like a name is written as it, with its punctuation put back.
import type { RecognizedWord } from './engines/types.ts'
import { hearTerms, type Lexicon, type Term } from './vocabulary.ts'

const WORD = /[\p{L}\p{N}]/u
const EDGES = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/su

/** The text and words with the workspace's names put in; undefined when the words do not line up with the text. */
export function hearWrittenTerms(text: string, words: RecognizedWord[], terms: Term[], lexicon: Lexicon): { text: string; words: RecognizedWord[] } | undefined {
  const own = terms.filter((term) => term.own)
  const tokens = text.split(/\s+/).filter(Boolean)
  const wordTokens = tokens.flatMap((token, index) => (WORD.test(token) ? [index] : []))
  if (own.length === 0 || wordTokens.length !== words.length) return undefined
  const edges = wordTokens.map((index) => EDGES.exec(tokens[index]!)!)
  const bare = words.map((word, index) => ({ ...word, word: edges[index]![2]!.toLowerCase() }))
  const heard = hearTerms(bare, own, lexicon)
  const outWords: RecognizedWord[] = []
  const replaced = new Map<number, string[]>()
  let at = 0
  for (const word of heard) {
    if (word === bare[at]) {
      outWords.push(words[at]!)
      at += 1
      continue
    }
    let end = at
    while (end < bare.length && bare[end]!.endMs !== word.endMs) end += 1
    if (end >= bare.length || bare[at]!.startMs !== word.startMs) return undefined
    // A name of several words ("Priya Shah") stays one word per token, sharing the window's time.
    const parts = word.word.split(/[_\s]+/)
    const first = words[at]!
    const span = words[end]!.endMs - first.startMs
    parts.forEach((part, index) => outWords.push({
      word: part,
      startMs: Math.round(first.startMs + (span * index) / parts.length),
      endMs: Math.round(first.startMs + (span * (index + 1)) / parts.length),
      ...(first.confidence !== undefined ? { confidence: first.confidence } : {}),
    }))
    parts[0] = `${edges[at]![1]}${parts[0]}`
    parts[parts.length - 1] = `${parts[parts.length - 1]}${edges[end]![3]}`
    replaced.set(wordTokens[at]!, parts)
    for (let index = at + 1; index <= end; index += 1) replaced.set(wordTokens[index]!, [])
    at = end + 1
  }
  if (replaced.size === 0) return { text, words }
  const written = tokens.flatMap((token, index) => {
    if (!replaced.has(index)) return [token]
    return replaced.get(index)!
  })
  return { text: written.join(' '), words: outWords }
}
