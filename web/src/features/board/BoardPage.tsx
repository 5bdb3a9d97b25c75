// The work board across sessions: accepted work objects (not pending proposals; with none, the meetings whose proposals wait) by stage, by
// owner, or only the caller's; each card says when it is due (overdue marked) and whether it is
// blocked or done, and opens the item on its meeting's page; one project's work on its own. It reads the work of the 50 most recent sessions in one request (GET /v1/workobjects?sessionIds=…).
import { useEffect, useState } from 'react'
import { ApiError, api } from '../../lib/api.ts'
import { navigate, useLocation } from '../../app/router.ts'
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { Project, SessionSnapshot, WorkObject } from '../../lib/types.ts'
import { ErrorLine, Link, Loading, PageTitle } from '../../lib/ui.tsx'
import { useCurrentAccount } from '../auth/api.ts'
import { STAGES, useMembers } from '../work/api.ts'

type View = 'stage' | 'owner' | 'mine'
type Item = WorkObject & { sessionTitle: string; projectId?: string }

/** A meeting whose extraction proposed work nobody has accepted or rejected yet, and how many items. */
type Waiting = { sessionId: string; sessionTitle: string; projectId?: string; count: number }

/** The proposals still pending, by meeting (newest first): what an empty board points to instead of "record one". */
function waitingProposals(workObjects: WorkObject[], byId: Map<string, SessionSnapshot>): Waiting[] {
  const waiting = new Map<string, Waiting>()
  for (const wo of workObjects) {
    const session = byId.get(wo.sessionId)
    if (!session || wo.proposal?.state !== 'pending' || wo.proposal.kind !== 'object') continue
    const entry = waiting.get(session.id) ?? { sessionId: session.id, sessionTitle: session.title, projectId: session.projectId, count: 0 }
    entry.count += 1
    waiting.set(session.id, entry)
  }
  return [...waiting.values()]
}

/** Two requests whatever the number of meetings: the 50 most recent sessions, then their work in one read. */
async function loadBoard(): Promise<{ items: Item[]; waiting: Waiting[] }> {
  const sessions = await api.get<SessionSnapshot[]>('/v1/sessions?limit=50')
  if (sessions.length === 0) return { items: [], waiting: [] }
  const byId = new Map(sessions.map((session) => [session.id, session]))
  // Newest meeting first (as the sessions come), each meeting's work in the order it was found.
  const rank = new Map(sessions.map((session, index) => [session.id, index]))
  const { workObjects } = await api.get<{ workObjects: WorkObject[] }>(`/v1/workobjects?sessionIds=${sessions.map((session) => encodeURIComponent(session.id)).join(',')}`)
  const sorted = workObjects.toSorted((a, b) => (rank.get(a.sessionId) ?? 0) - (rank.get(b.sessionId) ?? 0))
  const items = sorted
    .filter((wo) => !wo.proposal || wo.proposal.state === 'accepted' || wo.proposal.kind === 'revision')
    .flatMap((wo) => {
      const session = byId.get(wo.sessionId)
      // An item's project: where it is headed, else its meeting's (as its actions and memory count it).
      return session ? [{ ...wo, sessionTitle: session.title, projectId: wo.targetProjectId ?? session.projectId }] : []
    })
  return { items, waiting: waitingProposals(sorted, byId) }
}

export function BoardPage() {
  const { t } = useI18n()
  const [view, setView] = useState<View>('stage')
  const [board, setBoard] = useState<{ items: Item[]; waiting: Waiting[] }>()
  const all = board?.items
  // The project shown (`?project=`, kept in the address): all of them, one, or none ("none").
  const { query } = useLocation()
  const project = query.get('project') ?? ''
  // Read with the board, not through the shared cache: another page's projects stay its own to load.
  const [projectList, setProjects] = useState<Project[]>()
  useEffect(() => { api.get<Project[]>('/v1/projects?status=active').then(setProjects, () => setProjects([])) }, [])
  const projects = { data: projectList }
  const inProject = (projectId?: string) => !project || (project === 'none' ? !projectId : projectId === project)
  const items = all?.filter((wo) => inProject(wo.projectId))
  const waiting = board?.waiting.filter((entry) => inProject(entry.projectId)) ?? []
  const [error, setError] = useState<string>()
  const members = useMembers()
  const me = useCurrentAccount().data?.account.id
  useEffect(() => { loadBoard().then(setBoard, (caught: unknown) => setError(caught instanceof ApiError ? caught.message : String(caught))) }, [])
  // A member without a name is their email (as everywhere else), never their account id.
  const nameOf = (id: string) => {
    const member = members.data?.members.find((item) => item.accountId === id)
    return member?.name || member?.email || id
  }

  let columns: { key: string; title: string; items: Item[] }[] = []
  if (items) {
    if (view === 'stage') columns = STAGES.map((stage) => ({ key: stage, title: t(`work.stage.${stage}` as MessageKey), items: items.filter((wo) => wo.stage === stage) }))
    if (view === 'mine') columns = STAGES.map((stage) => ({ key: stage, title: t(`work.stage.${stage}` as MessageKey), items: items.filter((wo) => wo.stage === stage && wo.ownerId === me) }))
    if (view === 'owner') {
      const owners = [...new Set(items.map((wo) => wo.ownerId ?? ''))]
      columns = owners.map((owner) => ({ key: owner || 'none', title: owner ? nameOf(owner) : t('board.unowned'), items: items.filter((wo) => (wo.ownerId ?? '') === owner) }))
    }
  }
  return (
    <section>
      <PageTitle title={t('board.title')}>{t('board.title')}</PageTitle>
      <div className="tabs" role="group" aria-label={t('board.title')}>
        {(['stage', 'owner', 'mine'] as const).map((option) => (
          <button key={option} type="button" aria-pressed={view === option} onClick={() => setView(option)}>
            {t(option === 'stage' ? 'board.byStage' : option === 'owner' ? 'board.byOwner' : 'board.mine')}
          </button>
        ))}
      </div>
      {projects.data && projects.data.length > 0 ? (
        <label className="inline">
          {t('board.project')}{' '}
          <select value={project} onChange={(event) => navigate(event.target.value ? `/board?project=${encodeURIComponent(event.target.value)}` : '/board')}>
            <option value="">{t('board.allProjects')}</option>
            {projects.data.map((item) => <option key={item.id} value={item.id}>{item.name}</option>)}
            <option value="none">{t('board.noProject')}</option>
          </select>
        </label>
      ) : null}
      <ErrorLine error={error} />
      {items && items.length === 0 && waiting.length > 0 ? (
        <div className="notice" data-testid="board-waiting">
          <p>{t('board.waiting')}</p>
          <ul>
            {waiting.map((entry) => (
              <li key={entry.sessionId}>
                <Link href={`/sessions/${entry.sessionId}`}>{entry.sessionTitle}</Link>
                {' · '}{entry.count === 1 ? t('board.waitingOne') : t('board.waitingMany', { count: entry.count })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {items && items.length === 0 && waiting.length === 0 && project ? (
        <p className="muted" data-testid="board-empty-project">{t('board.emptyProject')}</p>
      ) : null}
      {items && items.length === 0 && waiting.length === 0 && !project ? (
        <p className="muted" data-testid="board-empty">{t('board.empty')} <Link href="/record">{t('board.record')}</Link></p>
      ) : null}
      {items && items.length > 0 && view === 'mine' && !items.some((wo) => wo.ownerId === me) ? (
        <p className="muted" data-testid="board-empty">{t('board.emptyMine')}</p>
      ) : null}
      {!items ? <Loading /> : (
        <div className="board">
          {columns.map((column) => (
            <section key={column.key} className="board-column" aria-label={column.title}>
              <h2>{column.title} <span className="muted">({column.items.length})</span></h2>
              <ul>
                {column.items.map((wo) => (
                  <li key={wo.id} className="card" data-testid="board-card">
                    <span className="badge">{t(`work.kind.${wo.kind}` as MessageKey)}</span>{' '}
                    <Link href={`/sessions/${wo.sessionId}?workObject=${encodeURIComponent(wo.id)}`}>{wo.title}</Link>
                    <p className="muted">{wo.sessionTitle}{wo.ownerId ? ` · ${nameOf(wo.ownerId)}` : ''}</p>
                    <DueAndProgress wo={wo} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </section>
  )
}

/** Today as a calendar date where the reader is (due dates are days, not instants). */
const today = () => {
  const now = new Date()
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
}

/** When the item is due (overdue said so unless it is done) and, when it is stuck or finished, its progress. */
function DueAndProgress({ wo }: { wo: WorkObject }) {
  const { t, day } = useI18n()
  const state = wo.responsibility.state
  const overdue = Boolean(wo.dueDate && wo.dueDate < today() && state !== 'done' && wo.stage !== 'accepted')
  if (!wo.dueDate && state !== 'blocked' && state !== 'done') return null
  return (
    <p className="small">
      {wo.dueDate ? <span className={overdue ? 'overdue' : undefined} data-testid="board-due">{t(overdue ? 'board.overdue' : 'work.due', { date: day(wo.dueDate) })}</span> : null}
      {wo.dueDate && (state === 'blocked' || state === 'done') ? ' · ' : null}
      {state === 'blocked' || state === 'done' ? <span data-testid="board-progress">{t(`work.resp.${state}` as MessageKey)}</span> : null}
    </p>
  )
}
