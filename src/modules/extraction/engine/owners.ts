// Who is who: speakers and participants by id, and the names people call each other by
// ("Priya", "Priya Shah", "王芳"), to find owners in the words.
import type { ExtractionInput, TranscriptSegmentInput } from './types.ts'
import { contentTokens } from './text.ts'

export type Person = { name?: string; speakerId?: string; accountId?: string }

type Alias = { alias: string; person: Person; latin: boolean; pattern: RegExp; assignment: RegExp; recapAssignment: RegExp; vocative: RegExp }

export type People = {
  bySpeakerId: Map<string, Person>
  aliases: Alias[]
  /** speaker ids a participant is linked to (the others are voices known as no one: "Speaker 3") */
  linkedSpeakerIds: Set<string>
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

export function buildPeople(input: ExtractionInput): People {
  const bySpeakerId = new Map<string, Person>()
  const named: Person[] = []
  for (const participant of input.participants ?? []) {
    const person: Person = { name: participant.name, ...(participant.speakerId ? { speakerId: participant.speakerId } : {}), ...(participant.accountId ? { accountId: participant.accountId } : {}) }
    if (participant.speakerId) bySpeakerId.set(participant.speakerId, person)
    named.push(person)
  }
  for (const segment of input.segments) {
    if (!segment.speakerId || bySpeakerId.has(segment.speakerId)) continue
    const person: Person = { speakerId: segment.speakerId, ...(segment.speakerLabel ? { name: segment.speakerLabel } : {}) }
    bySpeakerId.set(segment.speakerId, person)
    if (person.name) named.push(person)
  }
  const linkedSpeakerIds = new Set((input.participants ?? []).flatMap((participant) => (participant.speakerId ? [participant.speakerId] : [])))
  return { bySpeakerId, aliases: aliasesOf([...named, ...namesSaid(input.segments, named)]), linkedSpeakerIds }
}

// A capitalised word that takes work ("Tom will…", "Tom'll…", "Priya, can you…") is a person even
// when nobody listed them: transcripts with letter case (most engines) name people nobody invited.
const TAKES_WORK = /(?:^|[.!?;:]\s+|,\s+|\band\s+|\bthen\s+|\bso\s+)([A-Z][a-z]{2,15})(?:\s+(?:will|is going to|is gonna|can take|can own|takes|owns|handles)\b|'ll\b|,\s+(?:can|could|would)\s+you\b)/g
const NOT_NAMES = new Set([
  'the', 'this', 'that', 'these', 'those', 'then', 'there', 'they', 'she', 'who', 'what', 'which', 'when', 'where', 'why', 'how',
  'someone', 'somebody', 'everyone', 'everybody', 'anyone', 'anybody', 'nobody', 'one', 'each', 'both', 'all', 'okay', 'sure', 'yes',
  'yeah', 'maybe', 'also', 'next', 'finally', 'first', 'now', 'today', 'tomorrow', 'great', 'good', 'thanks', 'right', 'well', 'and',
  'but', 'so', 'our', 'your', 'their', 'his', 'her', 'its', 'team', 'nothing', 'something', 'whoever', 'otherwise', 'again',
])

function namesSaid(segments: TranscriptSegmentInput[], known: Person[]): Person[] {
  const seen = new Set(known.map((person) => person.name?.split(/\s+/)[0]?.toLowerCase()).filter(Boolean))
  const found: Person[] = []
  for (const segment of segments) {
    for (const match of segment.text.replace(/[’‘]/g, "'").matchAll(TAKES_WORK)) {
      const name = match[1]!
      // A recognizer's punctuation capitalizes every sentence's first word ("Here is going to…").
      const opensSentence = !/[,\w]\s+$/.test(segment.text.slice(0, match.index! + match[0].indexOf(name)))
      if (typeof segment.confidence === 'number' && opensSentence) continue
      if (NOT_NAMES.has(name.toLowerCase()) || contentTokens(name).length === 0 || seen.has(name.toLowerCase())) continue
      seen.add(name.toLowerCase())
      found.push({ name })
    }
  }
  return found
}

const COMMON_WORDS = new Set([
  'will', 'mark', 'bill', 'may', 'june', 'april', 'august', 'grant', 'rob', 'pat', 'sue', 'art', 'joy', 'hope', 'faith', 'max',
  'chase', 'summer', 'rose', 'ray', 'gene', 'frank', 'drew', 'jack', 'lane', 'miles', 'page', 'rich', 'sage', 'don', 'guy', 'kit',
  'long', 'major', 'penny', 'river', 'sky', 'sunny', 'win', 'young',
  'test', 'admin', 'user', 'team', 'support', 'sales', 'ops', 'dev', 'qa', 'bot',
])

export function aliasesOf(people: Person[]): Alias[] {
  const candidates: { alias: string; person: Person }[] = []
  for (const person of people) {
    const name = person.name?.trim()
    if (!name || /^(?:speaker|spk|unknown|说话人)\b/i.test(name)) continue
    const first = name.split(/\s+/)[0]!
    // A first name that is also a common word ("Will", "Mark") would find a person in every sentence.
    if (!COMMON_WORDS.has(name.toLowerCase())) candidates.push({ alias: name, person })
    if (/^[A-Za-z]/.test(name) && first !== name && first.length >= 2 && !COMMON_WORDS.has(first.toLowerCase())) candidates.push({ alias: first, person })
  }
  const counts = new Map<string, number>()
  for (const { alias } of candidates) counts.set(alias.toLowerCase(), (counts.get(alias.toLowerCase()) ?? 0) + 1)
  return candidates
    .filter(({ alias }) => counts.get(alias.toLowerCase()) === 1)
    .sort((a, b) => b.alias.length - a.alias.length)
    .map(({ alias, person }) => {
      const latin = /^[A-Za-z]/.test(alias)
      const name = escape(latin ? alias.toLowerCase() : alias)
      return {
        alias, person, latin,
        pattern: new RegExp(latin ? `\\b${name}\\b` : name, 'u'),
        assignment: new RegExp(latin ? `^${ENGLISH_CONDITION}(?:and\\s+|then\\s+)?${name}${ENGLISH_ASSIGNMENT}` : `(?:^|让|请|由)${name}${CHINESE_ASSIGNMENT}`, 'u'),
        recapAssignment: new RegExp(latin ? `^(?:and\\s+|then\\s+)?${name}${ENGLISH_RECAP_ASSIGNMENT}` : `(?:^|让|请|由)${name}`, 'u'),
        vocative: new RegExp(latin ? `(?:^|[,;]\\s*)(?:(?:and|so|then|okay|ok|right|great)[,.]?\\s+)?${name}(?:[,.]\\s*|\\s+)(?=[a-z])` : '(?!)', 'iu'),
      }
    })
}

export function speakerOf(people: People, segment: TranscriptSegmentInput): Person {
  if (segment.speakerId) return people.bySpeakerId.get(segment.speakerId) ?? { speakerId: segment.speakerId }
  return segment.speakerLabel ? { name: segment.speakerLabel } : {}
}

export function samePerson(a: Person | undefined, b: Person | undefined): boolean {
  if (!a || !b) return false
  if (a.speakerId && b.speakerId) return a.speakerId === b.speakerId
  return Boolean(a.name && b.name && a.name === b.name)
}

export function isKnown(person: Person | undefined): person is Person {
  return Boolean(person && (person.name || person.speakerId))
}

/** A person named where the text calls them: vocative ("Priya, can you", "刘洋，你") or subject. */
export function findAddressedPerson(people: People, text: string): Person | undefined {
  const lower = text.toLowerCase()
  for (const { alias, person, latin, pattern } of people.aliases) {
    const match = pattern.exec(latin ? lower : text)
    if (!match) continue
    const after = (latin ? lower : text).slice(match.index + alias.length)
    // Spoken without the comma: "Lucy could you start a doc".
    if (latin ? /^\s*(?:[,?.!]|$)|^\s+(?:can|could|would|will) you\b/.test(after) : /^(?:[，,？?]|你)/.test(after)) return person
  }
  return undefined
}

/** The person a clause addresses at its start or after a comma, comma or not ("Ila, update the doc", "ila update the doc", "the fermenters, Jodie, get two sanitised"), and the words after the name, as written. */
export function leadingAddressee(people: People, clause: string): { person: Person; rest: string } | undefined {
  for (const { person, latin, vocative } of people.aliases) {
    const match = latin ? vocative.exec(clause) : null
    if (match) return { person, rest: clause.slice(match.index + match[0].length) }
  }
  return undefined
}

/** "Once the page is live, Tom will…": a condition before the person who takes the work. */
const ENGLISH_CONDITION = String.raw`(?:(?:once|after|when|as soon as|before|if)\b[^,]{1,80},\s*)?`
const ENGLISH_ASSIGNMENT = String.raw`\s+(?:will|'ll|is going to|is gonna|can take|can own|to\s+\w|takes|owns|handles)\b`
const ENGLISH_RECAP_ASSIGNMENT = String.raw`\s+(?:also\s+)?(?:will|'ll|is going to|to\s+\w|\w+s|\w+es)\b`
const CHINESE_ASSIGNMENT = '(?:负责|来负责|来做|来跟|会|去|跟进|这周|本周|下周|明天|今天|后天|周[一二三四五六日]|月底|完成|提测|整理|准备|处理)'

/** A person the clause assigns the work to ("Bob will…", "王芳负责…", recap "Priya does…"). */
export function findAssignedPerson(people: People, clause: string, isRecap: boolean): Person | undefined {
  const lower = clause.toLowerCase()
  for (const { person, latin, assignment, recapAssignment } of people.aliases) {
    if ((isRecap ? recapAssignment : assignment).test(latin ? lower : clause)) return person
  }
  return undefined
}

/** Every alias found in a text, to leave names out of topic tokens. */
export function namesIn(people: People, text: string): string[] {
  const lower = text.toLowerCase()
  return people.aliases.filter(({ latin, pattern }) => pattern.test(latin ? lower : text)).map(({ alias }) => alias)
}
