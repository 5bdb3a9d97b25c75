// The workspace's own names and spoken identifiers in an engine's written text. Moonshine writes
// what it hears with punctuation and capitals but knows no one in the workspace ("Priya" comes out
// "Pria") and writes a spelled identifier as it was said ("e, x, p, one, eighteen"). Its words,
// without their punctuation, go through the same rewriting as pocketsphinx's words (the caller's:
// vocabulary.ts hearTerms with the workspace's own terms, numbers.ts normalizeNumbers), and each
// rewritten window is written back into the text with its punctuation.
import type { SpokenWord } from './punctuate.ts'
import type { RecognizedWord } from './engines/types.ts'

const WORD = /[\p{L}\p{N}]/u
const EDGES = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/su

/**
 * The text and words rewritten: `rewrite` gets the words lower-cased without punctuation and gives
 * back the same objects where nothing changed, a new word spanning the times of the ones it
 * replaces otherwise. Undefined when the words do not line up with the text or the rewrite.
 */
export function rewriteWritten(text: string, words: RecognizedWord[], rewrite: (bare: SpokenWord[]) => SpokenWord[]): { text: string; words: RecognizedWord[] } | undefined {
  const tokens = text.split(/\s+/).filter(Boolean)
  const wordTokens = tokens.flatMap((token, index) => (WORD.test(token) ? [index] : []))
  if (wordTokens.length !== words.length) return undefined
  const edges = wordTokens.map((index) => EDGES.exec(tokens[index]!)!)
  const bare = words.map((word, index) => ({ ...word, word: edges[index]![2]!.toLowerCase() }))
  const heard = rewrite(bare)
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
