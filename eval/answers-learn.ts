// `npm run eval -- --answers --learn [--write]`: the learned answer ranker and no-evidence gate
// (src/modules/answers/learned.ts), judged by leave-one-split-out. Each labelled question is ranked
// once by the engine (rankPassages); for every split left out in turn, the ranker (pairwise
// logistic over the candidates' features), the gate (logistic: is the best passage a correct
// source?), its threshold and how many passages are quoted are all fitted on the other splits only,
// and the left-out split is scored. Printed beside the rule engine under the same procedure (its
// thresholds calibrated on the other splits, answers-calibrate.ts). `--write` fits on every split
// and writes src/modules/answers/learned.json. RANKER_L2 / GATE_L2 / CROSS / SKIP_WRONG / GATE_KINDS (environment) vary the fit.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { candidates, gateFeatures, logit, pick, rankFeatures, type Learned, type Linear } from '../src/modules/answers/learned.ts'
import { chooseExtractive, rescore, type Unit } from '../src/modules/answers/ranking.ts'
import { best, grid, line, rankAllQuestions, tally, type Ranked, type Tally } from './answers-calibrate.ts'
import { judged, keptAlive, type EvalOptions, type Question } from './answers.ts'
import { fitLogistic, standardise, trainLinear, zscore, type Example } from './logistic.ts'

/** How many of rank()'s best passages the learned ranker reorders. */
const CANDIDATES = 40
const RANKER_L2 = Number(process.env.RANKER_L2 ?? 0.01)
const GATE_L2 = Number(process.env.GATE_L2 ?? 0.01)
/** Variants measured (docs/answers.md): the gate fitted on rankings of the ranker fitted on all training splits (CROSS=0), answerable questions whose best passage is wrong kept as negatives (SKIP_WRONG=0). */
const CROSS = process.env.CROSS !== '0'
const SKIP_WRONG = process.env.SKIP_WRONG !== '0'
/** The splits most like unseen data, reported apart. */
const LATEST = ['held-out-7', 'held-out-8', 'held-out-9', 'held-out-10', 'held-out-11', 'held-out-12']
const KEEPS = [0, 0.5, 1, 1.5, 2, 3]
const THRESHOLDS = Array.from({ length: 37 }, (_, index) => 0.05 + index * 0.025)

/** The passage kinds among the training candidates (the guard in learned.ts: the gate does not judge a kind it never saw). */
const KINDS = (items: Item[]) => GATE_KINDS ?? [...new Set(items.flatMap((entry) => entry.units.map((unit) => unit.source.kind)))].sort()
/** Variant (fourteenth pass): GATE_KINDS=segment keeps the gate to transcript turns; a best passage of another kind is answered by the rule thresholds. */
const GATE_KINDS = process.env.GATE_KINDS ? process.env.GATE_KINDS.split(',') : undefined
/** With GATE_KINDS, whether the rule thresholds decide this question (its best passage is of another kind), and their call. */
const ruled = (entry: Item, ordered: { unit: Unit }[]) => (GATE_KINDS && ordered[0] && !GATE_KINDS.includes(ordered[0].unit.source.kind) ? chooseExtractive(entry.all).length > 0 : undefined)

type Item = Ranked & { all: Unit[]; units: Unit[]; rows: number[][]; good: boolean[] }

const cites = (question: Question, units: Unit[]) =>
  judged(question, new Set(units.flatMap((unit) => [unit.source, ...unit.extra]).filter((source) => source.kind === 'segment').map((source) => source.id)), true)

function item(ranked: Ranked): Item {
  const units = candidates(ranked.units, CANDIDATES)
  return { ...ranked, all: ranked.units, units, rows: rankFeatures(ranked.question.question, units), good: units.map((unit) => ranked.question.answers.length > 0 && cites(ranked.question, [unit])) }
}

/** Pairwise: every correct candidate of a question against every wrong one, each question weighing the same. */
function trainRanker(items: Item[]): Linear {
  const stats = standardise(items.flatMap((entry) => entry.rows))
  const examples: Example[] = []
  for (const entry of items) {
    const rows = entry.rows.map((row) => zscore(row, stats))
    const good = rows.filter((_, index) => entry.good[index])
    const bad = rows.filter((_, index) => !entry.good[index])
    const weight = 1 / Math.max(1, good.length * bad.length)
    for (const positive of good) for (const negative of bad) {
      const difference = positive.map((value, index) => value - negative[index]!)
      examples.push({ features: difference, label: 1, weight }, { features: difference.map((value) => -value), label: 0, weight })
    }
  }
  return { ...stats, ...fitLogistic(examples, { l2: RANKER_L2, bias: false }) }
}

const order = (ranker: Linear, entry: Item) => entry.units.map((unit, index) => ({ unit, logit: logit(ranker, entry.rows[index]!) })).sort((a, b) => b.logit - a.logit)

type Decided = { answerable: boolean; chance: number; correct: boolean }

function train(items: Item[]): Learned {
  const ranker = trainRanker(items)
  // The gate learns from rankings of questions the ranker was not fitted on (each split ranked by a ranker fitted on the others).
  const splits = [...new Set(items.map((entry) => entry.split))]
  const inner = CROSS && splits.length > 2 ? new Map(splits.map((split) => [split, trainRanker(items.filter((entry) => entry.split !== split))])) : undefined
  const orders = items.map((entry) => order(inner?.get(entry.split) ?? ranker, entry))
  let chosen: Learned | undefined
  let value = -1
  for (const keep of KEEPS) {
    const rows = items.map((entry, index) => gateFeatures(entry.question.question, orders[index]!, entry.all))
    const correct = items.map((entry, index) => orders[index]!.length > 0 && entry.question.answers.length > 0 && cites(entry.question, pick(orders[index]!, keep)))
    const answerable = items.filter((entry) => entry.question.answers.length > 0).length
    // A question without candidates is no-evidence whatever the gate says: left out of its fit (its all-zero row
    // once taught the gate that a passage other than a transcript turn means no answer, through the dropped `segment` feature).
    const rules = items.map((entry, index) => ruled(entry, orders[index]!))
    const weights = items.map((entry, index) => (orders[index]!.length === 0 || rules[index] !== undefined ? 0 : entry.question.answers.length > 0 ? (SKIP_WRONG && !correct[index] ? 0 : 1 / answerable) : 1 / Math.max(1, items.length - answerable)))
    const gate = trainLinear(rows, correct.map(Number), weights, GATE_L2)
    const decided: Decided[] = items.map((entry, index) => ({ answerable: entry.question.answers.length > 0, chance: orders[index]!.length === 0 ? 0 : rules[index] !== undefined ? (rules[index] ? 1 : 0) : 1 / (1 + Math.exp(-logit(gate, rows[index]!))), correct: correct[index]! }))
    for (const threshold of THRESHOLDS) {
      const score = objective(count(decided, threshold))
      if (score > value + 1e-9) [chosen, value] = [{ ranker, gate, threshold, keep, candidates: CANDIDATES, kinds: KINDS(items) }, score]
    }
  }
  return chosen!
}

function count(decided: Decided[], threshold: number): Tally {
  const result: Tally = { answerable: 0, answeredWell: 0, unanswerable: 0, declined: 0 }
  for (const { answerable, chance, correct } of decided) {
    if (answerable) {
      result.answerable += 1
      if (chance >= threshold && correct) result.answeredWell += 1
    } else {
      result.unanswerable += 1
      if (chance < threshold) result.declined += 1
    }
  }
  return result
}
const objective = (t: Tally) => t.answeredWell / Math.max(1, t.answerable) + t.declined / Math.max(1, t.unanswerable)

function test(model: Learned, items: Item[]): Tally {
  const decided = items.map((entry): Decided => {
    const ordered = order(model.ranker, entry)
    if (ordered.length === 0) return { answerable: entry.question.answers.length > 0, chance: 0, correct: false }
    const rule = ruled(entry, ordered)
    const chance = rule !== undefined ? (rule ? 1 : 0) : 1 / (1 + Math.exp(-logit(model.gate, gateFeatures(entry.question.question, ordered, entry.all))))
    return { answerable: entry.question.answers.length > 0, chance, correct: entry.question.answers.length > 0 && cites(entry.question, pick(ordered, model.keep)) }
  })
  return count(decided, model.threshold)
}

const add = (into: Tally, from: Tally) => { for (const key of Object.keys(into) as (keyof Tally)[]) into[key] += from[key] }
const empty = (): Tally => ({ answerable: 0, answeredWell: 0, unanswerable: 0, declined: 0 })

export const learnAnswers = (options: EvalOptions & { write?: boolean } = {}) => keptAlive(async () => {
  const ranked = await rankAllQuestions(options)
  const items = ranked.map(item)
  const reachable = items.filter((entry) => entry.good.some(Boolean)).length
  console.log(`candidates: the best ${CANDIDATES} of rank() hold a correct source for ${reachable}/${items.filter((entry) => entry.question.answers.length > 0).length} answerable questions`)
  const splits = [...new Set(items.map((entry) => entry.split))]
  // Recall@CANDIDATES per split: the ceiling of any ranking of these candidates.
  for (const split of splits) {
    const answerable = items.filter((entry) => entry.split === split && entry.question.answers.length > 0)
    console.log(`  recall@${CANDIDATES} ${split}: ${answerable.filter((entry) => entry.good.some(Boolean)).length}/${answerable.length}`)
  }
  const tunings = grid(false)
  const pooled = { rules: empty(), learned: empty(), hybrid: empty() }
  // Per language (a question with a Chinese character is Chinese), leave-one-split-out.
  const languages = { en: empty(), zh: empty() }
  const chinese = (entry: Item) => /\p{Script=Han}/u.test(entry.question.question)
  const latest = { rules: empty(), learned: empty(), hybrid: empty() }
  const topOne: [number, number] = [0, 0]
  for (const split of splits) {
    const rest = items.filter((entry) => entry.split !== split)
    const left = items.filter((entry) => entry.split === split)
    const model = train(rest)
    const tuning = best(rest, tunings)
    const rules = tally(left, tuning)
    // The learned ranker behind the rule engine's calibrated no-evidence gate.
    const hybrid = count(left.map((entry) => {
      const ordered = order(model.ranker, entry)
      const answered = chooseExtractive(rescore(entry.all, tuning), tuning).length > 0 && ordered.length > 0
      return { answerable: entry.question.answers.length > 0, chance: answered ? 1 : 0, correct: answered && entry.question.answers.length > 0 && cites(entry.question, pick(ordered, model.keep)) }
    }), 0.5)
    add(pooled.hybrid, hybrid)
    if (LATEST.includes(split)) add(latest.hybrid, hybrid)
    const learned = test(model, left)
    const english = test(model, left.filter((entry) => !chinese(entry)))
    const zh = test(model, left.filter(chinese))
    add(languages.en, english)
    add(languages.zh, zh)
    const answerable = left.filter((entry) => entry.question.answers.length > 0)
    const first = (entry: Item, units: Unit[]) => units.length > 0 && cites(entry.question, pick(units.map((unit, index) => ({ unit, logit: -index })), 0))
    const top: [number, number] = [answerable.filter((entry) => first(entry, entry.units)).length, answerable.filter((entry) => first(entry, order(model.ranker, entry).map((scored) => scored.unit))).length]
    topOne[0] += top[0]
    topOne[1] += top[1]
    const always = test({ ...model, threshold: 0 }, left)
    console.log(`  best passage correct (no gate): rules ${top[0]}/${answerable.length}, learned ${top[1]}/${answerable.length}; answering always ${always.answeredWell}`)
    add(pooled.rules, rules)
    add(pooled.learned, learned)
    if (LATEST.includes(split)) { add(latest.rules, rules); add(latest.learned, learned) }
    console.log(`left out ${split}: rules ${line(rules)} | learned ${line(learned)} (threshold ${model.threshold.toFixed(3)}, keep ${model.keep}; English ${line(english)}, Chinese ${line(zh)}) | learned ranker, rule gate ${line(hybrid)}`)
  }
  console.log(`leave-one-split-out, held-out-7..12: rules ${line(latest.rules)} | learned ${line(latest.learned)} | learned ranker, rule gate ${line(latest.hybrid)}`)
  console.log(`leave-one-split-out, learned, pooled by language: English ${line(languages.en)} | Chinese ${line(languages.zh)}`)
  console.log(`best passage correct, pooled: rules ${topOne[0]}, learned ${topOne[1]}`)
  console.log(`leave-one-split-out, pooled: rules ${line(pooled.rules)} | learned ${line(pooled.learned)} | learned ranker, rule gate ${line(pooled.hybrid)}`)
  // As the first runs were: each of the latest batches scored by models fitted on the batches sealed before it only.
  const asUnseen = { learned: empty(), en: empty(), zh: empty() }
  for (const split of LATEST) {
    const index = splits.indexOf(split)
    if (index <= 0) continue
    const model = train(items.filter((entry) => splits.indexOf(entry.split) < index))
    const left = items.filter((entry) => entry.split === split)
    const [result, english, zh] = [test(model, left), test(model, left.filter((entry) => !chinese(entry))), test(model, left.filter(chinese))]
    add(asUnseen.learned, result)
    add(asUnseen.en, english)
    add(asUnseen.zh, zh)
    console.log(`  ${split} as unseen (fitted on the ${index} splits before it): ${line(result)} (English ${line(english)}, Chinese ${line(zh)})`)
  }
  console.log(`earlier batches only, held-out-7..12: ${line(asUnseen.learned)} (English ${line(asUnseen.en)}, Chinese ${line(asUnseen.zh)})`)
  const all = train(items)
  for (const split of splits) console.log(`  ${split} in-sample, fitted on all: ${line(test(all, items.filter((entry) => entry.split === split)))}`)
  if (options.write) {
    const round = (model: Linear): Linear => ({ mean: model.mean.map(fix), scale: model.scale.map(fix), weights: model.weights.map(fix), bias: fix(model.bias) })
    const file = path.join(import.meta.dirname, '..', 'src', 'modules', 'answers', 'learned.json')
    writeFileSync(file, `${JSON.stringify({ ranker: round(all.ranker), gate: round(all.gate), threshold: fix(all.threshold), keep: all.keep, candidates: all.candidates, kinds: all.kinds })}\n`)
    console.log(`written ${path.relative(process.cwd(), file)} (threshold ${all.threshold.toFixed(3)}, keep ${all.keep})`)
  }
  return { pooled, latest, asUnseen }
})
const fix = (value: number) => Number(value.toPrecision(6))
