// Links between drafts: near duplicates, "after X is done" dependencies, and later decisions that
// reverse earlier ones (which also raise a contradiction for a person to confirm).
import type { Draft, NearDuplicate } from './drafts.ts'
import { cuesFor } from './drafts.ts'
import { contentTokens, cosine, termVector, type TermVector } from './text.ts'
import type { RelationType } from './types.ts'

export type DraftRelation = { type: RelationType; from: Draft; to: Draft; confidence: number }

const DEPENDENCY_MATCH = 0.2
const SUPERSEDE_WINDOW_SEGMENTS = 15
const SAME_TOPIC = 0.3

export function relateDrafts(drafts: Draft[], nearDuplicates: NearDuplicate[]): DraftRelation[] {
  const relations: DraftRelation[] = []
  for (const draft of drafts) {
    const dependency = dependencyOf(draft, drafts)
    if (dependency) relations.push(dependency)
  }
  // One item waiting for another shares its words without being the same work.
  const linked = (a: Draft, b: Draft) => relations.some((relation) => (relation.from === a && relation.to === b) || (relation.from === b && relation.to === a))
  for (const { from, to, similarity } of nearDuplicates) {
    if (!linked(from, to)) relations.push({ type: 'duplicate-of', from, to, confidence: similarity })
  }
  for (const draft of drafts) {
    const superseded = supersededBy(draft, drafts)
    if (superseded) relations.push(superseded)
  }
  return relations.map((relation) => ({ ...relation, confidence: Math.round(Math.min(0.95, relation.confidence) * 100) / 100 }))
}

function dependencyOf(draft: Draft, drafts: Draft[]): DraftRelation | undefined {
  if (!draft.dependencyText) return undefined
  const cues = cuesFor(draft.language)
  const wanted = termVector(contentTokens(draft.dependencyText).filter((token) => !cues.genericTokens.has(token)))
  let found: { to: Draft; similarity: number } | undefined
  for (const other of drafts) {
    if (other === draft || (other.kind !== 'action' && other.kind !== 'decision')) continue
    const similarity = cosine(wanted, other.topic)
    if (similarity > (found?.similarity ?? 0)) found = { to: other, similarity }
  }
  if (!found || found.similarity < DEPENDENCY_MATCH) return undefined
  return { type: 'depends-on', from: draft, to: found.to, confidence: 0.5 + found.similarity / 2 }
}

/** The latest earlier decision on the same question with another answer ("use Postgres" → "go with Kafka instead"). */
function supersededBy(later: Draft, drafts: Draft[]): DraftRelation | undefined {
  if (later.kind !== 'decision' || !later.choiceObject || later.confidence < 0.5) return undefined
  for (let index = later.order - 1; index >= 0; index -= 1) {
    const earlier = drafts[index]!
    if (earlier.kind !== 'decision' || !earlier.choiceObject || earlier.choiceObject === later.choiceObject || earlier.confidence < 0.5) continue
    if (earlier.lastSegmentIndex < later.firstSegmentIndex - SUPERSEDE_WINDOW_SEGMENTS) break
    if (later.isRevision) return { type: 'supersedes', from: later, to: earlier, confidence: 0.8 }
    const topic = (draft: Draft) => withoutChoices(draft.topic, [earlier.choiceObject!, later.choiceObject!])
    if (cosine(topic(earlier), topic(later)) >= SAME_TOPIC) return { type: 'supersedes', from: later, to: earlier, confidence: 0.6 }
  }
  return undefined
}

function withoutChoices(topic: TermVector, choices: string[]): TermVector {
  const excluded = new Set(choices.flatMap((choice) => contentTokens(choice)))
  return new Map([...topic].filter(([term]) => !excluded.has(term)))
}
