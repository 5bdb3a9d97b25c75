// The learned similarity of each candidate passage to the question (sentence-model.ts), when the
// sentence model is on (ANSWERS_SENTENCE_MODEL=use-lite-en): the question and the segments of the
// candidate passages are embedded (a reply with the question it answers), each text once per
// process (a bounded cache keyed by the text). Off, or for Chinese, passages keep no `semantic`
// and rank on the lexical signals alone.
import { LRUCache } from 'lru-cache'
import { dot, embeddable, embedSentences } from './sentence-model.ts'
import type { Unit } from './ranking.ts'

/** ≈ 2 KiB per vector: at most ≈ 40 MiB. */
const known = new LRUCache<string, Float32Array>({ max: 20_000 })

async function vectorsOf(texts: string[]): Promise<Map<string, Float32Array>> {
  const missing = [...new Set(texts)].filter((text) => !known.has(text))
  const vectors = await embedSentences(missing)
  missing.forEach((text, index) => vectors[index] && known.set(text, vectors[index]))
  return new Map(texts.flatMap((text) => (known.has(text) ? [[text, known.get(text)!] as const] : [])))
}

export async function attachSemantic(question: string, units: Unit[]): Promise<void> {
  if (!embeddable(question) || units.length === 0) return
  const vectors = await vectorsOf([question, ...units.map((unit) => unit.vectorText ?? unit.text)])
  const asked = vectors.get(question)
  if (!asked) return
  for (const unit of units) {
    const own = vectors.get(unit.vectorText ?? unit.text)
    if (own) unit.semantic = dot(asked, own)
  }
}
