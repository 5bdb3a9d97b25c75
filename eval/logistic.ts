// Weighted logistic regression (L2, full-batch gradient descent on standardised features) for the
// learned answer ranker and gate (eval/answers-learn.ts). Small data (a few thousand rows, a few
// dozen features): plain gradient descent converges well within the iterations given.
import type { Linear } from '../src/modules/answers/learned.ts'

export type Example = { features: number[]; label: number; weight: number }

export function standardise(rows: number[][]): { mean: number[]; scale: number[] } {
  const width = rows[0]?.length ?? 0
  const mean = Array.from({ length: width }, (_, index) => rows.reduce((sum, row) => sum + row[index]!, 0) / Math.max(1, rows.length))
  const scale = mean.map((centre, index) => Math.sqrt(rows.reduce((sum, row) => sum + (row[index]! - centre) ** 2, 0) / Math.max(1, rows.length)) || 1)
  return { mean, scale }
}

/** Fits weights (and a bias unless `bias` is false) to examples already standardised. */
export function fitLogistic(examples: Example[], options: { l2: number; bias?: boolean; iterations?: number; rate?: number }): { weights: number[]; bias: number } {
  const width = examples[0]?.features.length ?? 0
  const weights = new Array<number>(width).fill(0)
  let bias = 0
  const total = examples.reduce((sum, example) => sum + example.weight, 0) || 1
  const rate = options.rate ?? 0.5
  for (let iteration = 0; iteration < (options.iterations ?? 400); iteration += 1) {
    const gradient = new Array<number>(width).fill(0)
    let biasGradient = 0
    for (const { features, label, weight } of examples) {
      let z = bias
      for (let index = 0; index < width; index += 1) z += weights[index]! * features[index]!
      const error = (1 / (1 + Math.exp(-z)) - label) * (weight / total)
      for (let index = 0; index < width; index += 1) gradient[index]! += error * features[index]!
      biasGradient += error
    }
    for (let index = 0; index < width; index += 1) weights[index]! -= rate * (gradient[index]! + options.l2 * weights[index]!)
    if (options.bias !== false) bias -= rate * biasGradient
  }
  return { weights, bias }
}

export const zscore = (row: number[], stats: { mean: number[]; scale: number[] }) => row.map((value, index) => (value - stats.mean[index]!) / stats.scale[index]!)

/** A logistic model over raw rows: standardised, fitted, returned with its standardisation. */
export function trainLinear(rows: number[][], labels: number[], weights: number[], l2: number): Linear {
  const stats = standardise(rows)
  const fitted = fitLogistic(rows.map((row, index) => ({ features: zscore(row, stats), label: labels[index]!, weight: weights[index]! })), { l2 })
  return { ...stats, ...fitted }
}
