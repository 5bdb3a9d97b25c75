// Text search helpers shared by the modules that search (no business rules): terms, the FTS5
// expression, LIKE patterns and HTML snippets.
// Search terms and snippets. Terms are the query's whitespace-separated words (a Chinese query is
// one run of characters); matching is case-insensitive substring matching on both databases.
export type Terms = { all: string[]; long: string[]; short: string[] }

/** FTS5's trigram tokenizer indexes three-character pieces: shorter terms need a LIKE scan. */
export const TRIGRAM = 3

export function parseTerms(query: string): Terms {
  const all = [...new Set(query.normalize('NFKC').toLowerCase().split(/\s+/).map((term) => term.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter(Boolean))].slice(0, 8)
  return { all, long: all.filter((term) => [...term].length >= TRIGRAM), short: all.filter((term) => [...term].length < TRIGRAM) }
}

/** An FTS5 MATCH expression: every long term as a quoted string (trigram: substring), all required. */
export const ftsExpression = (terms: string[]) => terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' AND ')

export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

/**
 * A window of the text around the first match with every match wrapped in <mark>…</mark>; the rest
 * of the text is HTML-escaped, so the snippet is safe to render as HTML.
 */
export function snippet(text: string, terms: string[], width = 160): string {
  const lower = text.toLowerCase()
  const ranges: [number, number][] = []
  for (const term of terms) {
    for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + term.length)) ranges.push([at, at + term.length])
  }
  ranges.sort((a, b) => a[0] - b[0])
  const first = ranges[0]?.[0] ?? 0
  const start = Math.max(0, first - Math.floor(width / 3))
  const end = Math.min(text.length, start + width)
  let out = start > 0 ? '…' : ''
  let cursor = start
  for (const [from, to] of ranges) {
    if (from < cursor || to > end) continue
    out += `${escapeHtml(text.slice(cursor, from))}<mark>${escapeHtml(text.slice(from, to))}</mark>`
    cursor = to
  }
  out += escapeHtml(text.slice(cursor, end)) + (end < text.length ? '…' : '')
  return out
}
