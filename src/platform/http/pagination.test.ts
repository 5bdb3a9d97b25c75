import { describe, expect, it } from 'vitest'
import { AppError } from './errors.ts'
import { decodeCursor, encodeCursor, paginate } from './pagination.ts'

function cursorError(cursor: string, arity: number): AppError {
  try {
    decodeCursor(cursor, arity)
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return error as AppError
  }
  throw new Error(`decodeCursor(${JSON.stringify(cursor)}) did not throw`)
}

describe('cursors', () => {
  it('round-trip a sort key of strings and numbers', () => {
    const key = ['2026-11-22T10:00:00.000Z', 'ses_01JABC', 42]
    const cursor = encodeCursor(key)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor(cursor, 3)).toEqual(key)
  })

  it('is undefined when no cursor is given', () => {
    expect(decodeCursor(undefined, 2)).toBeUndefined()
  })

  it.each([
    ['garbage', 'not a cursor!'],
    ['a tampered cursor', encodeCursor(['a', 'b']).slice(0, -3) + 'zzz'],
    ['a key of the wrong length', encodeCursor(['a', 'b', 'c'])],
    ['a key holding an object', Buffer.from(JSON.stringify([{ a: 1 }, 'b'])).toString('base64url')],
    ['JSON that is not an array', Buffer.from('{"a":1}').toString('base64url')],
  ])('refuses %s with invalid_cursor (400)', (_label, cursor) => {
    const error = cursorError(cursor, 2)
    expect(error.code).toBe('invalid_cursor')
    expect(error.statusCode).toBe(400)
    expect(error.errors).toEqual([expect.objectContaining({ field: 'cursor' })])
  })
})

describe('paginate', () => {
  const rows = [1, 2, 3, 4, 5].map((n) => ({ id: `row_${n}`, rank: n }))
  const keyOf = (row: { id: string; rank: number }) => [row.rank, row.id]

  it('returns `limit` items and a cursor of the last one when more rows were fetched', () => {
    const page = paginate(rows, 3, keyOf)
    expect(page.items.map((row) => row.id)).toEqual(['row_1', 'row_2', 'row_3'])
    expect(page.nextCursor).toBeDefined()
    expect(decodeCursor(page.nextCursor, 2)).toEqual([3, 'row_3'])
  })

  it('has no nextCursor on the last page', () => {
    const exact = paginate(rows, 5, keyOf)
    expect(exact.items).toHaveLength(5)
    expect('nextCursor' in exact).toBe(false)
    const short = paginate(rows.slice(0, 2), 3, keyOf)
    expect(short.items).toHaveLength(2)
    expect('nextCursor' in short).toBe(false)
    expect(paginate([], 3, keyOf)).toEqual({ items: [] })
  })
})
