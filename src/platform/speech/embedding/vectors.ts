// Vector arithmetic on embeddings (plain arrays or Float32Array).
export type Vector = ArrayLike<number>

export function cosine(a: Vector, b: Vector): number {
  let dot = 0
  let normA = 0
  let normB = 0
  for (let index = 0; index < a.length; index += 1) {
    dot += a[index]! * b[index]!
    normA += a[index]! ** 2
    normB += b[index]! ** 2
  }
  return normA > 0 && normB > 0 ? dot / Math.sqrt(normA * normB) : 0
}

export const norm = (vector: Vector) => {
  let sum = 0
  for (let index = 0; index < vector.length; index += 1) sum += vector[index]! ** 2
  return Math.sqrt(sum)
}

export function normalize(vector: Vector): number[] {
  const length = norm(vector)
  return Array.from(vector, (value) => (length > 0 ? value / length : 0))
}

/** The unit-length mean direction of the vectors, weighted (default 1 each). */
export function centroid(vectors: Vector[], weights?: number[]): number[] | undefined {
  if (vectors.length === 0) return undefined
  const sum = new Array<number>(vectors[0]!.length).fill(0)
  for (const [index, vector] of vectors.entries()) {
    const weight = weights?.[index] ?? 1
    const unit = normalize(vector)
    for (let dimension = 0; dimension < sum.length; dimension += 1) sum[dimension]! += weight * unit[dimension]!
  }
  return normalize(sum)
}
