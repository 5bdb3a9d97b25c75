// Queries of the account module: the person's name lives in better-auth's auth_user, which only
// this module writes (docs/ARCHITECTURE.md, "Tables").
import type { Kysely, Transaction } from 'kysely'
import type { Tables } from '../../platform/db/tables.ts'

type Executor = Kysely<Tables> | Transaction<Tables>

export const updateUserName = (db: Executor, accountId: string, name: string, now: string) =>
  db.updateTable('auth_user').set({ name, updatedAt: now }).where('id', '=', accountId).execute()
