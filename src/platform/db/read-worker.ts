// A read-only connection to the SQLite file on its own thread (read-pool.ts): node:sqlite is
// synchronous, so a slow read on the main connection would hold up every other request. WAL lets
// this connection read while the main one writes; it sees what has committed.
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'

type Request = { id: number; sql: string; parameters: unknown[] }

const database = new DatabaseSync(workerData.file as string, { readOnly: true })
database.exec('PRAGMA busy_timeout = 5000')
const statements = new Map<string, StatementSync>()

parentPort!.on('message', ({ id, sql, parameters }: Request) => {
  try {
    let statement = statements.get(sql)
    if (!statement) {
      statement = database.prepare(sql)
      statements.set(sql, statement)
    }
    parentPort!.postMessage({ id, rows: statement.all(...(parameters as never[])) })
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message })
  }
})
