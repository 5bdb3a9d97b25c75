// Short titles from what was said: the clause without fillers, the addressee and the cue that
// made it an item ("Priya, can you take the streaming writer?" → "Take the streaming writer").
import type { CueSet } from './cues.ts'
import { withCommaSpaces } from './text.ts'

const MAX_TITLE = 90

export function makeTitle(clause: string, cues: CueSet, names: string[]): string {
  let text = clause.replace(/[’]/g, "'").trim()
  // "Once the page is live, Tom will send it" → "Send it once the page is live".
  const condition = /^((?:once|after|when|as soon as|before|if)\b[^,]{1,80}),\s*(.+)$/i.exec(text)
  if (condition && names.some((name) => condition[2]!.toLowerCase().startsWith(name.toLowerCase()))) {
    text = `${condition[2]!.replace(/[\s.!?]+$/u, '')} ${condition[1]!.charAt(0).toLowerCase()}${condition[1]!.slice(1)}`
  }
  for (let pass = 0; pass < 4; pass += 1) {
    const before = text
    text = stripPrefix(text, cues.leadingFiller)
    for (const name of names) text = stripName(text, name)
    for (const prefix of cues.titlePrefixes) text = stripPrefix(text, prefix)
    if (text === before) break
  }
  text = text.replace(/[\s,，。.!！?？;；:：]+$/u, '').replace(/^[\s,，:：;；-]+/u, '')
  if (!text) text = clause.trim().replace(/[\s。.!！?？]+$/u, '')
  // Clauses are rejoined without the space after an English comma ("by the 9th,it's"); a reader gets it back.
  return truncate(capitalize(withCommaSpaces(text)), MAX_TITLE)
}

function stripPrefix(text: string, pattern: RegExp): string {
  const match = pattern.exec(text.toLowerCase())
  if (!match || match.index !== 0 || match[0].length === 0) return text
  return text.slice(match[0].length).trimStart()
}

function stripName(text: string, name: string): string {
  const lower = text.toLowerCase()
  const alias = name.toLowerCase()
  if (!lower.startsWith(alias)) return text
  const rest = text.slice(name.length)
  if (/^'ll\s/.test(rest)) return rest.slice(4)
  // "Tom will send the email" → "Send the email": the name and the future it takes the work with.
  return /^[\s,，:：]/u.test(rest) || /^\p{Script=Han}/u.test(name) ? rest.replace(/^[\s,，:：]+/u, '').replace(/^(?:will|is going to|is gonna)\s+/i, '') : text
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`
}
