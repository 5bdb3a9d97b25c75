// String enums in TypeBox schemas, built from the shared vocabulary's lists (src/domain).
import { Type } from 'typebox'

/** A string enum with its static type kept (a Union built from a mapped array would type as never). */
export const literals = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
