// The walls of docs/ARCHITECTURE.md, checked on every `npm test`:
// - the import rules of .dependency-cruiser.cjs (platform never imports a module or app.ts; a module
//   reaches another only through its index.ts; no module cycles), checked by dependency-cruiser;
// - that those rules would catch the arrows they were written against (a fixture tree breaking each);
// - table ownership: each table's row type lives in src/platform/db/tables/<owner>.ts, and only the
//   owner's files name it in a query.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser'
import { describe, expect, it } from 'vitest'
import { tempDir } from './databases.ts'

const root = path.resolve(import.meta.dirname, '..')
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as {
  forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden']
  options: ICruiseOptions
}

async function violationsOf(directory: string, entries: string[]): Promise<IViolation[]> {
  const previous = process.cwd()
  process.chdir(directory)
  try {
    const result = await cruise(entries, {
      ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true, outputType: 'json',
      tsConfig: undefined,
    })
    const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output
    return output.summary.violations as IViolation[]
  } finally {
    process.chdir(previous)
  }
}

describe('import rules', () => {
  it('hold for the whole tree', async () => {
    const violations = await violationsOf(root, ['src', 'test', 'bench', 'eval'])
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([])
  })

  it('catch the arrows they were written against', async () => {
    const fixture = tempDir()
    const files: Record<string, string> = {
      'src/app.ts': "export type AppDeps = { name: string }\n",
      'src/platform/jobs/registry.ts': "import type { AppDeps } from '../../app.ts'\nexport type Job = { deps: AppDeps }\n",
      'src/modules/extraction/engine/text.ts': 'export const tokens = (text: string) => text.split(" ")\n',
      'src/modules/extraction/index.ts': "export { tokens } from './engine/text.ts'\n",
      'src/modules/answers/summary.ts': "import { tokens } from '../extraction/engine/text.ts'\nexport const summary = tokens\n",
      'src/modules/sessions/index.ts': "import { segment } from '../transcripts/index.ts'\nexport const session = () => segment\n",
      'src/modules/transcripts/index.ts': "import { session } from '../sessions/index.ts'\nexport const segment = () => session\n",
    }
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true })
      writeFileSync(path.join(fixture, file), text)
    }
    const rules = (await violationsOf(fixture, ['src'])).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)
    expect(rules).toEqual(expect.arrayContaining([
      'platform-imports-no-module: src/platform/jobs/registry.ts → src/app.ts',
      'modules-only-through-index: src/modules/answers/summary.ts → src/modules/extraction/engine/text.ts',
      expect.stringMatching(/^no-module-cycles: src\/modules\/(sessions|transcripts)\/index\.ts/),
    ]))
  })
})

/** better-auth's identity tables: any module may read them (names, emails); only `account` writes. */
const IDENTITY_TABLES = new Set(['auth_user', 'auth_session'])
const IDENTITY_WRITER = 'account'

function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>()
  const directory = path.join(root, 'src/platform/db/tables')
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.ts'))) {
    const owner = file.replace(/\.ts$/, '')
    const block = /export type \w+Tables = \{([^}]*)\}/.exec(readFileSync(path.join(directory, file), 'utf8'))
    for (const [, table] of block?.[1]?.matchAll(/^\s+(\w+):/gm) ?? []) owners.set(table!, owner)
  }
  return owners
}

function moduleFiles(directory = path.join(root, 'src/modules')): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name)
    if (entry.isDirectory()) return moduleFiles(full)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && entry.name !== 'testing.ts' ? [full] : []
  })
}

type Use = { file: string; line: number; table: string; owner: string; writes: boolean }

function tableUses(owners: Map<string, string>): Use[] {
  const names = [...owners.keys()].sort((a, b) => b.length - a.length).join('|')
  const builder = new RegExp(`\\b(selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|mergeInto)\\(\\s*['"\`](${names})\\b`, 'g')
  const raw = new RegExp(`\\b(from|join|into|update)\\s+(${names})\\b`, 'gi')
  return moduleFiles().flatMap((file) => readFileSync(file, 'utf8').split('\n').flatMap((text, index) => {
    const found = [...text.matchAll(builder), ...text.matchAll(raw)]
    return found.map(([, verb, table]) => ({
      file: path.relative(root, file), line: index + 1, table: table!, owner: owners.get(table!)!,
      writes: /^(insertInto|updateTable|deleteFrom|mergeInto|into|update)$/i.test(verb!),
    }))
  }))
}

describe('table ownership', () => {
  const owners = tableOwners()

  it('knows every table of the schema', () => {
    expect(owners.size).toBeGreaterThan(30)
    expect(owners.get('work_objects')).toBe('work')
    expect(owners.get('capture_sessions')).toBe('sessions')
  })

  it('lets only the owning module query a table', () => {
    const foreign = tableUses(owners).filter((use) => {
      const module = use.file.split('/')[2]!
      if (IDENTITY_TABLES.has(use.table)) return use.writes && module !== IDENTITY_WRITER
      return module !== use.owner
    })
    expect(foreign.map((use) => `${use.file}:${use.line} ${use.writes ? 'writes' : 'reads'} ${use.table} (owned by ${use.owner})`)).toEqual([])
  })
})
