// The semantic half of retrieval: an offline embedding computed in process, no model file and no
// network. It is a feature-hashing embedding (not a learned model): stemmed content words, Chinese
// character bigrams and character trigrams of words are hashed into 512 signed dimensions, so
// texts sharing word forms, inflections or partial words land near each other. It complements the
// full-text ranking (exact terms) and is honest about what it is: it knows no synonyms.
import { contentTokens } from '../extraction/index.ts'

export const DIMENSIONS = 512

function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** `tokens`: the text's contentTokens when the caller has them already. */
export function embed(text: string, tokens: readonly string[] = contentTokens(text)): Float32Array {
  const vector = new Float32Array(DIMENSIONS)
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature)
    vector[hash % DIMENSIONS]! += hash & 0x8000_0000 ? -weight : weight
  }
  for (const token of tokens) {
    add(`w:${token}`, 1)
    if (/^[a-z]{4,}$/.test(token)) for (let index = 0; index + 3 <= token.length; index += 1) add(`c:${token.slice(index, index + 3)}`, 0.3)
  }
  let norm = 0
  for (const value of vector) norm += value * value
  if (norm > 0) for (let index = 0; index < DIMENSIONS; index += 1) vector[index]! /= Math.sqrt(norm)
  return vector
}

export function similarity(a: Float32Array, b: Float32Array): number {
  let dot = 0
  for (let index = 0; index < DIMENSIONS; index += 1) dot += a[index]! * b[index]!
  return dot
}
