// A project's integrations: its connections (GET /v1/integrations/connections, no secrets) with
// revoke behind a confirmation, connecting a tool with a credential or (where the server has an
// OAuth app for it, index.html's config says which) through OAuth, and
// (managers) the project's access.
import { useEffect, useMemo, useState } from 'react'
import { navigate, useLocation } from '../../app/router.ts'
import { useAction } from '../../lib/api.ts'
import { clientConfig } from '../../lib/config.ts'
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { IntegrationConnection } from '../../lib/types.ts'
import { ErrorLine, Link, Loading, PageTitle } from '../../lib/ui.tsx'
import { MailOutboxNote } from './MailNote.tsx'
import { useCanEdit, useCurrentAccount } from '../auth/api.ts'
import { actionName, CATALOG, connectionName, connectionTarget, integrations, serviceName, useConnections, useProjects } from './api.ts'

type Listed = Pick<IntegrationConnection, 'id' | 'service' | 'actionIds' | 'settings' | 'connectionAlias'>

export function IntegrationsPage() {
  const { t } = useI18n()
  const { query } = useLocation()
  const projects = useProjects()
  const current = useCurrentAccount()
  const isManager = ['owner', 'admin'].includes(current.data?.membership?.accessRole ?? '')
  const canEdit = useCanEdit()
  const projectId = query.get('project') ?? projects.data?.[0]?.id ?? ''
  const connections = useConnections(projectId)
  const [message, setMessage] = useState<string>()
  const listed = connections.data ?? []

  return (
    <section className="integrations">
      <PageTitle title={t('integrations.title')}>{t('integrations.title')}</PageTitle>
      <p>{t('integrations.intro')}</p>
      {projects.error ? <ErrorLine error={projects.error.message} /> : null}
      {!projects.data && !projects.error ? <Loading /> : null}
      {projects.data && projects.data.length === 0 ? <p className="muted" data-testid="integrations-no-projects">{t('integrations.noProjects')} <Link href="/projects">{t('memory.createProject')}</Link></p> : null}
      {projects.data && projects.data.length > 0 ? (
        <>
          <label htmlFor="integrations-project">{t('integrations.project')}</label>
          <select id="integrations-project" value={projectId} onChange={(event) => navigate(`/integrations?project=${encodeURIComponent(event.target.value)}`, { replace: true })}>
            {projects.data.map((project) => <option key={project.id} value={project.id}>{project.name}</option>)}
          </select>
          <h2>{t('integrations.connections')}</h2>
          {connections.error ? <ErrorLine error={connections.error.message} /> : null}
          {!connections.data && !connections.error ? <Loading /> : null}
          {message ? <p role="status" data-testid="connection-revoked">{message}</p> : null}
          {connections.data && listed.length === 0 ? <p className="muted">{t('integrations.noConnections')}</p> : null}
          {listed.length > 0 ? (
            <ul className="cards" data-testid="connections">
              {listed.map((connection) => <ConnectionCard key={connection.id} connection={connection} onRevoked={setMessage} />)}
            </ul>
          ) : null}
          {canEdit
            ? <ConnectForm projectId={projectId} onCreated={() => setMessage(undefined)} />
            : <p className="muted" data-testid="view-only">{t('common.viewOnly')}</p>}
          {isManager ? <AccessForm key={`${projectId}:${listed.map((connection) => connection.id).join(',')}`} projectId={projectId} connections={listed} /> : null}
        </>
      ) : null}
    </section>
  )
}

function ConnectionCard({ connection, onRevoked }: { connection: IntegrationConnection; onRevoked: (message: string) => void }) {
  const { t, dateTime } = useI18n()
  const [confirming, setConfirming] = useState(false)
  const { busy, error, run } = useAction()
  const titleId = `connection-${connection.id}`
  return (
    <li className="card" data-connection-id={connection.id}>
      <strong id={titleId}>{serviceName(connection.service)}{connectionTarget(connection) ? ` · ${connectionTarget(connection)}` : ''} <span className="muted">{connection.connectionAlias}</span></strong>
      {' '}<span className={`badge ${connection.status}`}>{t(`integrations.status.${connection.status}` as MessageKey)}</span>
      <p className="muted">{connection.actionIds.map(actionName).join(', ')}</p>
      <p className="muted">
        {t(`integrations.auth.${connection.authType}` as MessageKey)}
        {connection.authType === 'no_auth' ? null : <>{' · '}{t(connection.hasCredential ? 'integrations.credentialStored' : 'integrations.noCredential')}</>}
        {' · '}{t('integrations.connectedAt', { date: dateTime(connection.createdAt) })}
      </p>
      {connection.lastError ? <p className="muted">{connection.lastError}</p> : null}
      {!confirming ? (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>{t('integrations.revoke')}</button>
      ) : (
        <div className="row" role="group" aria-label={t('integrations.revokeConfirmLabel', { alias: connectionName(connection) })}>
          <p>{t('integrations.revokeConfirm', { alias: connectionName(connection) })}</p>
          <button type="button" className="danger" disabled={busy} onClick={() => void run(async () => {
            const revoked = await integrations.revoke(connection)
            setConfirming(false)
            onRevoked(t('integrations.revoked', { alias: connectionName(revoked) }))
          })}>{t('integrations.revokeYes')}</button>
          <button type="button" onClick={() => setConfirming(false)}>{t('common.cancel')}</button>
        </div>
      )}
      <ErrorLine error={error} />
    </li>
  )
}

/** A webhook signing secret as Standard Webhooks writes it: `whsec_` and the base64 of its bytes. */
const SIGNING_SECRET = /^whsec_[A-Za-z0-9+\/=]{24,}$/
const newSigningSecret = () => `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`

function ConnectForm({ projectId, onCreated }: { projectId: string; onCreated: (connection: IntegrationConnection) => void }) {
  const { t } = useI18n()
  const [service, setService] = useState(CATALOG[0]!.service)
  const found = CATALOG.find((item) => item.service === service) ?? CATALOG[0]!
  // OAuth only where the server has an app for the tool; otherwise its credential form.
  const entry = useMemo(() => ({ ...found, authTypes: found.authTypes.filter((type) => type !== 'oauth' || clientConfig().integrationOAuth.includes(found.service)) }), [found])
  const [authType, setAuthType] = useState(entry.authTypes[0]!)
  const [values, setValues] = useState<Record<string, string>>({})
  const [done, setDone] = useState<string>()
  const { busy, error, run, setError } = useAction()
  // Another tool: its own form, without the last tool's error or confirmation.
  useEffect(() => { setAuthType(entry.authTypes[0]!); setValues({}); setError(undefined); setDone(undefined) }, [entry, setError])
  const [generated, setGenerated] = useState(false)
  const pick = (fields: typeof entry.credential) => Object.fromEntries(fields.filter((field) => values[field.name]).map((field) => [field.name, values[field.name]!.trim()]))

  const submit = () => void run(async () => {
    setDone(undefined)
    if (authType === 'oauth') {
      const started = await integrations.startOAuth({ projectId, service, actionIds: entry.actionIds, settings: pick(entry.settings) })
      window.location.assign(started.authorizationURL)
      return
    }
    const connection = await integrations.connectWithCredential({
      projectId, service, authType, actionIds: entry.actionIds,
      credential: authType === 'no_auth' ? {} : pick(entry.credential), settings: pick(entry.settings),
    })
    onCreated(connection)
    setValues({})
    // A new connection with a lastError is one whose key the tool did not confirm (it did not answer): said so.
    setDone(t(connection.lastError ? 'integrations.connectedUnchecked' : 'integrations.connected', { service: serviceName(connection.service) }))
  })

  return (
    <form className="panel" onSubmit={(event) => { event.preventDefault(); submit() }} aria-labelledby="connect-title">
      <h2 id="connect-title">{t('integrations.connect')}</h2>
      <label htmlFor="connect-service">{t('integrations.service')}</label>
      <select id="connect-service" value={service} onChange={(event) => setService(event.target.value)}>
        {CATALOG.map((item) => <option key={item.service} value={item.service}>{serviceName(item.service)}</option>)}
      </select>
      <label htmlFor="connect-auth">{t('integrations.authType')}</label>
      <select id="connect-auth" value={authType} onChange={(event) => setAuthType(event.target.value as typeof authType)}>
        {entry.authTypes.map((item) => <option key={item} value={item}>{t(`integrations.auth.${item}` as MessageKey)}</option>)}
      </select>
      {authType === 'oauth' ? <p className="muted">{t('integrations.oauthNote')}</p> : null}
      {[...(authType === 'oauth' || authType === 'no_auth' ? [] : entry.credential), ...entry.settings].map((field) => {
        // Longer than the connector takes (what is sent is trimmed): said here, in the reader's language, and the
        // browser refuses to submit; the HTML maxlength attribute would instead cut a pasted token short, silently.
        const tooLong = field.maxLength !== undefined && (values[field.name] ?? '').trim().length > field.maxLength
        const tooLongMessage = tooLong ? t('integrations.tooLong', { max: field.maxLength! }) : ''
        return (
        <div key={field.name}>
          <label htmlFor={`connect-${field.name}`}>{t(`integrations.${field.label}` as MessageKey)}{field.optional ? ` ${t('integrations.optional')}` : ''}</label>
          <input id={`connect-${field.name}`} type={field.secret && !(field.name === 'signingSecret' && generated) ? 'password' : field.type ?? 'text'} autoComplete="off" required={!field.optional}
            {...(field.name === 'signingSecret' ? { pattern: SIGNING_SECRET.source, 'aria-describedby': 'signing-secret-hint' } : {})}
            {...(field.pattern ? { pattern: field.pattern } : {})}
            {...(field.hint ? { 'aria-describedby': `connect-${field.name}-hint` } : {})}
            ref={(input) => { input?.setCustomValidity(tooLongMessage) }} aria-invalid={tooLong || undefined}
            value={values[field.name] ?? ''} onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))} />
          {tooLong ? <p className="error" role="alert" data-testid={`connect-${field.name}-too-long`}>{tooLongMessage}</p> : null}
          {field.hint ? <p className="muted" id={`connect-${field.name}-hint`}>{t(`integrations.${field.hint}` as MessageKey)}</p> : null}
          {field.name === 'signingSecret' ? (
            <>
              <p className="muted" id="signing-secret-hint">{t('integrations.signingSecretHint')}</p>
              <button type="button" onClick={() => { setValues((current) => ({ ...current, signingSecret: newSigningSecret() })); setGenerated(true) }}>{t('integrations.generateSecret')}</button>
            </>
          ) : null}
        </div>
        )
      })}
      <p className="muted">{t('integrations.actions', { actions: entry.actionIds.map(actionName).join(', ') })}</p>
      {service === 'email' ? <MailOutboxNote /> : null}
      <button type="submit" className="primary" disabled={busy || !projectId}>{authType === 'oauth' ? t('integrations.startOAuth') : t('integrations.create')}</button>
      <ErrorLine error={error} />
      {done ? <p role="status" data-testid="connection-created">{done}</p> : null}
    </form>
  )
}

function AccessForm({ projectId, connections }: { projectId: string; connections: Listed[] }) {
  const { t } = useI18n()
  const actions = [...new Set(connections.flatMap((connection) => connection.actionIds))]
  const [connectionIds, setConnectionIds] = useState<string[]>(() => connections.map((connection) => connection.id))
  const [actionIds, setActionIds] = useState<string[]>(actions)
  const [saved, setSaved] = useState<string>()
  const { busy, error, run } = useAction()
  const toggle = (list: string[], value: string, on: boolean) => (on ? [...new Set([...list, value])] : list.filter((item) => item !== value))
  return (
    <form className="panel" aria-labelledby="access-title" onSubmit={(event) => {
      event.preventDefault()
      void run(async () => {
        const access = await integrations.setAccess({ projectId, connectionIds, actionIds })
        setSaved(t('integrations.accessSaved', { connections: access.connectionIds.length, actions: access.actionIds.length }))
      })
    }}>
      <h2 id="access-title">{t('integrations.access')}</h2>
      <p className="muted">{t('integrations.accessIntro')}</p>
      <fieldset>
        <legend>{t('integrations.connections')}</legend>
        {connections.length === 0 ? <p className="muted">{t('integrations.noConnections')}</p> : null}
        {connections.map((connection) => (
          <label key={connection.id} className="check">
            <input type="checkbox" checked={connectionIds.includes(connection.id)} onChange={(event) => setConnectionIds((list) => toggle(list, connection.id, event.target.checked))} />
            {' '}{connectionName(connection)}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t('integrations.allowedActions')}</legend>
        {CATALOG.flatMap((entry) => entry.actionIds).map((actionId) => (
          <label key={actionId} className="check">
            <input type="checkbox" checked={actionIds.includes(actionId)} onChange={(event) => setActionIds((list) => toggle(list, actionId, event.target.checked))} />
            {' '}{actionName(actionId)}
          </label>
        ))}
      </fieldset>
      <p className="muted">{t('integrations.accessReplaces')}</p>
      <button type="submit" disabled={busy}>{t('integrations.saveAccess')}</button>
      <ErrorLine error={error} />
      {saved ? <p role="status">{saved}</p> : null}
    </form>
  )
}
