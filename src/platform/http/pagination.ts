// Cursor pagination (DESIGN §3): `limit` (default 50, max 200) and an opaque `cursor`; the
// response adds `nextCursor`. A cursor encodes the sort key of the last row returned.
import { Type } from 'typebox'
import { AppError } from './errors.ts'

export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 200

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
}

export const NextCursor = Type.Optional(Type.String({ description: 'Pass as `cursor` to read the next page; absent on the last page.' }))

export type CursorKey = (string | number)[]

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

/** A cursor part: `string` (well-formed text without NUL, at most 200 characters) or `integer` (0 to 2^31 − 1). */
export type CursorPart = 'string' | 'integer'

const MAX_CURSOR_INTEGER = 2 ** 31 - 1

function partMatches(part: unknown, kind: CursorPart | undefined) {
  if (typeof part === 'string') return kind !== 'integer' && part.length <= 200 && !part.includes('\u0000') && part.isWellFormed()
  if (typeof part === 'number') return kind !== 'string' && Number.isInteger(part) && part >= 0 && part <= MAX_CURSOR_INTEGER
  return false
}

/**
 * The key a cursor encodes, checked against its `shape` (the type of each part, as the route
 * sorts), or against its arity alone when a number is given. A key of another shape is refused
 * with 400 invalid_cursor: it never reaches a query.
 */
export function decodeCursor(cursor: string | undefined, shape: number | readonly CursorPart[]): CursorKey | undefined {
  if (cursor === undefined) return undefined
  const kinds: (CursorPart | undefined)[] = typeof shape === 'number' ? Array.from({ length: shape }, () => undefined) : [...shape]
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(key) && key.length === kinds.length && key.every((part, index) => partMatches(part, kinds[index]))) {
      return key as CursorKey
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError('invalid_cursor', 'The cursor is not one this API returned.', {
    errors: [{ field: 'cursor', code: 'invalid', message: 'is not a cursor returned by this API' }],
  })
}

/** Splits `limit + 1` fetched rows into the page and the cursor of its last row. */
export function paginate<T>(rows: T[], limit: number, keyOf: (row: T) => CursorKey): { items: T[]; nextCursor?: string } {
  if (rows.length <= limit) return { items: rows }
  const items = rows.slice(0, limit)
  return { items, nextCursor: encodeCursor(keyOf(items[items.length - 1]!)) }
}
