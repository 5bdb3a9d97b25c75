// One member of the workspace on the members page. A manager changes a colleague's access and content
// permission and removes them (PATCH / DELETE /v1/workspace/members/{accountId}): the routes existed,
// and the billing page told managers to "remove members" that no screen could remove. An admin
// cannot touch an owner, and only an owner makes one (the server's rule, workspace/members/policy.ts);
// the caller's own row has no controls, so nobody demotes themselves by a slip.
import { api, invalidate, useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { WorkspaceMember } from '../../lib/types.ts'
import { ErrorLine } from '../../lib/ui.tsx'

type Role = WorkspaceMember['accessRole']

export function MemberRow({ member, callerRole, isSelf }: { member: WorkspaceMember; callerRole?: Role; isSelf: boolean }) {
  const { t } = useI18n()
  const { busy, error, run } = useAction()
  const who = member.name || member.email
  const canTouch = !isSelf && (callerRole === 'owner' || (callerRole === 'admin' && member.accessRole !== 'owner'))
  const roles: Role[] = callerRole === 'owner' ? ['owner', 'admin', 'member'] : ['admin', 'member']
  const change = (body: { accessRole?: Role; contentPermission?: WorkspaceMember['contentPermission'] }) => void run(async () => {
    await api.patch(`/v1/workspace/members/${encodeURIComponent(member.accountId)}`, body)
    invalidate('/v1/workspace/members', '/v1/billing')
  })
  const remove = () => {
    if (!window.confirm(t('members.removeConfirm', { name: who }))) return
    void run(async () => {
      await api.delete(`/v1/workspace/members/${encodeURIComponent(member.accountId)}`)
      invalidate('/v1/workspace/members', '/v1/billing')
    })
  }
  return (
    <li data-testid="member" data-account={member.accountId}>
      {who} <span className="muted">{member.name ? ` · ${member.email}` : ''} · {t(`members.role.${member.accessRole}`)} · {t(`members.permission.${member.contentPermission}`)}</span>
      {canTouch ? (
        <div className="row">
          <label htmlFor={`role-${member.accountId}`}>{t('members.accessRole')}<span className="visually-hidden"> {who}</span></label>
          <select id={`role-${member.accountId}`} value={member.accessRole} disabled={busy} onChange={(event) => change({ accessRole: event.target.value as Role })}>
            {roles.map((role) => <option key={role} value={role}>{t(`members.role.${role}`)}</option>)}
          </select>
          <label htmlFor={`permission-${member.accountId}`}>{t('members.permission')}<span className="visually-hidden"> {who}</span></label>
          <select id={`permission-${member.accountId}`} value={member.contentPermission} disabled={busy}
            onChange={(event) => change({ contentPermission: event.target.value as WorkspaceMember['contentPermission'] })}>
            <option value="edit">{t('members.permission.edit')}</option>
            <option value="view">{t('members.permission.view')}</option>
          </select>
          <button type="button" className="danger" disabled={busy} onClick={remove}>{t('members.remove')}<span className="visually-hidden"> {who}</span></button>
        </div>
      ) : null}
      <ErrorLine error={error} />
    </li>
  )
}
