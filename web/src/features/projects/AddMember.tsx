// On a project's page: add a workspace member who is not in the project yet, with their working
// role (PUT /v1/projects/{id}/members/{accountId}; they are notified). Someone not in the workspace
// yet is invited from the members page.
import { useState } from 'react'
import { api, invalidate, useAction } from '../../lib/api.ts'
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { ProjectMembership, ProjectRole } from '../../lib/types.ts'
import { ErrorLine, Link } from '../../lib/ui.tsx'
import { useMembers } from '../work/api.ts'

export function AddProjectMember({ projectId, inProject, roles }: { projectId: string; inProject: ProjectMembership[]; roles: readonly ProjectRole[] }) {
  const { t } = useI18n()
  const workspace = useMembers()
  const [accountId, setAccountId] = useState('')
  const [role, setRole] = useState<ProjectRole>('other')
  const [added, setAdded] = useState<string>()
  const { busy, error, run } = useAction()
  const candidates = (workspace.data?.members ?? []).filter((member) => !inProject.some((item) => item.accountId === member.accountId))
  if (!workspace.data) return null
  return (
    <form className="card" aria-labelledby="add-member-title" onSubmit={(event) => {
      event.preventDefault()
      const member = candidates.find((item) => item.accountId === accountId)
      if (!member) return
      void run(async () => {
        await api.put(`/v1/projects/${projectId}/members/${encodeURIComponent(member.accountId)}`, { primaryRole: role })
        invalidate(`/v1/projects/${projectId}/members`)
        setAdded(member.name || member.email)
        setAccountId('')
      })
    }}>
      <h3 id="add-member-title">{t('projects.addMember')}</h3>
      {candidates.length === 0 ? (
        <p className="muted" data-testid="add-member-none">{t('projects.everyoneIn')} <Link href="/members">{t('projects.inviteSomeone')}</Link></p>
      ) : (
        <div className="row">
          <label htmlFor="add-member">{t('projects.addWho')}</label>
          <select id="add-member" value={accountId} onChange={(event) => { setAccountId(event.target.value); setAdded(undefined) }}>
            <option value="">—</option>
            {candidates.map((member) => <option key={member.accountId} value={member.accountId}>{member.name ? `${member.name} (${member.email})` : member.email}</option>)}
          </select>
          <label htmlFor="add-member-role">{t('projects.addRole')}</label>
          <select id="add-member-role" value={role} onChange={(event) => setRole(event.target.value as ProjectRole)}>
            {roles.map((item) => <option key={item} value={item}>{t(`projects.role.${item}` as MessageKey)}</option>)}
          </select>
          <button type="submit" disabled={busy || !accountId}>{t('projects.add')}</button>
        </div>
      )}
      {added ? <p role="status">{t('projects.added', { name: added })}</p> : null}
      <ErrorLine error={error} />
    </form>
  )
}
