// The engine on speech as a recognizer writes it (one segment per sentence, lower case, no commas,
// the recognizer's confidence on each segment) and on the meeting idioms that carry results,
// questions and decisions without the usual cue words.
import { describe, expect, it } from 'vitest'
import { loadMeetingFixtures } from '../../../../test/fixtures/meetings.ts'
import { extractItems } from './extractive.ts'
import { asRecognized, meeting } from './testing.ts'
import { DEFAULT_QUALITY_GATE, type ExtractionInput } from './types.ts'

const visible = (input: ExtractionInput, options: Parameters<typeof extractItems>[1] = {}) => extractItems(input, options).items.filter((item) => item.confidence >= DEFAULT_QUALITY_GATE)

const recognized = (input: ExtractionInput) => asRecognized(input)

describe('extractive engine, recognized speech', () => {
  it('keeps the keys of items already found while a recognized transcript grows', () => {
    const fixtures = loadMeetingFixtures().filter((fixture) => ['en-standup', 'en-facilities-sync', 'en-postmortem-queue'].includes(fixture.id))
    expect(fixtures).toHaveLength(3)
    for (const fixture of fixtures) {
      const input = recognized({ ...fixture })
      const full = new Map(extractItems(input).items.map((item) => [item.key, item.kind]))
      for (let length = 1; length < input.segments.length; length += 1) {
        for (const item of extractItems({ ...input, segments: input.segments.slice(0, length) }).items) {
          expect(full.get(item.key), `${fixture.id} after ${length} segments: ${item.title}`).toBe(item.kind)
        }
      }
    }
  })

  it('reads one speaker\'s sentences as one turn: a yes and the rest, a recap announced alone', () => {
    const items = visible(recognized(meeting([
      ['alice', 'Lucy could you start a doc with project ideas?'],
      ['lucy', "Sure. I'll set it up this week and share it in the team channel."],
      ['alice', 'Okay so recap. Lucy sets up the project doc. Bob drafts the posting by Friday.'],
    ], { participants: [{ speakerId: 'lucy', name: 'Lucy Chen' }, { speakerId: 'bob', name: 'Bob Lee' }] })))
    const actions = items.filter((item) => item.kind === 'action')
    expect(actions).toHaveLength(2)
    expect(actions[0]).toMatchObject({ ownerName: 'Lucy Chen', sourceSegmentIds: ['s1.0', 's2.0', 's2.1', 's3.1'] })
    expect(actions[1]).toMatchObject({ ownerName: 'Bob Lee', sourceSegmentIds: ['s3.2'] })
  })

  it('takes a name said as its own sentence as the person the next request is for', () => {
    const actions = visible(recognized(meeting([
      ['bob', "I'll set up the proof of concept this week."],
      ['alice', 'Great. Chris. Can you estimate the monthly cost once it is done?'],
      ['chris', 'Sure.'],
    ], { participants: [{ speakerId: 'bob', name: 'Bob Lee' }, { speakerId: 'chris', name: 'Chris Wong' }] }))).filter((item) => item.kind === 'action')
    expect(actions.map((action) => [action.ownerName, action.sourceSegmentIds])).toEqual([['Bob Lee', ['s1.0']], ['Chris Wong', ['s2.2', 's3.0']]])
  })

  it('does not take a recognized sentence\'s capitalized first word for a person who takes work', () => {
    const items = visible(recognized(meeting([['alice', "Who's going to own the merging?"], ['alice', 'Here is going to an emerging.']])))
    expect(items.map((item) => [item.kind, item.ownerName, item.sourceSegmentIds])).toEqual([['action', undefined, ['s1.0']]])
  })

  it('keeps a question raised over two sentences one item', () => {
    const items = visible(recognized(meeting([['alice', "Just flagging, the retry logic still has no backoff. If this happens again it'll be the same pile-up."]])))
    expect(items.map((item) => [item.kind, item.sourceSegmentIds])).toEqual([['question', ['s1.0', 's1.1']]])
  })

  it('still hears a commitment whose "I" the recognizer lost, and not in a question', () => {
    const items = visible(recognized(meeting([
      ['alice', 'Is the badge reader in the budget?'],
      ['bob', 'Will send you the vendor quote today.'],
      ['alice', 'Will customers who failed to check out get a coupon?'],
    ])))
    expect(items.map((item) => [item.kind, item.sourceSegmentIds[0]])).toEqual([['action', 's2.0'], ['question', 's3.0']])
  })

  it('splits "X and I\'ll Y" without a comma, so the answer to "what do we do about…" is the decision', () => {
    const items = visible(recognized(meeting([
      ['alice', 'What do we do about the board deck? It goes out Monday.'],
      ['bob', "Use the finance number for September and add a footnote and I'll update the slide myself."],
    ])))
    expect(items.map((item) => item.kind)).toEqual(['decision', 'action'])
  })
})

describe('extractive engine, results, questions and decisions without their usual words', () => {
  it('takes counts, shares and readings stated as facts for results, not counts that are only context', () => {
    const outcomes = (text: string) => visible(meeting([['alice', text]])).filter((item) => item.kind === 'outcome').length
    expect(outcomes('We closed nineteen of the twenty-two points we committed to.')).toBe(1)
    expect(outcomes('Forty-seven issues in total, nine of them marked critical.')).toBe(1)
    expect(outcomes("They're at about two hundred and forty active users now, up from ninety in May.")).toBe(1)
    expect(outcomes('The dashboard says four hundred and twelve thousand.')).toBe(1)
    expect(outcomes('The contrast fix brought it to four point six to one.')).toBe(1)
    expect(outcomes('So this year we had six interns.')).toBe(0)
    expect(outcomes("We've got two choices, the small booth or the big one.")).toBe(0)
    expect(outcomes("I'd drop the lag alert from fifteen minutes to five.")).toBe(0)
  })

  it('takes a level read, a fault counted and a state of disrepair for results, not a norm, a time or a condition', () => {
    const outcomes = (text: string) => visible(meeting([['alice', text]])).filter((item) => item.kind === 'outcome').length
    expect(outcomes("The hardening store's at, uh, ninety-one percent full.")).toBe(1)
    expect(outcomes("Cold room two's sitting at four degrees, it should be two.")).toBe(1)
    expect(outcomes('Haddock averaged two-forty a pound at the auction.')).toBe(1)
    expect(outcomes('The hot wire on the outside yard tripped twice over the weekend.')).toBe(1)
    expect(outcomes("The number two compressor's still leaking oil.")).toBe(1)
    expect(outcomes('Channel seventeen is, um, crackling on the EQ.')).toBe(1)
    expect(outcomes("Twist-lock sensor. That's the fourth one on six this month.")).toBe(1)
    expect(outcomes('One of the swabs came back positive for hazelnut protein.')).toBe(1)
    expect(outcomes("The mower man's at ten.")).toBe(0)
    expect(outcomes("For Q2 the headline is offline mode.")).toBe(0)
    expect(outcomes('If the pump is leaking we shut the line.')).toBe(0)
    expect(outcomes('We should be at forty percent by Friday.')).toBe(0)
  })

  it('takes work handed over in the imperative, to someone named or with its time, and not a noun or a question that looks like one', () => {
    const people = [{ speakerId: 'alice', name: 'Alice Moreau' }, { speakerId: 'ila', name: 'Ila Mehta' }]
    const actions = (text: string) => visible(meeting([['alice', text], ['ila', 'Okay.']], { participants: people })).filter((item) => item.kind === 'action')
    expect(actions('Ila, update the doc with the cost numbers by Friday.').map((item) => item.ownerName)).toEqual(['Ila Mehta'])
    expect(actions('ila update the doc with the cost numbers by friday').map((item) => item.ownerName)).toEqual(['Ila Mehta'])
    expect(actions('Chase it again today and copy me this time.')).toHaveLength(1)
    expect(actions("Someone's got to find the people for Tuesday.")).toHaveLength(1)
    expect(actions('Check engine light came on Friday.')).toHaveLength(0)
    expect(actions('Remind me where we are on the lux readings.')).toHaveLength(0)
    expect(actions('Schedule for next week is on the board.')).toHaveLength(0)
    expect(actions('Get off the train at the second stop.')).toHaveLength(0)
  })

  it('keeps a question open when the reply says nobody knows ("No word", "Not that I know of", a no to "do we know yet…")', () => {
    const people = [{ speakerId: 'alice', name: 'Alice Moreau' }, { speakerId: 'bo', name: 'Bo Lind' }]
    const questions = (asked: string, reply: string) => visible(meeting([['alice', asked], ['bo', reply]], { participants: people })).filter((item) => item.kind === 'question').length
    expect(questions('And do we know yet if the new male is actually coming this winter', 'No word, nothing. Okay, let us get out there.')).toBe(1)
    expect(questions('Has anyone actually tested the hydrant pressure up there?', 'Not that I know of.')).toBe(1)
    expect(questions('Do we know if the part comes in time?', 'No.')).toBe(1)
    expect(questions('Do we have a spare lamp?', 'No.')).toBe(0)
  })

  it('hears a decision in "then we take it", "it\'s X from now", an echo of the proposal ("Yeah, roll it back.") and "X\'s done after Sunday"', () => {
    const decisions = (lines: [string, string][]) => visible(meeting(lines)).filter((item) => item.kind === 'decision').length
    expect(decisions([['ana', 'Fifty-one thousand for the year. Then we take it, tell them yes.']])).toBe(1)
    expect(decisions([['ana', "That's moving off nights. It's Sunday mornings from now."]])).toBe(1)
    expect(decisions([['ana', "Never, not once. So honestly, I'd roll it back to 2.6."], ['bo', 'Yeah, roll it back.']])).toBe(1)
    expect(decisions([['ana', "Yeah. Okay. The everything bagel's done after Sunday."]])).toBe(1)
    expect(decisions([['ana', 'Right, that\'s what we agreed. Sesame last.']])).toBe(0)
    expect(decisions([['ana', 'I sent the form over.'], ['bo', 'Yeah, got it back.']])).toBe(0)
    // the proposal taken back by its own author is no decision (what the objection says is left to the detector)
    const withdrawn = visible(meeting([['ana', 'What if we cut the X7 on Sundays and put that driver on the 42 instead?'], ['bo', "The X7 is council funded, we can't just pull it."], ['ana', 'Oh, right. Yeah, forget that then.']]))
    expect(withdrawn.filter((item) => item.kind === 'decision' && item.sourceSegmentIds.some((id) => id === 's1' || id === 's3'))).toEqual([])
  })

  it('reads breakages, trouble foreseen, reports from outside, take-backs, reversals and options settled without a yes', () => {
    const kinds = (lines: [string, string][]) => visible(meeting(lines)).map((item) => item.kind)
    expect(kinds([['ana', 'The reefer unit failed off Colombo.']])).toEqual(['outcome'])
    expect(kinds([['ana', 'And, um, we scorched the flue pan on Wednesday.']])).toEqual(['outcome'])
    expect(kinds([['ana', 'The sugaring-off dinners are fully booked for the next three weekends.']])).toEqual(['outcome'])
    expect(kinds([['ana', "If the disputes keep coming in like this, we'll be over two hundred open cases by the end of next week."]])).toEqual(['question'])
    expect(kinds([['ana', "The vendor's confirmed cutover for the night of April fourth."]])).toEqual([])
    expect(kinds([['ana', "Let's go back to the agenda."]])).toEqual([])
    // the meeting's own pace and order: no choice made
    expect(kinds([['ana', "Okay, let's do the round, Priya."]])).toEqual([])
    expect(kinds([['ana', "Yeah okay let's go quick, the truck's leaving at ten."]])).toEqual([])
    expect(kinds([['ana', "Let's not try to solve it tonight."]])).toEqual([])
    expect(kinds([['ana', "Okay, let's go venue by venue, Gavin."]])).toEqual([])
    expect(kinds([['ana', "Let's come back to that one."]])).not.toContain('decision')
    expect(kinds([['ana', 'External invigilators go from twenty-two to twenty-six dollars an hour, starting this exam period.']])).toContain('decision')
    expect(kinds([['ana', 'Oh, and the light over the chapel door is flickering again.']])).toEqual(['outcome'])
    expect(kinds([['ana', "If the flu keeps going like this, we'll be full before Christmas."]])).toEqual(['question'])
    // a rule going forward, in the words people use for one
    expect(kinds([['ana', 'We moved the counts to quarterly in June. That was a mistake, back to monthly, starting now.']])).toContain('decision')
    expect(kinds([['ana', 'So, new rule, every delivery gets signed for at the gate.']])).toEqual(['decision'])
    expect(kinds([['ana', 'Nothing ships on upgrade mornings, for any team, that\'s the rule.']])).toEqual(['decision'])
    expect(kinds([['ana', 'From this week, nothing leaves the yard without a tag on the bundle.']])).toEqual(['decision'])
    expect(kinds([['ana', "So here's how it works for now on. If a prop fails, the game master stops the clock."]])).toContain('decision')
    expect(kinds([['ana', 'The invoices are due by this week, the supplier said.']])).not.toContain('decision')
    // a team taking the work asked of it: an action, not a choice
    expect(kinds([['ana', 'The new tensioners came in yesterday.'], ['ana', 'Jesse, can your guys bring them up Friday?'], ['bo', "Yeah, we'll grab them Friday morning."]])).toEqual(['action'])
    expect(kinds([['ana', 'Can you get the pallets out of bay two today?'], ['bo', "Sure, we'll do it after lunch."]])).toEqual(['action'])
    expect(kinds([['ana', 'Keep an eye on it.']])).toEqual([])
    expect(kinds([['ana', "Yeah, I've had the emails too. Okay. Bring it back."]])).toEqual(['decision'])
    expect(kinds([['ana', 'Can we not just buy new batteries rather than new handsets?'], ['bo', "We could. Batteries are sixty quid, a handset's four hundred."], ['ana', 'Batteries, then. Just the four.']])).toContain('decision')
    expect(kinds([['ana', 'In the meantime we keep doing what we agreed last month. The manual door check.'], ['bo', 'Yep. That stays.']])).toEqual([])
  })

  it('reads breakages said as the state things are in, incidents counted, others\' answers, and questions left to later or to others', () => {
    const kinds = (lines: [string, string][]) => visible(meeting(lines)).map((item) => item.kind)
    expect(kinds([['ana', 'The X-ray processor is being weird. It throws an error code on start up.']])).toEqual(['outcome'])
    expect(kinds([['ana', "And the cold porch. The outer door's still not sealing."]])).toEqual(['outcome'])
    expect(kinds([['ana', 'The weigh scale in the warehouse is reading low, two kilos on the big bags.']])).toEqual(['outcome'])
    expect(kinds([['ana', 'Yeah. So, um. Two cuts last week.']])).toEqual(['outcome'])
    expect(kinds([['ana', 'The diocese approved the budget last Friday.']])).toEqual(['outcome'])
    expect(kinds([['ana', 'The hotel in the old town renewed, two more years.']])).toEqual(['outcome'])
    expect(kinds([['ana', 'If the pump won\'t start tomorrow we call the fitter.']])).not.toContain('outcome')
    expect(kinds([['ana', 'If it froze, it all has to come out again.']])).toEqual(['question'])
    expect(kinds([['ana', "The farm still hasn't said whether they want the second cut."]])).toEqual(['question'])
    expect(kinds([['ana', "Whether we hire someone, that's for head office. Not today."]])).toEqual(['question'])
    expect(kinds([['ana', 'We could keep all six on through September.'], ['bo', 'Depends on the weather.'], ['ana', "Okay, let's decide that in August."]])).toContain('question')
  })

  it('reads a choice said as what the team now does, a ban for the season, and work given with "you do that"', () => {
    const kinds = (lines: [string, string][]) => visible(meeting(lines), { decisions: 'rules' }).map((item) => item.kind)
    expect(kinds([['ana', 'The shops want jars.'], ['bo', "So we order from the other supplier, the one in Rennes. Even if it's dearer."]])).toContain('decision')
    expect(kinds([['ana', 'Storms on Sunday.'], ['bo', 'So we rake everything in on Saturday evening.']])).toEqual(['decision'])
    expect(kinds([['ana', "So, here's what happens instead. From next Monday Sandra comes off reception and does the quartz jobs."]])).toEqual(['decision'])
    expect(kinds([['ana', 'No tours on the scaffold this year. Ground level only.']])).toContain('decision')
    expect(kinds([['ana', 'No tours on the scaffold this year?']])).not.toContain('decision')
    expect(kinds([['ana', 'They want a quarterly report with photos. Starting this quarter.']])).not.toContain('decision')
    expect(kinds([['ana', 'Three weeks? We\'ll be out by the end of next week.']])).not.toContain('decision')
    expect(visible(meeting([['ana', 'Somebody has to renew the crane rental.'], ['ana', 'Stefan, you do that, you know the guy.']], { participants: [{ speakerId: 'stefan', name: 'Stefan Braun' }] })).map((item) => [item.kind, item.ownerName])).toContainEqual(['action', 'Stefan Braun'])
  })

  it('keeps open what nobody can answer yet, and reads the trouble an if foresees as a risk', () => {
    const kinds = (lines: [string, string][]) => visible(meeting(lines)).map((item) => item.kind)
    expect(kinds([['ana', "The payments team is still on the old sidecar. I don't actually know if it works on the new version."]])).toContain('question')
    expect(kinds([['ana', "I'm taking the shade sails to council again, but I've got no idea if the money's there this year."]])).toContain('question')
    expect(kinds([['ana', "Whether we take the overflow calls. I don't have an answer yet."]])).toContain('question')
    expect(kinds([['ana', 'Do fewer of them pick annual? We just cannot tell.'], ['bo', "Yeah, that's the open one."]])).toContain('question')
    expect(kinds([['ana', "I don't know if I'll make it on Thursday."]])).not.toContain('question')
    expect(kinds([['ana', "If recovery drops any more, we can't run all the machines."]])).toEqual(['question'])
    expect(kinds([['ana', "If it doesn't rain by October the hippos are in trouble."]])).toEqual(['question'])
    expect(kinds([['ana', 'If that happens during a callout, half the team never gets the page.']])).toEqual(['question'])
  })

  it('reads trouble weighed after it is described, a whether left hanging, and record numbers as speech writes them', () => {
    const kinds = (lines: [string, string][]) => visible(meeting(lines)).map((item) => item.kind)
    expect(kinds([['ana', "And whether the buyer still pays the stage payment before the pour, I don't know that either."]])).toEqual(['question'])
    expect(kinds([['ana', 'And whether the auction price holds after the fourteenth.']])).toEqual(['question'])
    expect(kinds([['ana', 'Whether we go or not, we need the van on Friday.']])).not.toContain('question')
    expect(kinds([['ana', 'If we get a third interception, they can put us on enhanced checks.'], ['bo', 'That would kill us.']])).toContain('question')
    expect(kinds([['ana', 'The job number is W5591.']])).toContain('reference')
    expect(kinds([['ana', 'It is on the board, M. 218, I opened it on Friday.']])).toContain('reference')
    expect(kinds([['ana', 'They want the extinguisher plan, our protocol number is 19744.']])).toContain('reference')
  })

  it('finds a document where people find it and a report for a named body, and splits "I\'ll write X can you do Y"', () => {
    const items = (text: string) => visible(meeting([['ana', text]])).map((item) => item.kind)
    expect(items("I'll change the visitor booking form on the website.")).toContain('reference')
    expect(items('Good, the interim report for the Heritage Fund is due on the fifteenth.')).toContain('reference')
    expect(items("I'll write the narrative part can you do the numbers table by Wednesday")).toEqual(['action', 'action'])
  })

  it('hears a question asked without a question word or mark', () => {
    for (const text of ['One open thing, we still don\'t know if the expo lets us scan badges.', 'I wonder if the vendor would give us a discount.', "Let's leave the integration articles open for now.",
      "So I'm not sure we can actually tell if fuzzy matching makes the results worse.", 'If the upgrade slips past August our settings might need redoing.']) {
      expect(visible(meeting([['alice', text]])).map((item) => item.kind), text).toEqual(['question'])
    }
  })

  it('hears a decision said implicitly: a proposal agreed, "let\'s do that" and what follows, "X it is"', () => {
    const kinds = (lines: [string, string][]) => visible(meeting(lines)).map((item) => item.kind)
    expect(kinds([['alice', "Okay. I think we go with the bigger one, fifteen is a lot but it's worth it."]])).toEqual(['decision'])
    expect(kinds([['alice', "Okay, let's do that. The dashboard switches to the month-end rate."], ['bob', 'Fine with me.']])).toEqual(['decision'])
    expect(kinds([['alice', 'Everyone okay with five minutes?'], ['bob', 'Yes.'], ['alice', 'Okay, five minutes it is.']])).toEqual(['decision'])
    expect(kinds([['alice', 'Should we use Postgres or Mongo?'], ['bob', 'Fine, Postgres then.'], ['alice', 'Okay, see you then.']])).toEqual(['decision'])
    const [settled] = visible(meeting([['alice', 'Going forward config changes need a second approver.'], ['bob', "Agreed, but I'd do it for all the queue configs."], ['alice', 'Fine, all queue configs then.']]))
    expect(settled).toMatchObject({ kind: 'decision', sourceSegmentIds: ['s1', 's2', 's3'] })
    // The rules take neither for a decision; the detector retrained with held-out-9 reads "Let's wait and see." as a
    // choice to wait (0.69), which the labels would not hold — a known false positive of the learned reading.
    const rulesAlone = (lines: [string, string][]) => visible(meeting(lines), { decisions: 'rules' }).map((item) => item.kind).filter((kind) => kind === 'decision')
    expect(rulesAlone([['alice', "Let's make sure we're not scrambling at the end like last year."], ['bob', "Let's wait and see."]])).toEqual([])
  })

  it('hears a choice reached over several turns: summed up, proposed and endorsed, agreed after a question', () => {
    const decisions = (lines: [string, string][]) => visible(recognized(meeting(lines))).filter((item) => item.kind === 'decision').map((item) => item.sourceSegmentIds)
    expect(decisions([['alice', 'About ninety are too slow. The rest are fine.'], ['bob', 'So ninety now fifty next year.'], ['alice', "Yeah. That's what I'd do."]])).toEqual([['s2.0', 's3.1']])
    expect(decisions([['alice', 'Ten felt short.'], ['bob', 'Twelve is fine from our side.'], ['alice', 'Okay. Twelve weeks starting in June.']])).toEqual([['s3.1']])
    expect(decisions([['alice', 'We could keep a copy in the other region.'], ['bob', 'What does that cost?'], ['alice', 'About eight hundred a month.'], ['bob', "That's nothing. Let's do it."]])).toEqual([['s1.0', 's4.1']])
    expect(decisions([['alice', 'Then I mean we could split it.'], ['bob', 'I like that.']])).toEqual([['s1.0', 's2.0']])
    expect(decisions([['alice', 'Should we tell the board about that too?'], ['bob', 'Not until we know what it is.']])).toEqual([['s2.0']])
    expect(decisions([['alice', 'Okay. So we just keep doing short subject lines then.']])).toEqual([['s1.1']])
    expect(decisions([['alice', 'If they do not approve in time. We use the other story instead.']])).toEqual([['s1.1']])
    expect(decisions([['alice', "I'll ask Greg in finance until then nobody offers more than ten percent without my sign off."]])).toHaveLength(1)
    // Not choices: arithmetic and agendas summed up, a proposal nobody takes, a concession before "but".
    expect(decisions([['alice', 'So seventy times fourteen hundred plus twenty times twenty two hundred.'], ['bob', 'Sounds right.']])).toEqual([])
    expect(decisions([['alice', 'Okay. Three things today.']])).toEqual([])
    expect(decisions([['alice', 'We could rent a bus.'], ['bob', 'Do we have budget for that?']])).toEqual([])
    expect(decisions([['alice', "Let's wait and see."], ['bob', "Okay that's fine but it does need to be in the posting."]])).toEqual([])
  })

  it('reads "let\'s leave that for now", "let\'s sort that out separately", "let\'s think about it" as a question left open', () => {
    for (const text of ["Let's leave that for now.", "Let's sort that out separately.", "Let's think about it."]) {
      const items = visible(recognized(meeting([['alice', 'Do we update the Ruby SDK or drop it?'], ['bob', text]])))
      expect(items.map((item) => item.kind), text).toEqual(['question'])
    }
  })

  it('hears "X it is" as the recognizer writes it ("June thirtieth and as")', () => {
    expect(visible(recognized(meeting([['alice', 'Okay. June thirtieth and as.']]))).map((item) => item.kind)).toEqual(['decision'])
  })

  it('hears results stated with a count, a gap or a share, and a result summed up as one item', () => {
    const items = visible(recognized(meeting([
      ['alice', 'How many signed up?'],
      ['bob', 'Fifty two so far.'],
      ['alice', 'And the help center?'],
      ['bob', 'I went through the top fifty. Sixteen had old screenshots. Right now about forty percent of people who open an article still file a ticket.'],
      ['carol', 'Still about sixty short on commit with Corvex in.'],
      ['dan', 'For about three hours notifications were delayed. So about ninety five minutes in total.'],
    ])))
    expect(items.filter((item) => item.kind === 'outcome').map((item) => item.sourceSegmentIds)).toEqual([['s2.0'], ['s4.1'], ['s4.2'], ['s5.0'], ['s6.0', 's6.1']])
  })

  it('does not report a result still pending or one only pointed back at', () => {
    const items = visible(recognized(meeting([
      ['alice', 'Harbor Foods said yes to a quote but their legal team still has to approve it.'],
      ['bob', "That's the one we fixed in three point two."],
      ['carol', "It's four percent of users."],
    ])))
    expect(items.filter((item) => item.kind === 'outcome')).toEqual([])
  })

  it('finds documents by where they are, what was put in them and what tracks the work', () => {
    const items = visible(recognized(meeting([
      ['alice', "Everyone gets one volunteer day a year. It's in the employee handbook."],
      ['bob', "I opened a ticket with the mobile team. It's on the data quality board."],
      ['carol', "I'll put the list of articles to delete in the cleanup sheet."],
      ['dan', 'This is tracked in the deprecation epic.'],
      ['erin', "I'll write the summary in the incident tracker ticket ops 771."],
    ])))
    expect(items.filter((item) => item.kind === 'reference').map((item) => item.sourceSegmentIds)).toEqual([['s1.1'], ['s2.1'], ['s3.0'], ['s4.0'], ['s5.0']])
  })

  it('keeps a question open when the turn that asks it says nobody knows yet', () => {
    const items = visible(recognized(meeting([
      ['alice', "What about retention? How long do we keep events? Legal hasn't told us yet."],
      ['bob', 'Okay noted.'],
      ['carol', 'Do we store the raw payloads?'],
      ['dan', 'I will ask the platform team.'],
    ])))
    expect(items.filter((item) => item.kind === 'question').map((item) => item.sourceSegmentIds[0])).toEqual(['s1.0', 's3.0'])
  })
})

describe('extractive engine, seventh pass: put-offs, dates and state changes', () => {
  it('reads a yes cut across two voices as one sentence, not as "Me." claiming work', () => {
    const input = recognized(meeting([
      ['alice', 'So from now on every invoice gets a second reviewer.'],
      ['bob', 'Fine by.'],
      ['alice', 'Me.'],
    ]))
    // diarization put the tail of Bob's sentence under Alice, right after it
    input.segments[2] = { ...input.segments[2]!, startMs: input.segments[1]!.endMs + 200, endMs: input.segments[1]!.endMs + 600 }
    const items = visible(input)
    expect(items.map((item) => item.kind)).toEqual(['decision'])
    expect(items[0]!.sourceSegmentIds).toEqual(['s1.0', 's2.0'])
  })

  it('takes put-offs and a deadline said alone for what they are, not for decisions', () => {
    const items = visible(recognized(meeting([
      ['alice', 'Who is writing the vendor summary?'],
      ['bob', "I'll do it. Let's say by the ninth."],
      ['carol', 'Can we even use their sandbox for testing?'],
      ['alice', "Let's hold that one and think about it."],
    ])))
    expect(items.filter((item) => item.kind === 'decision')).toEqual([])
    expect(items.filter((item) => item.kind === 'question').map((item) => item.sourceSegmentIds)).toEqual([['s3.0', 's4.0']])
  })

  it('reads "X stays", "we\'re not waiting" and a short "X then" after a yes as decisions', () => {
    const items = visible(recognized(meeting([
      ['alice', 'So the launch date stays?'],
      ['bob', "It stays. We're not moving it for one missing screen."],
      ['carol', "I'd actually cut the pilot to three teams."],
      ['bob', 'Why three?'],
      ['carol', 'Fewer handoffs.'],
      ['bob', 'Okay. Yeah. Three then.'],
    ])))
    expect(items.filter((item) => item.kind === 'decision').map((item) => item.sourceSegmentIds[0])).toEqual(['s2.0', 's2.1', 's3.0'])
  })

  it('merges a bare "let\'s <do X>" into the action someone then takes', () => {
    // The rules alone: since the eleventh pass the learned detector also reads the proposal as a decision.
    const items = visible(meeting([
      ['alice', "Let's ask the vendor for a discount on the renewal."],
      ['bob', "Sure, I'll ask them for the discount tomorrow."],
    ], { participants: [{ speakerId: 'bob', name: 'Bob Lee' }] }), { decisions: 'rules' })
    expect(items.map((item) => item.kind)).toEqual(['action'])
  })

  it('reads speech as Moonshine writes it: split words, a dropped "\'ll", a choice after a comma, and no item from a cut fragment', () => {
    const items = visible(meeting([
      ['ben', 'I write the follow-up post for the seller forum to-morrow morning.'],
      ['ana', 'Also, some body has to redo the timetable cases at the hospital stop.'],
      ['cat', 'Thirty six, it is.'],
      ['ana', "We'll do."],
      ['ben', 'Right?'],
    ]))
    expect(items.map((item) => [item.kind, item.sourceSegmentIds[0]?.split('.')[0]])).toEqual([['action', 's1'], ['action', 's2'], ['decision', 's3']])
    expect(items[0]).toMatchObject({ ownerSpeakerId: 'ben' })
  })

  it('reads a choice named after weighing, an either-or answered by its option, and keeps a setting recalled in the turn before "that stays"', () => {
    const kinds = (lines: [string, string][]) => visible(meeting(lines), { decisions: 'rules' }).map((item) => [item.kind, item.sourceSegmentIds[0]?.split('.')[0]])
    expect(kinds([['ana', 'LotLine is three percent, Bidroom is four but has the American buyers.'], ['ben', 'Then it\'s Bidroom.']])).toEqual([['decision', 's2']])
    expect(kinds([['ana', 'The family pulled the bracket clock.'], ['ben', 'Right. Then the walnut bureau goes on the cover instead.']])).toEqual([['decision', 's2']])
    expect(kinds([['ana', 'Their order ships next week. Rail or trucks?'], ['ben', 'Trucks. I\'m not having it sit on a rail car till March.']])).toEqual([['decision', 's2']])
    expect(kinds([['ana', 'Are we changing the premium for online?'], ['ben', 'No. We set that at twenty-five percent in the spring, across the board. That stays.']])).toEqual([])
    expect(kinds([['ana', 'What if we, uh...'], ['ben', 'Yeah.']])).toEqual([])
  })

  it('reads a rescheduled thing as a choice, and no choice in one settled earlier, a proposal, or the meeting starting or ending', () => {
    const kinds = (lines: [string, string][]) => visible(meeting(lines)).filter((item) => item.kind === 'decision').map((item) => item.sourceSegmentIds[0]?.split('.')[0])
    expect(kinds([['ana', "The boat's in for repair on Thursday."], ['ben', "Okay. So Thursday's dive moves to Wednesday."]])).toEqual(['s2'])
    expect(kinds([['ana', 'The night team is too small.'], ['ben', 'Right. The bakery run moves back to the morning shift.']])).toEqual(['s2'])
    expect(kinds([['ana', 'And the plan for the series?'], ['ben', 'The season still ends at episode one hundred, we settled that with the platform last month.']])).toEqual([])
    expect(kinds([['ana', 'The new menu cycle starts on the first of August, we agreed that with the airline in June, so today is just the sign-off.'], ['ben', 'Good.']])).toEqual([])
    expect(kinds([['ana', 'The bearing is running hot.'], ['ben', 'What if we take unit two down to half load from today until the overhaul?']])).toEqual([])
    expect(kinds([['ana', "Coffee's there, let's, um, let's just start."], ['ben', 'Right, let\'s wrap.']])).toEqual([])
  })

  it('leaves open what is still missing and the trouble an if foresees', () => {
    const questions = (lines: [string, string][]) => visible(meeting(lines)).filter((item) => item.kind === 'question').map((item) => item.sourceSegmentIds[0]?.split('.')[0])
    expect(questions([['ana', 'Have they sent the drawings?'], ['ben', 'No. I emailed twice. We still don\'t have the load rating for their roof.']])).toEqual(['s2'])
    expect(questions([['ana', 'The parts ship from Hamburg on the eighteenth.'], ['ben', 'And if the parts are late, the whole thing slides.']])).toEqual(['s2'])
    expect(questions([['ana', 'We have two episodes in the bank.'], ['ben', 'If we ever get down to one, we\'re looking at a hiatus week.']])).toEqual(['s2'])
    expect(questions([['ana', 'Any complaints from the site?'], ['ben', 'No, we still don\'t have any complaints, all quiet.']])).toEqual([])
  })
})
