// A list of sources: the quote, what kind of source it is (for a passage of a meeting: which meeting,
// who said it), and a link that opens it.
import { speakerName, useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { AnswerSource, MemorySource } from '../../lib/types.ts'
import { formatMs, Link } from '../../lib/ui.tsx'
import { sourceHref } from './api.ts'

export function SourceLine({ source, number }: { source: MemorySource | AnswerSource; number?: number }) {
  const { t } = useI18n()
  const target = sourceHref(source)
  // A work item the meeting's extraction proposed and nobody has accepted yet says so.
  const kind = t(`memory.source.${source.kind}` as MessageKey) + (source.kind === 'work-object' && (source as AnswerSource).status === 'proposed' ? t('common.inParentheses', { text: t('memory.source.proposed') }) : '')
  // An answer's passage says which meeting it is from and who said it (answers/source-context.ts).
  const { sessionTitle, speaker } = source as AnswerSource
  const said = [sessionTitle, speaker ? speakerName(speaker) : undefined].filter(Boolean).map((part) => ` · ${part}`).join('')
  const where = source.kind === 'segment' && source.startMs !== undefined ? ` ${formatMs(source.startMs)}` : source.kind === 'file' && source.path ? ` ${source.path}${source.line ? `:${source.line}` : ''}` : ''
  const label = `${number !== undefined ? `[${number}] ` : ''}${kind}${said}${where}${source.title ? ` · ${source.title}` : ''}`
  return (
    <li className="source">
      {target ? (target.external
        ? <a href={target.href} target="_blank" rel="noreferrer">{label}</a>
        : <Link href={target.href}>{label}</Link>)
        : <span>{label}</span>}
      {source.quote ? <q className="muted">{source.quote}</q> : null}
    </li>
  )
}

export function Sources({ sources }: { sources: (MemorySource | AnswerSource)[] }) {
  const { t } = useI18n()
  if (sources.length === 0) return null
  return (
    <details className="sources">
      <summary>{t('memory.sources', { count: sources.length })}</summary>
      <ul className="list">{sources.map((source, index) => <SourceLine key={`${source.kind}-${source.id}-${index}`} source={source} />)}</ul>
    </details>
  )
}
