// Kysely over Node's built-in node:sqlite. One connection, used by one query or transaction at a
// time (a mutex), with prepared statements cached by SQL text: preparing is a large share of a
// short query's cost.
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import {
  CompiledQuery, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely'

const STATEMENT_CACHE_SIZE = 500

export class NodeSqliteDialect implements Dialect {
  readonly #database: DatabaseSync
  constructor(database: DatabaseSync) {
    this.#database = database
  }
  createAdapter() {
    return new SqliteAdapter()
  }
  createDriver(): Driver {
    return new NodeSqliteDriver(this.#database)
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db)
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler()
  }
}

class NodeSqliteDriver implements Driver {
  readonly #connection: NodeSqliteConnection
  #queue: Promise<void> = Promise.resolve()

  constructor(database: DatabaseSync) {
    this.#connection = new NodeSqliteConnection(database)
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void
    const previous = this.#queue
    this.#queue = new Promise((resolve) => {
      release = resolve
    })
    await previous
    this.#connection.release = release
    return this.#connection
  }
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin'))
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }
  async releaseConnection() {
    this.#connection.release()
  }
  async destroy() {}
}

class NodeSqliteConnection implements DatabaseConnection {
  readonly #database: DatabaseSync
  /** `reader`: the statement returns rows (asking columns() builds a descriptor per column every time) */
  readonly #statements = new Map<string, { statement: StatementSync; reader: boolean }>()
  release: () => void = () => {}

  constructor(database: DatabaseSync) {
    this.#database = database
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { statement, reader } = this.#prepare(query.sql)
    const parameters = query.parameters as Parameters<StatementSync['all']>
    if (reader) return { rows: statement.all(...parameters) as R[] }
    const { changes, lastInsertRowid } = statement.run(...parameters)
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) }
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('node:sqlite does not stream query results')
  }

  #prepare(sql: string) {
    const cached = this.#statements.get(sql)
    if (cached) return cached
    const statement = this.#database.prepare(sql)
    const prepared = { statement, reader: statement.columns().length > 0 }
    if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!)
    this.#statements.set(sql, prepared)
    return prepared
  }
}
