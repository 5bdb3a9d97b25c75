// Projects: create, edit, archive and restore; a project's members with their working roles,
// and the caller's own role; the sessions linked to it.
import { useState } from 'react'
import { api, idempotencyKey, invalidate, useAction, useResource } from '../../lib/api.ts'
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { CreateProjectInput, Project, ProjectDetail, ProjectMembership, ProjectRole, UpdateProjectInput } from '../../lib/types.ts'
import { ErrorLine, Link, Loading, PageTitle } from '../../lib/ui.tsx'
import { useCanEdit } from '../auth/api.ts'
import { SessionList } from '../sessions/SessionsPage.tsx'
import { AddProjectMember } from './AddMember.tsx'

const ROLES: ProjectRole[] = ['product', 'design', 'engineering', 'operations', 'project-management', 'other']

export function ProjectsPage() {
  const { t } = useI18n()
  const canEdit = useCanEdit()
  const [showArchived, setShowArchived] = useState(false)
  const projects = useResource<Project[]>(`/v1/projects?status=${showArchived ? 'all' : 'active'}`)
  const [name, setName] = useState('')
  const [objective, setObjective] = useState('')
  const { busy, error, run } = useAction()
  // Two projects may share a name (the interface sets no rule, and the API keeps allowing it); the form says so before
  // a second one is made by mistake, and points at the one that exists.
  const typed = name.trim()
  const sameName = typed ? projects.data?.find((project) => project.name.trim() === typed)
    ?? projects.data?.find((project) => project.name.trim().toLocaleLowerCase() === typed.toLocaleLowerCase()) : undefined
  const create = () => run(async () => {
    const input: CreateProjectInput = { name: name.trim(), ...(objective.trim() ? { objective: objective.trim() } : {}) }
    await api.post<Project>('/v1/projects', input, { 'idempotency-key': idempotencyKey() })
    setName('')
    setObjective('')
    invalidate('/v1/projects')
  })
  return (
    <section>
      <PageTitle title={t('projects.title')}>{t('projects.title')}</PageTitle>
      {!canEdit ? <p className="muted" data-testid="view-only">{t('common.viewOnly')}</p> : null}
      {canEdit ? <form className="card" onSubmit={(event) => { event.preventDefault(); void create() }}>
        <h2>{t('projects.create')}</h2>
        <label htmlFor="project-name">{t('projects.name')}</label>
        <input id="project-name" required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} {...(sameName ? { 'aria-describedby': 'project-name-taken' } : {})} />
        {sameName ? (
          <p className="muted" id="project-name-taken" data-testid="project-name-taken">
            {t('projects.nameTaken', { name: sameName.name })} <Link href={`/projects/${sameName.id}`}>{t('projects.openExisting')}</Link>
          </p>
        ) : null}
        <label htmlFor="project-objective">{t('projects.objective')}</label>
        <input id="project-objective" maxLength={2000} value={objective} onChange={(event) => setObjective(event.target.value)} />
        <button type="submit" className="primary" disabled={busy || !name.trim()}>{t('projects.create')}</button>
        <ErrorLine error={error} />
      </form> : null}
      <label className="choice"><input type="checkbox" checked={showArchived} onChange={(event) => setShowArchived(event.target.checked)} /> {t('projects.showArchived')}</label>
      {projects.data?.length === 0 ? <p className="muted">{t('projects.none')}</p> : null}
      {!projects.data ? <Loading /> : (
        <ul className="list">
          {projects.data.map((project) => (
            <li key={project.id}><Link href={`/projects/${project.id}`}>{project.name}</Link>{project.status === 'archived' ? <span className="muted"> · {t('projects.archived')}</span> : null}{project.objective ? <span className="muted"> · {project.objective}</span> : null}</li>
          ))}
        </ul>
      )}
    </section>
  )
}

export function ProjectPage({ id }: { id: string }) {
  const { t } = useI18n()
  const canEdit = useCanEdit()
  const detail = useResource<ProjectDetail>(`/v1/projects/${id}`)
  const members = useResource<ProjectMembership[]>(`/v1/projects/${id}/members`)
  const [editing, setEditing] = useState(false)
  const [name, setName] = useState('')
  const [objective, setObjective] = useState('')
  const [role, setRole] = useState<ProjectRole>('other')
  const { busy, error, run } = useAction()
  if (!detail.data) return detail.error ? <ErrorLine error={detail.error.message} /> : <Loading />
  const project = detail.data.project
  const update = (input: UpdateProjectInput) => run(async () => {
    await api.patch(`/v1/projects/${id}`, { ...input, expectedUpdatedAt: project.updatedAt })
    invalidate('/v1/projects')
    setEditing(false)
  })
  return (
    <section>
      <PageTitle title={project.name}>{project.name}</PageTitle>
      {project.objective ? <p>{project.objective}</p> : null}
      {project.status === 'archived' ? <p className="muted">{t('projects.archived')}</p> : null}
      <p className="row">
        {project.status === 'active' && canEdit ? <Link href={`/record?project=${encodeURIComponent(id)}`}>{t('projects.record')}</Link> : null}
        <Link href={`/projects/${id}/memory`}>{t('projects.memory')}</Link>
      </p>
      {canEdit ? <div className="row">
        <button type="button" onClick={() => { setName(project.name); setObjective(project.objective ?? ''); setEditing(true) }}>{t('work.edit')}</button>
        <button type="button" disabled={busy} onClick={() => void update({ status: project.status === 'active' ? 'archived' : 'active' })}>
          {t(project.status === 'active' ? 'projects.archive' : 'projects.unarchive')}
        </button>
      </div> : null}
      {editing ? (
        <form className="card" onSubmit={(event) => { event.preventDefault(); void update({ name: name.trim(), objective: objective.trim() || null }) }}>
          <label htmlFor="edit-name">{t('projects.name')}</label>
          <input id="edit-name" required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          <label htmlFor="edit-objective">{t('projects.objective')}</label>
          <input id="edit-objective" maxLength={2000} value={objective} onChange={(event) => setObjective(event.target.value)} />
          <div className="row"><button type="submit" className="primary" disabled={busy}>{t('common.save')}</button><button type="button" onClick={() => setEditing(false)}>{t('common.cancel')}</button></div>
        </form>
      ) : null}
      <ErrorLine error={error} />
      <h2>{t('projects.members')}</h2>
      <ul className="list">
        {(members.data ?? []).map((member) => (
          <li key={member.accountId}>{member.name || member.email} <span className="muted">· {[member.primaryRole, ...member.secondaryRoles].map((item) => t(`projects.role.${item}` as MessageKey)).join(', ')}</span></li>
        ))}
      </ul>
      <form className="row" onSubmit={(event) => {
        event.preventDefault()
        void run(async () => { await api.put(`/v1/projects/${id}/membership`, { primaryRole: role }); invalidate(`/v1/projects/${id}/members`) })
      }}>
        <label htmlFor="my-role">{t('projects.myRole')}</label>
        <select id="my-role" value={role} onChange={(event) => setRole(event.target.value as ProjectRole)}>
          {ROLES.map((item) => <option key={item} value={item}>{t(`projects.role.${item}` as MessageKey)}</option>)}
        </select>
        <button type="submit" disabled={busy}>{t('projects.join')}</button>
      </form>
      {canEdit && project.status === 'active' ? <AddProjectMember projectId={id} inProject={members.data ?? []} roles={ROLES} /> : null}
      <h2>{t('sessions.title')}</h2>
      <SessionList sessions={detail.data.sessions} empty={t('projects.noSessions')} />
    </section>
  )
}
