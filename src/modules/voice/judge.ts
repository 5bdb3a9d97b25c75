// The naming rule, apart from storage: a session speaker's voiceprint against the enrolled
// candidates. Raw cosine scores are normalized against an impostor cohort (s-norm: the engine's
// background voices plus the other candidates), and a name needs all of: a raw score at the match
// threshold, a normalized score at the normalized threshold, a margin over the second-best
// candidate, and enough evidence (utterances in the voiceprint).
// Anything short of that, but near, is a suggestion a person confirms; the rest stays unnamed.
import { cosine, type Vector } from '../../platform/speech/embedding/index.ts'

export type Candidate = { accountId: string; name: string; embedding: number[] }

export type NamingRule = {
  /** raw cosine at or above which a speaker may be named */
  match: number
  /** raw cosine at or above which a candidate may be suggested */
  suggest: number
  /** s-norm score at or above which a speaker may be named (a suggestion needs half of it) */
  normalizedMatch: number
  /** how much closer to the best candidate than to the second-best a named speaker must be */
  margin: number
  /** utterances a voiceprint must hold before it is named (fewer: a suggestion at most) */
  minUtterances: number
}

export type Verdict = { state: 'named' | 'suggested' | 'unnamed'; candidate?: Candidate; score?: number; normalized?: number; margin?: number }

const stats = (vector: Vector, others: Vector[]) => {
  if (others.length < 2) return { mean: 0, spread: 1 }
  const scores = others.map((other) => cosine(vector, other))
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length
  const spread = Math.sqrt(scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / scores.length)
  return { mean, spread: Math.max(spread, 0.05) }
}

/** The verdict for one voiceprint (`utterances`: how many utterances it holds). */
export function judge(embedding: Vector, utterances: number, candidates: Candidate[], rule: NamingRule, cohort: readonly Vector[] = []): Verdict {
  if (candidates.length === 0) return { state: 'unnamed' }
  const speakerStats = stats(embedding, [...cohort])
  const scored = candidates.map((candidate) => {
    const score = cosine(embedding, candidate.embedding)
    const impostors = [...cohort, ...candidates.filter((other) => other !== candidate).map((other) => other.embedding)]
    const candidateStats = stats(candidate.embedding, impostors)
    const normalized = ((score - candidateStats.mean) / candidateStats.spread + (score - speakerStats.mean) / speakerStats.spread) / 2
    return { candidate, score, normalized }
  }).sort((a, b) => b.score - a.score)
  const best = scored[0]!
  // The margin is over the other candidates only: a background voice may be a near twin of an
  // enrolled one (espeak-ng's en+m1 and en-us+m1), which says nothing about this speaker.
  const margin = scored.length > 1 ? best.score - scored[1]!.score : 1
  const verdict = { candidate: best.candidate, score: best.score, normalized: best.normalized, margin }
  if (best.score >= rule.match && best.normalized >= rule.normalizedMatch && margin >= rule.margin && utterances >= rule.minUtterances) {
    return { state: 'named', ...verdict }
  }
  if (best.score >= rule.suggest && best.normalized >= rule.normalizedMatch / 2 && margin > 0) return { state: 'suggested', ...verdict }
  return { state: 'unnamed', ...verdict }
}
