// The content of a work object and its revision hash: SHA-256 (hex) of the RFC 8785 canonical JSON
// of {title, summary} — strings NFC-normalised and trimmed, an empty or absent summary left out —
// so the same content always hashes the same, whoever wrote it and in whatever key order.
import canonicalize from 'canonicalize'
import { requiredText } from '../../platform/http/validators.ts'
import { sha256Hex } from '../../platform/ids.ts'

export type WorkContent = { title: string; summary: string | null }

/** Normalised content: trimmed NFC strings; a blank title is refused (400), a blank summary is none. */
export function normalizeContent(input: { title: string; summary?: string | null }): WorkContent {
  const title = requiredText('title', input.title.normalize('NFC'))
  const summary = input.summary?.normalize('NFC').trim()
  return { title, summary: summary ? summary : null }
}

export function contentHash(content: WorkContent): string {
  const canonical = canonicalize({ title: content.title, ...(content.summary === null ? {} : { summary: content.summary }) })
  return sha256Hex(canonical!)
}
