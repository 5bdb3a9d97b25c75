// Memory across the workspace: ask a question over everything, or open a project's memory.
import { useResource } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { Project } from '../../lib/types.ts'
import { ErrorLine, Link, Loading, PageTitle } from '../../lib/ui.tsx'
import { AskBox } from './AskBox.tsx'

export default function MemoryHome() {
  const { t } = useI18n()
  const projects = useResource<Project[]>('/v1/projects?status=active')
  return (
    <section>
      <PageTitle title={t('memory.home')}>{t('memory.home')}</PageTitle>
      <AskBox />
      <h2>{t('memory.byProject')}</h2>
      {!projects.data ? (projects.error ? <ErrorLine error={projects.error.message} /> : <Loading />) : projects.data.length === 0 ? <p className="muted" data-testid="memory-no-projects">{t('memory.noProjects')} <Link href="/projects">{t('memory.createProject')}</Link></p> : (
        <ul className="list">
          {projects.data.map((project) => <li key={project.id}><Link href={`/projects/${project.id}/memory`}>{t('memory.title', { project: project.name })}</Link></li>)}
        </ul>
      )}
    </section>
  )
}
