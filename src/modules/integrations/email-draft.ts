// An email drafted from an action item about sending or telling someone something ("send the notes
// to the client", "email Dana the numbers", "let Sam know"): the recipients are the addresses
// written in the item and the workspace members it names after a cue word ("email Dana", "to Dana
// Li", "tell Sam"); none when it names nobody the workspace knows (the person fills them in before
// preparing). The subject is the item's title, the body its summary, due date and sources. Pure.
import type { WorkObject } from '../work/index.ts'

/** Words that make an action item a message to someone. */
const MESSAGE_CUE = /\b(?:e-?mail(?:s|ed|ing)?|mail|send(?:s|ing)?|forward(?:s|ing)?|tell(?:s|ing)?|notify|inform|let\s+\S+(?:\s+\S+)?\s+know|share\s.*\bwith|reply|write\s+to|remind)\b/i
/** A word just before a name that makes that person the recipient. */
const RECIPIENT_CUE = /\b(?:e-?mail|mail|tell|notify|inform|let|to|with|cc|remind|ping|forward)\s+$/i
const ADDRESS = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g

export type Addressee = { name: string | null; email: string }

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const textOf = (object: WorkObject) => [object.title, object.summary ?? ''].join('\n')

export function isMessageItem(object: WorkObject): boolean {
  return object.kind === 'action' && MESSAGE_CUE.test(textOf(object))
}

/** The addresses written in the item, then the members it names after a cue word (full name, else first name), once each. */
export function recipientsOf(object: WorkObject, members: Addressee[]): string[] {
  const text = textOf(object)
  const found = new Set((text.match(ADDRESS) ?? []).map((address) => address.toLowerCase()))
  for (const member of members) {
    const full = member.name?.trim()
    if (!full) continue
    const first = full.split(/\s+/)[0]!
    for (const name of [...new Set([full, first])]) {
      const named = new RegExp(`\\b${escape(name)}\\b`, 'g')
      const hit = [...text.matchAll(named)].some((match) => RECIPIENT_CUE.test(text.slice(0, match.index)))
      if (hit) { found.add(member.email.toLowerCase()); break }
    }
  }
  return [...found].slice(0, 20)
}

export function emailInput(object: WorkObject, members: Addressee[], citation: string) {
  const body = [object.summary ?? object.title, object.dueDate ? `Due: ${object.dueDate}` : undefined, citation].filter(Boolean).join('\n\n')
  return { to: recipientsOf(object, members), subject: object.title.slice(0, 200), text: body.slice(0, 20_000) }
}
