// Workspace members and invitations: a manager invites by email and gets the link to share (told
// whether it was mailed, with a Copy button); each
// member gives the name colleagues see; a manager changes or removes members (MemberRow.tsx).
import { useState } from 'react'
import { api, invalidate, useAction, useResource } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { CreateInvitationInput, InvitationResult, Project, WorkspaceInvitation } from '../../lib/types.ts'
import { CopyField, ErrorLine, Loading, PageTitle } from '../../lib/ui.tsx'
import { useCurrentAccount } from '../auth/api.ts'
import { YourName } from '../auth/YourName.tsx'
import { MemberRow } from './MemberRow.tsx'
import { useMembers } from '../work/api.ts'

export function MembersPage() {
  const { t, dateTime } = useI18n()
  const members = useMembers()
  const current = useCurrentAccount()
  const [email, setEmail] = useState('')
  const [permission, setPermission] = useState<'edit' | 'view'>('edit')
  const [accessRole, setAccessRole] = useState<'member' | 'admin'>('member')
  const [projectId, setProjectId] = useState('')
  const projects = useResource<Project[]>('/v1/projects?status=active')
  const [created, setCreated] = useState<InvitationResult>()
  const { busy, error, run } = useAction()
  const isManager = current.data?.membership?.accessRole === 'owner' || current.data?.membership?.accessRole === 'admin'
  const invite = () => run(async () => {
    const input: CreateInvitationInput = { email: email.trim(), contentPermission: permission, accessRole, ...(projectId ? { projectId } : {}) }
    setCreated(await api.post<InvitationResult>('/v1/workspace/invitations', input))
    setEmail('')
    invalidate('/v1/workspace/members')
  })
  return (
    <section>
      <PageTitle title={t('members.title')}>{t('members.title')}</PageTitle>
      <YourName />
      {isManager ? (
        <form className="card" onSubmit={(event) => { event.preventDefault(); void invite() }}>
          <h2>{t('members.invite')}</h2>
          <label htmlFor="invite-email">{t('members.email')}</label>
          <input id="invite-email" type="email" required maxLength={254} value={email} onChange={(event) => setEmail(event.target.value)} />
          <label htmlFor="invite-permission">{t('members.permission')}</label>
          <select id="invite-permission" value={permission} onChange={(event) => setPermission(event.target.value as 'edit' | 'view')}>
            <option value="edit">{t('members.permission.edit')}</option>
            <option value="view">{t('members.permission.view')}</option>
          </select>
          <label htmlFor="invite-role">{t('members.accessRole')}</label>
          <select id="invite-role" value={accessRole} aria-describedby="invite-role-hint" onChange={(event) => setAccessRole(event.target.value as 'member' | 'admin')}>
            <option value="member">{t('members.role.member')}</option>
            <option value="admin">{t('members.role.admin')}</option>
          </select>
          <p className="muted small" id="invite-role-hint">{t('members.accessRoleHint')}</p>
          {projects.data && projects.data.length > 0 ? (
            <>
              <label htmlFor="invite-project">{t('members.project')}</label>
              <select id="invite-project" value={projectId} onChange={(event) => setProjectId(event.target.value)}>
                <option value="">{t('members.noProject')}</option>
                {projects.data.map((project) => <option key={project.id} value={project.id}>{project.name}</option>)}
              </select>
            </>
          ) : null}
          <button type="submit" className="primary" disabled={busy}>{t('members.send')}</button>
          {created ? (
            <div role="status">
              <p data-testid="invite-delivery">{created.delivery === 'email' ? t('members.mailed') : t('members.notMailed', { email: created.invitation.email })}</p>
              <CopyField id="invite-url" label={t('members.link')} value={created.inviteURL} testId="invite-url" />
            </div>
          ) : null}
          <ErrorLine error={error} />
        </form>
      ) : null}
      {!members.data ? <Loading /> : (
        <>
          <ul className="list">
            {members.data.members.map((member) => (
              <MemberRow key={member.accountId} member={member} callerRole={isManager ? current.data?.membership?.accessRole : undefined}
                isSelf={member.accountId === current.data?.account.id} />
            ))}
          </ul>
          {members.data.invitations.length > 0 ? (
            <>
              <h2>{t('members.pending')}</h2>
              <ul className="list">
                {members.data.invitations.map((invitation) => <PendingInvitation key={invitation.id} invitation={invitation} canManage={isManager} />)}
              </ul>
            </>
          ) : null}
        </>
      )}
    </section>
  )
}

/**
 * A pending (or expired) invitation: when it expires and, for managers, a new link (resend: the old
 * link stops working, the expiry starts over) or withdrawing it. The link is shown only once, so a
 * lost one is replaced here; inviting the address again is refused while this one is pending.
 */
function PendingInvitation({ invitation, canManage }: { invitation: WorkspaceInvitation; canManage: boolean }) {
  const { t, dateTime } = useI18n()
  const [renewed, setRenewed] = useState<InvitationResult>()
  const { busy, error, run } = useAction()
  const expired = invitation.status === 'expired' || Date.parse(invitation.expiresAt) < Date.now()
  const linkId = `invite-url-${invitation.id}`
  return (
    <li data-testid="pending-invitation">
      {invitation.email}{' '}
      <span className="muted">
        · {t(`members.invitation.${expired ? 'expired' : invitation.status}`)} · {t(expired ? 'members.expired' : 'members.expires', { date: dateTime(renewed?.invitation.expiresAt ?? invitation.expiresAt) })}
      </span>
      {canManage ? (
        <div className="row">
          <button type="button" disabled={busy} onClick={() => void run(async () => {
            setRenewed(await api.post<InvitationResult>(`/v1/workspace/invitations/${encodeURIComponent(invitation.id)}/resend`))
          })}>
            {t('members.newLink')}<span className="visually-hidden"> {invitation.email}</span>
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => void run(async () => {
            await api.delete(`/v1/workspace/invitations/${encodeURIComponent(invitation.id)}`)
            invalidate('/v1/workspace/members')
          })}>
            {t('members.withdraw')}<span className="visually-hidden"> {invitation.email}</span>
          </button>
        </div>
      ) : null}
      {renewed ? (
        <div role="status">
          <p>{renewed.delivery === 'email' ? t('members.mailed') : t('members.notMailed', { email: invitation.email })}</p>
          <CopyField id={linkId} label={t('members.newLinkShown', { email: invitation.email })} value={renewed.inviteURL} testId="renewed-invite-url" />
        </div>
      ) : null}
      <ErrorLine error={error} />
    </li>
  )
}
