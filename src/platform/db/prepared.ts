// Building a Kysely query costs tens of microseconds, often more than running it on SQLite. For
// hot queries, `prepared` builds and compiles once per database with sentinel values, then binds
// each call's values into the same SQL. Constant values in the query stay as compiled. Each
// argument must be bound as a single value (no arrays for `in`, nothing that changes the SQL).
import type { Compilable, CompiledQuery, Kysely } from 'kysely'

const SENTINEL = '\u0000confer-prepared-'

type Template<Row> = { query: CompiledQuery<Row>; slots: (number | undefined)[] }

export function prepared<Args extends (string | number | null)[], Row, DB>(
  build: (executor: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (executor: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  // Keyed by the dialect adapter, which a database and all its transactions share.
  const templates = new WeakMap<object, Template<Row>>()
  return async (executor, ...args) => {
    const key = executor.getExecutor().adapter
    let template = templates.get(key)
    if (!template) {
      const sentinels = args.map((_, index) => `${SENTINEL}${index}`) as Args
      const query = build(executor, ...sentinels).compile()
      const slots = query.parameters.map((value) =>
        typeof value === 'string' && value.startsWith(SENTINEL) ? Number(value.slice(SENTINEL.length)) : undefined)
      template = { query, slots }
      templates.set(key, template)
    }
    const { query, slots } = template
    const parameters = query.parameters.map((value, index) => {
      const slot = slots[index]
      return slot === undefined ? value : args[slot]
    })
    return (await executor.executeQuery<Row>({ ...query, parameters })).rows
  }
}
