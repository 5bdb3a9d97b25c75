// Ask a question over everything the person may see (on a project's memory page: that project's): the answer sentence by sentence, each with
// the sources it cites, or plainly that nothing stored answers it (and why, when the question is in a
// language the workspace's meetings are not in: the server's notice).
import { useId, useState } from 'react'
import { cacheCleared, useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { SearchAnswer } from '../../lib/types.ts'
import { ErrorLine } from '../../lib/ui.tsx'
import { askQuestion } from './api.ts'
import { SourceLine } from './Sources.tsx'

// The last question asked in each scope ('' the workspace, else a project) and its answer: opening one of its sources
// and coming back (Back, or the memory link) shows them again instead of an empty box. Kept for this tab's life, and
// dropped with the cache when someone signs out.
const lastAsked = new Map<string, { query: string; answer?: SearchAnswer }>()
cacheCleared.on(() => lastAsked.clear())

/** `projectId` and `projectName`: the question is about that project only (its memory page). */
export function AskBox({ projectId, projectName }: { projectId?: string; projectName?: string } = {}) {
  const { t } = useI18n()
  const id = useId()
  const scope = projectId ?? ''
  const [query, setQueryState] = useState(() => lastAsked.get(scope)?.query ?? '')
  const [answer, setAnswerState] = useState<SearchAnswer | undefined>(() => lastAsked.get(scope)?.answer)
  const setQuery = (value: string) => { setQueryState(value); lastAsked.set(scope, { ...lastAsked.get(scope), query: value }) }
  const setAnswer = (value: SearchAnswer) => { setAnswerState(value); lastAsked.set(scope, { query: lastAsked.get(scope)?.query ?? '', answer: value }) }
  const { busy, error, run } = useAction()
  return (
    <section className="card ask" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('ask.title')}</h2>
      {projectId ? <p className="muted" data-testid="ask-scope">{projectName ? t('ask.inProject', { project: projectName }) : t('ask.inThisProject')}</p> : null}
      <form className="row" onSubmit={(event) => {
        event.preventDefault()
        const question = query.trim()
        if (question) void run(async () => setAnswer(await askQuestion(question, projectId)))
      }}>
        <label htmlFor={`${id}-query`}>{t('ask.query')}</label>
        <input id={`${id}-query`} type="search" maxLength={500} required value={query} onChange={(event) => setQuery(event.target.value)} />
        <button type="submit" className="primary" disabled={busy || !query.trim()}>{t('ask.go')}</button>
      </form>
      <ErrorLine error={error} />
      <div aria-live="polite" data-testid="answer">
        {busy ? <p className="muted">{t('common.loading')}</p> : null}
        {answer && !busy ? (answer.status === 'no-evidence' || answer.sentences.length === 0
          ? <p data-testid="no-evidence">{answer.notice ?? t(projectId ? 'ask.noEvidenceInProject' : 'ask.noEvidence')}</p>
          : (
            <ol className="answer">
              {answer.sentences.map((sentence, index) => (
                <li key={index} data-testid="answer-sentence">
                  <p>{sentence.text}</p>
                  <ul className="list sources-inline" aria-label={t('ask.cited')}>
                    {sentence.sourceIndexes.map((sourceIndex) => answer.sources[sourceIndex]
                      ? <SourceLine key={sourceIndex} source={answer.sources[sourceIndex]} number={sourceIndex + 1} />
                      : null)}
                  </ul>
                </li>
              ))}
            </ol>
          )) : null}
      </div>
    </section>
  )
}
