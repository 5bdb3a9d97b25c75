// Who an anonymous voice ("Speaker 2") is, from how the others address it: "Raj. Can you take
// that?" answered by the next voice, "Thanks, Leo." after a voice spoke, "Hi, it's Raj". Evidence is
// summed over the meeting; a voice is named only when it all points to one participant, no other
// voice has evidence for that participant, and nobody is known by that name already. A suggestion
// (the owner hint of its actions), never a change to the transcript. English only.
import { aliasesOf, type People } from './owners.ts'
import { splitSentences } from './text.ts'
import type { MeetingParticipant, TranscriptSegmentInput } from './types.ts'

export type SpeakerNames = Map<string, MeetingParticipant>

type Turn = { speakerId?: string; sentences: string[] }

const ANONYMOUS_LABEL = /^(?:speaker|spk|unknown|说话人)\b/i
const FILLER = String.raw`(?:(?:okay|ok|so|and|right|alright|great|then|well|um|uh)\s+)*`
/** Only fillers before a name said alone ("Okay. Felix."). */
const BARE = /^(?:(?:okay|ok|so|and|right|alright|great|then|well|um|uh) )*$/
/** Words after which a name at a sentence's end is the object, not the person spoken to ("pair with Yusuf."). */
const OBJECT_BEFORE = new Set([
  'with', 'to', 'for', 'from', 'and', 'or', 'nor', 'by', 'ask', 'asked', 'tell', 'told', 'ping', 'email', 'call', 'cc', 'about', 'of',
  'than', 'like', 'as', 'at', 'on', 'in', 'including', 'plus', 'via', 'let', 'help', 'a', 'an', 'the', 'is', 'was', 'me', 'recap', 'thank',
  'thanks', 'but', 'if', 'whether', 'not', 'except', 'without', 'meet', 'met', 'see', 'saw',
])
/** A question or request put to someone: a question mark, or the wording of one. */
const ASKS = /\?\s*$|^(?:(?:so|and|okay|ok|then|um|uh)\s+)*(?:can|could|would|will) you\b|\b(?:what do you think|any thoughts|your thoughts|you start|your turn|you're up|go ahead|over to you)\b/
const THANKS = /^(?:thanks|thank you|cheers)(?:\s+(?:so much|a lot))?$/
const GREETING = /^(?:hi|hey|hello|morning|good morning|afternoon|over to you|go ahead|your turn)$/
/** A recap lists names with their work ("Recap Marco sends…"): not said to anyone. */
const RECAP = /\b(?:recap|summary|summarize|to sum up)\b/

/** Lower case, no commas, no end mark but a question's ("?" stays: it asks). */
const normalize = (sentence: string) => {
  const text = sentence.replace(/[’‘]/g, "'").toLowerCase().replace(/[.!?…,;:]+\s*$/u, '').replace(/,/g, ' ').replace(/\s+/g, ' ').trim()
  return text && /[?？]\s*$/.test(sentence) ? `${text}?` : text
}
const unasked = (sentence: string) => sentence.replace(/\?$/, '')

/**
 * Anonymous speaker id → the participant it is taken to be. `people` says which voices already
 * have a name (a voice profile or a client's label): those are never renamed, and their names are
 * never given to another voice.
 */
export function inferSpeakerNames(segments: TranscriptSegmentInput[], participants: MeetingParticipant[] | undefined, people: People, turnOf: number[]): SpeakerNames {
  const names = new Map<string, MeetingParticipant>()
  const listed = (participants ?? []).filter((participant) => participant.name.trim())
  const isAnonymous = (speakerId: string | undefined): speakerId is string => {
    if (!speakerId || people.linkedSpeakerIds.has(speakerId)) return false
    const name = people.bySpeakerId.get(speakerId)?.name
    return !name || ANONYMOUS_LABEL.test(name)
  }
  const speakerIds = [...new Set(segments.flatMap((segment) => (segment.speakerId ? [segment.speakerId] : [])))]
  const anonymous = speakerIds.filter(isAnonymous)
  if (listed.length === 0 || anonymous.length === 0) return names
  // A participant someone already is (a confirmed voice or a named speaker) is no one else.
  const taken = new Set(speakerIds.filter((id) => !isAnonymous(id)).map((id) => people.bySpeakerId.get(id)?.name?.toLowerCase()))
  for (const participant of listed) if (participant.speakerId && people.linkedSpeakerIds.has(participant.speakerId)) taken.add(participant.name.toLowerCase())
  const candidates = listed.filter((participant) => !taken.has(participant.name.toLowerCase()) && !taken.has(participant.name.split(/\s+/)[0]!.toLowerCase()))
  const aliases = aliasesOf(candidates.map((participant) => ({ name: participant.name }))).filter((alias) => alias.latin)
  const participantOf = (name: string | undefined) => candidates.find((participant) => participant.name === name)

  const turns: Turn[] = []
  segments.forEach((segment, index) => {
    const sentences = splitSentences(segment.text).map(normalize).filter(Boolean)
    // One voice speaking on after a pause still holds the floor it was handed ("…retrospective, Walt." … "What did you find?").
    const sameVoice = segment.speakerId !== undefined && segment.speakerId === segments[index - 1]?.speakerId
    if (index > 0 && (turnOf[index] === turnOf[index - 1] || sameVoice)) turns[turns.length - 1]!.sentences.push(...sentences)
    else turns.push({ ...(segment.speakerId ? { speakerId: segment.speakerId } : {}), sentences })
  })

  const score = new Map<string, Map<MeetingParticipant, number>>()
  const add = (speakerId: string | undefined, participant: MeetingParticipant | undefined, points: number) => {
    if (!isAnonymous(speakerId) || !participant) return
    const row = score.get(speakerId) ?? new Map<MeetingParticipant, number>()
    row.set(participant, (row.get(participant) ?? 0) + points)
    score.set(speakerId, row)
  }
  /** The participant a whole sentence names after `prefix` ("Felix", "thanks Leo", "it's Raj here"). */
  const namedAfter = (sentence: string, prefix: RegExp, suffix = '') => {
    for (const { alias, person } of aliases) {
      const at = sentence.length - alias.length - suffix.length
      if (at < 0 || sentence.slice(at) !== `${alias.toLowerCase()}${suffix}` || (at > 0 && sentence[at - 1] !== ' ')) continue
      if (prefix.test(sentence.slice(0, at).trim())) return participantOf(person.name)
    }
    return undefined
  }

  turns.forEach((turn, index) => {
    const previous = turns[index - 1]
    const next = turns[index + 1]
    turn.sentences.forEach((said, at) => {
      const sentence = unasked(said)
      if (RECAP.test(sentence)) return
      // "Hi, it's Raj." / "Raj here.": the voice says who it is.
      if (at === 0) {
        const self = namedAfter(sentence, /^(?:(?:hi|hey|hello)\s+)?(?:it's|this is|i'm|i am)$/) ?? namedAfter(sentence, /^(?:(?:hi|hey|hello)\s+)?$/, ' here')
        if (self) add(turn.speakerId, self, 2)
      }
      // "Thanks, Leo." opening a turn: said to the voice that just spoke.
      const thanked = at <= 1 ? namedAfter(sentence, THANKS) : undefined
      if (thanked) {
        if (previous && previous.speakerId !== turn.speakerId) add(previous.speakerId, thanked, 1)
        add(turn.speakerId, thanked, -1)
        return
      }
      const addressed = vocative(sentence)
      if (!addressed) return
      add(turn.speakerId, addressed, -1)
      // Asked in this sentence or the two after it ("Alicia. You're on call. Can you walk us through
      // it?"), or handed the floor ("Over to you, Sam.", a turn ending on "Felix."); and the turn
      // ends there (a short "yeah" after it in the same voice is two voices heard as one).
      const rest = turn.sentences.slice(at)
      const hands = GREETING.test(sentence.slice(0, Math.max(0, sentence.lastIndexOf(' '))).trim()) || (rest.length === 1 && BARE.test(sentence.slice(0, sentence.lastIndexOf(' ') + 1)))
      const asks = rest.slice(0, 3).findIndex((line) => ASKS.test(line))
      const askedAt = asks < 0 && hands ? 0 : asks
      const after = rest.slice(askedAt + 1)
      if (askedAt < 0 || after.length > 1 || after.some((line) => line.split(' ').length <= 3)) return
      if (next && next.speakerId !== turn.speakerId) add(next.speakerId, addressed, 1)
    })
  })

  /** A name said to someone: the sentence is the name ("Felix."), ends with it ("That's fair, Jenna."), or opens a request with it ("Raj, can you…"). */
  function vocative(sentence: string): MeetingParticipant | undefined {
    for (const { alias, person } of aliases) {
      const name = alias.toLowerCase()
      if (new RegExp(`^${FILLER}${escape(name)}$`).test(sentence)) return participantOf(person.name)
      if (new RegExp(`^${escape(name)} (?:(?:can|could|would|will|do|did|are|have) you|you|your|what|how|any)\\b`).test(sentence)) return participantOf(person.name)
      if (sentence.endsWith(` ${name}`)) {
        const before = sentence.slice(0, -name.length - 1).split(' ')
        if (!OBJECT_BEFORE.has(before[before.length - 1]!)) return participantOf(person.name)
      }
    }
    return undefined
  }

  // Clearly one participant per voice, and no participant for two voices.
  const best = new Map<string, MeetingParticipant>()
  for (const [speakerId, row] of score) {
    const positive = [...row].filter(([, points]) => points > 0)
    if (positive.length === 1) best.set(speakerId, positive[0]![0])
  }
  for (const [speakerId, participant] of best) {
    const rivals = [...score].filter(([other, row]) => other !== speakerId && (row.get(participant) ?? 0) > 0)
    if (rivals.length === 0) names.set(speakerId, participant)
  }
  return names
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
