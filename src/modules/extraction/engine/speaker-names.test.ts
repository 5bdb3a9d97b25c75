// Anonymous voices ("Speaker 2") named from how the others address them, and used as the owner
// hint of their actions; and the cases where nobody may be named.
import { describe, expect, it } from 'vitest'
import { extractItems } from './extractive.ts'
import { buildPeople } from './owners.ts'
import { inferSpeakerNames } from './speaker-names.ts'
import { asRecognized, meeting } from './testing.ts'
import { turnIndexes } from './turns.ts'
import type { ExtractionInput, MeetingParticipant } from './types.ts'

const team: MeetingParticipant[] = [
  { name: 'Claire Dubois', accountId: 'acc_claire' },
  { name: 'Raj Iyer', accountId: 'acc_raj' },
  { name: 'Yara Costa', accountId: 'acc_yara' },
]

/** Voices known as no one, as the server's own transcription labels them. */
function anonymous(lines: [speakerId: string, text: string][], participants = team): ExtractionInput {
  const input = meeting(lines, { participants })
  return { ...input, segments: input.segments.map((segment) => ({ ...segment, speakerLabel: `Speaker ${segment.speakerId!.replace(/^spk_/, '')}` })) }
}

function named(input: ExtractionInput): Record<string, string> {
  const segments = [...input.segments].sort((a, b) => a.startMs - b.startMs)
  const names = inferSpeakerNames(segments, input.participants, buildPeople(input), turnIndexes(segments))
  return Object.fromEntries([...names].map(([speakerId, participant]) => [speakerId, participant.name]))
}

const actions = (input: ExtractionInput) => extractItems(input).items.filter((item) => item.kind === 'action')

describe('speaker names from how people address each other', () => {
  it('names the voice that answers a question put to a participant by name, and owns its actions by that name', () => {
    const input = anonymous([
      ['spk_1', 'Okay, the pricing page. Raj, what do you think of the new tiers?'],
      ['spk_2', "Much better than the tabs. I'll send the revised mockups by Friday."],
      ['spk_1', 'Good.'],
    ])
    expect(named(input)).toEqual({ spk_2: 'Raj Iyer' })
    expect(actions(input)[0]).toMatchObject({ ownerName: 'Raj Iyer', ownerAccountId: 'acc_raj', ownerSpeakerId: 'spk_2' })
  })

  it('names the voice that answers after the asker paused between the name and the question (one voice, two recognized turns)', () => {
    const recognized = asRecognized(anonymous([
      ['spk_1', 'I floated a full retrospective last week, Raj.'],
      ['spk_1', 'What did you find on the prints?'],
      ['spk_2', 'Only six of the forty are on film. I will check the condition reports by Friday.'],
    ]))
    // the second sentence of the asker comes 3 s after the first: past the pause that continues a turn
    const segments = recognized.segments.map((segment) => (segment.id.startsWith('s1.') ? segment : { ...segment, startMs: segment.startMs + 3000, endMs: segment.endMs + 3000 }))
    expect(named({ ...recognized, segments })).toEqual({ spk_2: 'Raj Iyer' })
  })

  it('reads recognized speech: a name said alone before the request, a thanks after a voice spoke, a self-introduction', () => {
    const input = asRecognized(anonymous([
      ['spk_1', 'Great. Raj. Can you send me the list sales actually uses?'],
      ['spk_2', 'Yep.'],
      ['spk_3', "I'd cut it to six and link to the help center."],
      ['spk_1', 'Thanks Yara. Let us move on.'],
      ['spk_4', "Hi, it's Claire. Sorry I'm late."],
    ]))
    expect(named(input)).toEqual({ spk_2: 'Raj Iyer', spk_3: 'Yara Costa', spk_4: 'Claire Dubois' })
  })

  it('names no one when one voice answers to two names (two people heard as one voice)', () => {
    expect(named(anonymous([
      ['spk_1', 'Raj, can you send me the list?'],
      ['spk_2', 'Sure.'],
      ['spk_1', 'Yara, could you check the help center?'],
      ['spk_2', 'Sure.'],
    ]))).toEqual({})
  })

  it('never gives one name to two voices', () => {
    expect(named(anonymous([
      ['spk_1', 'Raj, can you send me the list?'],
      ['spk_2', 'Sure.'],
      ['spk_1', 'Raj, can you also check the copy?'],
      ['spk_3', 'Will do.'],
    ]))).toEqual({})
  })

  it('never renames a voice that has a name, nor gives its name to another voice', () => {
    const input = anonymous([
      ['spk_1', 'Raj, can you send me the list?'],
      ['spk_2', "Sure, I'll send it tonight."],
    ], [{ name: 'Claire Dubois', speakerId: 'spk_1' }, { name: 'Raj Iyer', speakerId: 'spk_3' }])
    expect(named(input)).toEqual({})
    const labelled = { ...input, participants: team, segments: input.segments.map((segment) => ({ ...segment, speakerLabel: segment.speakerId === 'spk_2' ? 'Yara Costa' : 'Raj Iyer' })) }
    expect(named(labelled)).toEqual({})
    expect(actions(labelled)[0]?.ownerName).not.toBe('Claire Dubois')
  })

  it('names no one from a name that is not said to anyone: an object, a recap, a subject', () => {
    expect(named(anonymous([
      ['spk_1', 'Can you pair with Raj on it?'],
      ['spk_2', 'Happy to.'],
      ['spk_1', 'To recap, Raj sends the list and Yara checks the copy. Any questions?'],
      ['spk_3', 'No.'],
      ['spk_1', 'Yara is just joining. Shall we start?'],
      ['spk_4', 'Yes.'],
    ]))).toEqual({})
  })

  it('names no one when the asking voice says "yeah" right after its own question (two voices heard as one)', () => {
    expect(named(asRecognized(anonymous([
      ['spk_1', "That's fair, Yara. Would you be able to refresh the test set? Yeah."],
      ['spk_2', 'Sounds good.'],
    ])))).toEqual({})
  })

  it('leaves typed meetings, where every voice has a name, as they were', () => {
    const input = meeting([
      ['alice', 'Raj, can you send me the list?'],
      ['bob', "Sure, I'll send it tonight."],
    ], { participants: [{ speakerId: 'alice', name: 'Claire Dubois' }, { speakerId: 'bob', name: 'Yara Costa' }, { name: 'Raj Iyer' }] })
    expect(named(input)).toEqual({})
  })
})
