// A project's memory: what it knows, grouped by kind, each entry with its status, when it held and
// the sources it rests on; the open conflicts with both sides and a form to settle each; an ask box.
import { useEffect, useState } from 'react'
import { ApiError, useAction, useResource } from '../../lib/api.ts'
import { translate, useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { MemoryConflict, MemoryEntry, ProjectDetail, ResolveConflictInput } from '../../lib/types.ts'
import { ErrorLine, Link, Loading, PageTitle } from '../../lib/ui.tsx'
import { useLocation } from '../../app/router.ts'
import { resolveConflict, useProjectMemory } from './api.ts'
import { AskBox } from './AskBox.tsx'
import { Sources } from './Sources.tsx'

const KINDS: MemoryEntry['kind'][] = ['decision', 'rule', 'outcome', 'metric', 'reference', 'external', 'code']

export default function MemoryPage({ projectId }: { projectId: string }) {
  const { t, dateTime } = useI18n()
  const { query } = useLocation()
  const project = useResource<ProjectDetail>(`/v1/projects/${projectId}`)
  const memory = useProjectMemory(projectId)
  const focusEntry = query.get('entry')
  const [notice, setNotice] = useState<string>()
  useEffect(() => {
    if (focusEntry && memory.data) document.getElementById(`entry-${focusEntry}`)?.scrollIntoView({ block: 'center' })
  }, [focusEntry, memory.data])
  const name = project.data?.project.name ?? ''
  const title = name ? t('memory.title', { project: name }) : t('memory.home')
  if (!memory.data) {
    return (
      <section>
        <PageTitle title={title}>{title}</PageTitle>
        {memory.error ? <ErrorLine error={memory.error.message} /> : <Loading />}
      </section>
    )
  }
  const data = memory.data
  const open = data.conflicts.filter((conflict) => conflict.status === 'open')
  const settled = data.conflicts.filter((conflict) => conflict.status !== 'open')
  return (
    <section className="memory-page">
      <PageTitle title={title}>{title}</PageTitle>
      <p className="row">
        <Link href={`/projects/${projectId}`}>{t('memory.backToProject', { project: name })}</Link>
        <span className="muted">{data.lastRefreshedAt ? t('memory.refreshed', { date: dateTime(data.lastRefreshedAt) }) : t('memory.neverRefreshed')}</span>
      </p>
      <ErrorLine error={notice} />
      <section aria-labelledby="conflicts-title">
        <h2 id="conflicts-title">{t('memory.conflicts', { count: open.length })}</h2>
        {open.length === 0 ? <p className="muted">{t('memory.noConflicts')}</p> : open.map((conflict) => (
          <ConflictCard key={conflict.id} projectId={projectId} conflict={conflict} onSettledElsewhere={() => { setNotice(translate('memory.alreadySettled')); memory.reload() }} />
        ))}
      </section>
      <section aria-labelledby="entries-title">
        <h2 id="entries-title">{t('memory.entries')}</h2>
        {data.entries.length === 0 ? <p className="muted">{t('memory.empty')}</p> : KINDS.map((kind) => {
          const entries = data.entries.filter((entry) => entry.kind === kind)
          if (entries.length === 0) return null
          return (
            <section key={kind} aria-labelledby={`kind-${kind}`}>
              <h3 id={`kind-${kind}`}>{t(`memory.kind.${kind}` as MessageKey)}</h3>
              <ul className="list">
                {entries.map((entry) => <EntryRow key={entry.id} entry={entry} highlighted={entry.id === focusEntry} />)}
              </ul>
            </section>
          )
        })}
      </section>
      {settled.length > 0 ? (
        <section aria-labelledby="settled-title">
          <h2 id="settled-title">{t('memory.settled')}</h2>
          <ul className="list">
            {settled.map((conflict) => (
              <li key={conflict.id} data-testid="settled-conflict">
                <strong>{sidesOf(conflict)}</strong> · {t(`memory.resolution.${conflict.resolution ?? 'dismiss'}` as MessageKey)}
                {conflict.resolvedAt ? <span className="muted"> · {dateTime(conflict.resolvedAt)}</span> : null}
                {conflict.note ? <p className="muted">{conflict.note}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <AskBox projectId={projectId} projectName={name} />
    </section>
  )
}

function EntryRow({ entry, highlighted }: { entry: MemoryEntry; highlighted: boolean }) {
  const { t, dateTime } = useI18n()
  return (
    <li id={`entry-${entry.id}`} data-testid="memory-entry" data-status={entry.status} className={highlighted ? 'highlighted' : undefined}>
      <p>
        <span className={`status status-${entry.status}`}>{t(`memory.status.${entry.status}` as MessageKey)}</span>{' '}
        {entry.statement}
      </p>
      <p className="muted">
        {entry.validTo ? t('memory.validRange', { from: dateTime(entry.validFrom), to: dateTime(entry.validTo) }) : t('memory.validFrom', { from: dateTime(entry.validFrom) })}
      </p>
      {entry.note ? <p className="muted">{t('memory.note', { note: entry.note })}</p> : null}
      <Sources sources={entry.sources} />
    </li>
  )
}

function ConflictCard({ projectId, conflict, onSettledElsewhere }: { projectId: string; conflict: MemoryConflict; onSettledElsewhere: () => void }) {
  const { t, dateTime } = useI18n()
  const [choice, setChoice] = useState<string>('')
  const [note, setNote] = useState('')
  const { busy, error, run } = useAction()
  const headingId = `conflict-${conflict.id}`
  const submit = async () => {
    const input: ResolveConflictInput = choice === 'keep-both' ? { resolution: 'keep-both', note: note.trim() }
      : choice === 'dismiss' ? { resolution: 'dismiss' } : { resolution: 'keep-one', keepEntryId: choice }
    try {
      await resolveConflict(projectId, conflict.id, input)
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) {
        onSettledElsewhere()
        return
      }
      throw caught
    }
  }
  return (
    <article className="card conflict" aria-labelledby={headingId} data-testid="conflict">
      <h3 id={headingId}>{t('memory.conflictAbout', { subject: sidesOf(conflict) })}</h3>
      <form onSubmit={(event) => { event.preventDefault(); void run(submit) }}>
        <fieldset>
          <legend>{t('memory.resolveLegend')}</legend>
          {conflict.sides.map((side, index) => (
            <div key={side.entryId} className="side">
              <label className="choice">
                <input type="radio" name={`resolution-${conflict.id}`} value={side.entryId} checked={choice === side.entryId} onChange={() => setChoice(side.entryId)} />
                {' '}{t('memory.keepThis', { n: index + 1 })}{t('common.colon')}<strong>{side.statement}</strong>
              </label>
              <p className="muted">{t('memory.validFrom', { from: dateTime(side.validFrom) })}</p>
              <Sources sources={side.sources} />
            </div>
          ))}
          <label className="choice">
            <input type="radio" name={`resolution-${conflict.id}`} value="keep-both" checked={choice === 'keep-both'} onChange={() => setChoice('keep-both')} />
            {' '}{t('memory.keepBoth')}
          </label>
          {choice === 'keep-both' ? (
            <>
              <label htmlFor={`note-${conflict.id}`}>{t('memory.keepBothNote')}</label>
              <textarea id={`note-${conflict.id}`} required maxLength={2000} value={note} onChange={(event) => setNote(event.target.value)} />
            </>
          ) : null}
          <label className="choice">
            <input type="radio" name={`resolution-${conflict.id}`} value="dismiss" checked={choice === 'dismiss'} onChange={() => setChoice('dismiss')} />
            {' '}{t('memory.dismiss')}
          </label>
        </fieldset>
        <button type="submit" className="primary" disabled={busy || !choice || (choice === 'keep-both' && !note.trim())}>{t('memory.resolve')}</button>
        <ErrorLine error={error} />
      </form>
    </article>
  )
}

/** A conflict as people said it: its sides' statements (its `subject` is a matching key of stemmed words, "drop legaci export featur"). */
function sidesOf(conflict: { subject: string; sides: { statement: string }[] }): string {
  return conflict.sides.length > 0 ? conflict.sides.map((side) => `“${side.statement}”`).join(' / ') : conflict.subject
}
