// Codebase memory: register a git repository (a local path under CODEBASE_ROOTS or a file:// URL
// there), clone it shallowly with `git` into a temporary directory, index its documents and code
// symbols (code-index.ts) and keep them as chunks answers can cite by file and line. Size, file
// count and time are limited (CODEBASE_MAX_BYTES, CODEBASE_MAX_FILES, CODEBASE_TIMEOUT_MS).
import { execFile } from 'node:child_process'
import { realpathSync } from 'node:fs'
import { lstat, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { findProject } from '../projects/index.ts'
import { chunkFile, isIndexable } from './code-index.ts'
import { presentCodebase } from './presenter.ts'
import { scheduleRefresh } from './refresh.ts'
import * as repo from './repo.ts'
import type { CodebaseInput } from './schemas.ts'
import type { Caller } from './service.ts'

const run = promisify(execFile)
const MAX_FILE_BYTES = 512 * 1024

/** The directory a source names, when it is one the server may read. */
export function localPathOf(source: string, roots: string[]): string {
  let target: string
  if (source.startsWith('file://')) {
    try {
      target = fileURLToPath(source)
    } catch {
      throw badRequest('source', 'invalid_url', 'source must be an absolute path or a file:// URL.')
    }
  } else if (path.isAbsolute(source)) {
    target = source
  } else {
    throw badRequest('source', 'unsupported_source', 'source must be an absolute path or a file:// git URL; network URLs are not cloned by this server.')
  }
  // A symlink under a root may point anywhere: the check is on where it really leads.
  let resolved = path.resolve(target)
  try {
    resolved = realpathSync.native(resolved)
  } catch {
    // missing: cloning says so (422) once the root check passed
  }
  const realRoots = roots.map((root) => {
    try {
      return realpathSync.native(root)
    } catch {
      return root
    }
  })
  if (!realRoots.some((root) => resolved === root || resolved.startsWith(root + path.sep))) {
    throw new AppError('codebase_not_allowed', roots.length === 0
      ? 'This server registers no codebases: its operator has not set CODEBASE_ROOTS.'
      : 'source is outside the directories this server may read (CODEBASE_ROOTS).')
  }
  return resolved
}

class IndexFailure extends AppError {}

async function git(args: string[], cwd: string | undefined, timeoutMs: number) {
  try {
    const { stdout } = await run('git', ['-c', 'protocol.file.allow=always', ...args], { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    return stdout
  } catch (error) {
    const failure = error as { killed?: boolean; signal?: string; stderr?: string }
    if (failure.killed || failure.signal === 'SIGTERM') throw new IndexFailure('codebase_unavailable', `git ${args[0]} took longer than ${timeoutMs} ms.`)
    const reason = (failure.stderr ?? '').split('\n').find((line) => line.startsWith('fatal:'))?.replace(/^fatal:\s*/, '') ?? 'git failed'
    throw new IndexFailure('codebase_unavailable', `The repository could not be cloned: ${reason.slice(0, 300)}`)
  }
}

async function indexCheckout(deps: AppDeps, directory: string, deadline: number) {
  const { maxBytes, maxFiles } = deps.config.codebases
  const remaining = () => Math.max(1000, deadline - Date.now())
  const files = (await git(['ls-files', '-z'], directory, remaining())).split('\0').filter(Boolean)
  if (files.length > maxFiles) throw new IndexFailure('codebase_too_large', `The repository has ${files.length} files; this server indexes at most ${maxFiles}.`)
  let total = 0
  const chunks = []
  let fileCount = 0
  for (const file of files) {
    if (Date.now() > deadline) throw new IndexFailure('codebase_unavailable', `Indexing took longer than ${deps.config.codebases.timeoutMs} ms.`)
    // lstat: a tracked symlink is not followed (it could point outside the repository).
    const info = await lstat(path.join(directory, file)).catch(() => undefined)
    if (!info?.isFile()) continue
    total += info.size
    if (total > maxBytes) throw new IndexFailure('codebase_too_large', `The repository is larger than ${maxBytes} bytes.`)
    if (!isIndexable(file) || info.size > MAX_FILE_BYTES) continue
    fileCount += 1
    chunks.push(...chunkFile(file, await readFile(path.join(directory, file), 'utf8')))
  }
  const commit = (await git(['rev-parse', 'HEAD'], directory, remaining())).trim()
  return { chunks, fileCount, commit }
}

/** Registers (or, with `reindex`, indexes again) a codebase of the project; answers it as indexed or failed. */
export async function registerCodebase(deps: AppDeps, caller: Caller, projectId: string, input: CodebaseInput) {
  const { db } = deps.database
  const project = await findProject(db, caller.membership.workspaceId, projectId) ?? notFound('project', projectId)
  const directory = localPathOf(input.source.trim(), deps.config.codebases.roots)
  const source = input.source.trim()
  const now = nowIso()
  let codebase = await repo.findCodebaseBySource(db, project.id, source)
  if (codebase && codebase.state === 'ready' && !input.reindex) return presentCodebase(codebase)
  if (!codebase) {
    await repo.insertCodebase(db, {
      id: newId('cbs'), workspace_id: project.workspace_id, project_id: project.id, source, state: 'failed', commit_sha: null, file_count: 0, symbol_count: 0,
      error_code: null, error: null, indexed_at: null, created_by: caller.actor.accountId, created_at: now, updated_at: now,
    })
    codebase = (await repo.findCodebaseBySource(db, project.id, source))!
  }
  // An indexing run that died (its process stopped) holds no claim past twice the time limit.
  const claimed = await repo.claimCodebase(db, codebase.id, now, new Date(Date.now() - 2 * deps.config.codebases.timeoutMs).toISOString())
  if (!claimed) throw new AppError('codebase_indexing', 'This codebase is being indexed by another request.', { extra: { codebase: presentCodebase(codebase) } })
  const checkout = await mkdtemp(path.join(tmpdir(), 'confer-codebase-'))
  const deadline = Date.now() + deps.config.codebases.timeoutMs
  try {
    await git(['clone', '--depth', '1', '--no-tags', '--quiet', '--', directory, checkout], undefined, deps.config.codebases.timeoutMs)
    const indexed = await indexCheckout(deps, checkout, deadline)
    const finished = await db.transaction().execute(async (trx) => {
      await repo.replaceChunks(trx, claimed.id, indexed.chunks.map((chunk) => ({
        id: newId('chk'), codebase_id: claimed.id, workspace_id: project.workspace_id, project_id: project.id,
        path: chunk.path, line: chunk.line, end_line: chunk.endLine, kind: chunk.kind, name: chunk.name, text: chunk.text,
      })))
      const at = nowIso()
      const row = await repo.finishCodebase(trx, claimed.id, {
        state: 'ready', commit_sha: indexed.commit, file_count: indexed.fileCount, symbol_count: indexed.chunks.filter((chunk) => chunk.kind !== 'heading' && chunk.kind !== 'paragraph').length,
        error_code: null, error: null, indexed_at: at, updated_at: at,
      })
      await scheduleRefresh(trx, { workspaceId: project.workspace_id, projectId: project.id })
      return row
    })
    return presentCodebase(finished)
  } catch (error) {
    const failure = error instanceof AppError ? error : new AppError('codebase_unavailable', 'The repository could not be indexed.')
    await repo.finishCodebase(db, claimed.id, { state: 'failed', error_code: failure.code, error: failure.message, updated_at: nowIso() })
    throw failure
  } finally {
    await rm(checkout, { recursive: true, force: true })
  }
}
