// `npm run eval -- --answers --calibrate [--sentence-model=use-lite-en]`: the honest estimate of the
// answer engine on questions it was not tuned on. Each labelled question is ranked once; then for
// every split left out in turn, the score combination and the no-evidence thresholds (ranking.ts
// `Tuning`) are chosen on the other splits only (the sum of the two shares, pooled) and the left-out
// split is scored with them. Prints each fold, the pooled leave-one-split-out figures and the
// tuning chosen on all splits together. This is the rule engine, the baseline of the learned ranker and
// gate the engine answers with (`--learn`, eval/answers-learn.ts).
import { chooseExtractive, rescore, TUNING, type Tuning, type Unit } from '../src/modules/answers/ranking.ts'
import { rankPassages } from '../src/modules/answers/ask.ts'
import { judged, keptAlive, loadQuestionSets, openEvalWorkspace, type EvalOptions, type Question } from './answers.ts'

export type Ranked = { split: string; question: Question; units: Unit[] }
export type Tally = { answerable: number; answeredWell: number; unanswerable: number; declined: number }

const steps = (from: number, to: number, step: number) => Array.from({ length: Math.round((to - from) / step) + 1 }, (_, index) => Number((from + index * step).toFixed(3)))

export function grid(semantic: boolean): Tuning[] {
  const tunings: Tuning[] = []
  for (const minCoverage of steps(0.4, 0.65, 0.05)) {
    for (const minScore of steps(0.4, 0.65, 0.05)) {
      for (const semanticWeight of semantic ? steps(0, 0.6, 0.15) : [0]) {
        for (const semanticGate of semantic ? steps(0, 0.6, 0.15) : [TUNING.semanticGate]) tunings.push({ minCoverage, minScore, semanticWeight, semanticGate })
      }
    }
  }
  return tunings
}

export function tally(ranked: Ranked[], tuning: Tuning): Tally {
  const result: Tally = { answerable: 0, answeredWell: 0, unanswerable: 0, declined: 0 }
  for (const { question, units } of ranked) {
    const chosen = chooseExtractive(rescore(units, tuning), tuning)
    const cited = new Set(chosen.flatMap((unit) => [unit.source, ...unit.extra]).filter((source) => source.kind === 'segment').map((source) => source.id))
    const good = judged(question, cited, chosen.length > 0)
    if (question.answers.length > 0) {
      result.answerable += 1
      if (good) result.answeredWell += 1
    } else {
      result.unanswerable += 1
      if (good) result.declined += 1
    }
  }
  return result
}

const objective = (t: Tally) => t.answeredWell / Math.max(1, t.answerable) + t.declined / Math.max(1, t.unanswerable)
/** Ties go to the tuning nearest the current one: a calibration should not wander on noise. */
const distance = (tuning: Tuning) => Math.abs(tuning.minCoverage - TUNING.minCoverage) + Math.abs(tuning.minScore - TUNING.minScore) + tuning.semanticWeight + Math.abs(tuning.semanticGate - TUNING.semanticGate)

export function best(ranked: Ranked[], tunings: Tuning[]): Tuning {
  let chosen = tunings[0]!
  let value = -1
  for (const tuning of tunings) {
    const score = objective(tally(ranked, tuning))
    if (score > value + 1e-9 || (Math.abs(score - value) <= 1e-9 && distance(tuning) < distance(chosen))) [chosen, value] = [tuning, score]
  }
  return chosen
}

export const line = (t: Tally) => `${t.answeredWell}/${t.answerable} = ${(t.answeredWell / Math.max(1, t.answerable)).toFixed(2)} · ${t.declined}/${t.unanswerable} = ${(t.declined / Math.max(1, t.unanswerable)).toFixed(2)}`
const show = (tuning: Tuning) => `coverage ≥ ${tuning.minCoverage}, score ≥ ${tuning.minScore}, semantic weight ${tuning.semanticWeight}, gate ${tuning.semanticGate}`

/** Every labelled question (of `options.only`'s splits) with the passages rank() gives it, in one eval workspace. */
export async function rankAllQuestions(options: EvalOptions): Promise<Ranked[]> {
  const { app, membership } = await openEvalWorkspace(options.sentenceModel)
  const ranked: Ranked[] = []
  try {
    for (const set of loadQuestionSets(options.only)) {
      if (options.only && !options.only.split(',').includes(set.split)) continue
      for (const question of set.questions) ranked.push({ split: set.split, question, units: await rankPassages(app.deps, membership, question.question.trim()) })
    }
  } finally {
    await app.close()
  }
  return ranked
}

export const calibrateAnswers = (options: EvalOptions = {}) => keptAlive(async () => {
  const ranked = await rankAllQuestions(options)
  const tunings = grid(options.sentenceModel === 'use-lite-en')
  const splits = [...new Set(ranked.map((item) => item.split))]
  const pooled: Tally = { answerable: 0, answeredWell: 0, unanswerable: 0, declined: 0 }
  for (const split of splits) {
    const tuning = best(ranked.filter((item) => item.split !== split), tunings)
    const left = ranked.filter((item) => item.split === split)
    const result = tally(left, tuning)
    for (const key of Object.keys(pooled) as (keyof Tally)[]) pooled[key] += result[key]
    const chinese = (item: Ranked) => /\p{Script=Han}/u.test(item.question.question)
    const languages = `English ${line(tally(left.filter((item) => !chinese(item)), tuning))}, Chinese ${line(tally(left.filter(chinese), tuning))}`
    console.log(`left out ${split}: ${line(result)} (${languages}; tuned on the others: ${show(tuning)})`)
  }
  console.log(`leave-one-split-out, pooled: ${line(pooled)}`)
  for (const split of splits) console.log(`  ${split} with the shipped tuning (${show(TUNING)}): ${line(tally(ranked.filter((item) => item.split === split), TUNING))}`)
  const all = best(ranked, tunings)
  console.log(`tuned on all splits: ${show(all)}`)
  return { pooled, all }
})
