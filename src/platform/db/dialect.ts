// The few places where SQLite and PostgreSQL need different SQL. Keep every such branch here.
import type { SelectQueryBuilder } from 'kysely'
import type { DialectName } from './index.ts'

/** Column type for raw bytes. */
export function bytesType(dialect: DialectName): 'blob' | 'bytea' {
  return dialect === 'postgres' ? 'bytea' : 'blob'
}

/** Row lock for the rest of the transaction (SQLite transactions already hold the write lock). */
export function forUpdate<DB, TB extends keyof DB, O>(
  dialect: DialectName,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate() : query
}

/** True for a unique/primary-key violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const err = error as { code?: string; errcode?: number; message?: string }
  if (err?.code === '23505') return true
  return err?.code === 'ERR_SQLITE_ERROR' && /UNIQUE constraint failed|PRIMARY KEY/.test(err.message ?? '')
}

/** True for a PostgreSQL deadlock (40P01) or serialization failure (40001): nothing committed, run it again. */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code
  return code === '40P01' || code === '40001'
}
