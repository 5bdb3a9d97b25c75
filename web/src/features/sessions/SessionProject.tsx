// The project a session belongs to: its project's memory learns from it. Editors move it between
// projects (or out of any); others see a link to the project.
import { api, invalidate, useAction, useResource } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { Project, ProjectDetail, SessionSnapshot } from '../../lib/types.ts'
import { ErrorLine, Link } from '../../lib/ui.tsx'

export function SessionProject({ session, canEdit }: { session: SessionSnapshot; canEdit: boolean }) {
  const { t } = useI18n()
  const projects = useResource<Project[]>('/v1/projects?status=active')
  const { busy, error, run } = useAction()
  const current = session.projectId ?? ''
  const known = projects.data?.find((project) => project.id === current)
  // A project that is not active (archived) is not in the list: named from its own record, not by its id.
  const outside = useResource<ProjectDetail>(current && projects.data && !known ? `/v1/projects/${current}` : null).data?.project
  if (!canEdit) return known ? <p className="row"><Link href={`/projects/${known.id}`}>{known.name}</Link></p> : null
  const move = (projectId: string) => run(async () => {
    await api.patch(`/v1/sessions/${session.id}`, { projectId: projectId || null, expectedUpdatedAt: session.updatedAt })
    invalidate(`/v1/sessions/${session.id}`, '/v1/projects')
  })
  return (
    <div className="row">
      <label htmlFor="session-project">{t('session.project')}</label>
      <select id="session-project" value={current} disabled={busy || !projects.data} onChange={(event) => void move(event.target.value)}>
        <option value="">{t('record.noProject')}</option>
        {current && !known ? <option value={current}>{outside ? `${outside.name} (${t('projects.archived')})` : current}</option> : null}
        {(projects.data ?? []).map((project) => <option key={project.id} value={project.id}>{project.name}</option>)}
      </select>
      {known ? <Link href={`/projects/${known.id}/memory`}>{t('projects.memory')}</Link> : null}
      <ErrorLine error={error} />
    </div>
  )
}
