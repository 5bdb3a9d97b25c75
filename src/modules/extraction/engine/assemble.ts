// The sequential pass: clause candidates become drafts, merged with what came before (a yes to a
// request, a volunteer for open work, a pronoun for the item just discussed, a recap, a repeat).
// It only looks back, so a prefix of the transcript yields a prefix of the same drafts: keys stay
// stable while recording.
import { agreedStatement, announcedRisk, announcesWorry, answeredChoice, classifyClause, referenceIn, settledAfterYes, summedUpAfterYes, type Candidate, type ClauseContext, type ClauseSignals } from './classify.ts'
import { clausesByKind, joinConditions, recapClauses } from './clauses.ts'
import type { CueSet } from './cues.ts'
import { cuesFor, titleOf, type Assembly, type Draft, type NearDuplicate } from './drafts.ts'
import { resolveDueDate, type LocalDate } from './due-dates.ts'
import { findAddressedPerson, isKnown, samePerson, speakerOf, type People, type Person } from './owners.ts'
import { addInto, contentTokens, cosine, detectLanguage, overlapCoefficient, splitSentences, type Language, type TermVector } from './text.ts'
import { truncate } from './titles.ts'
import { DEFAULT_QUALITY_GATE, type ItemKind, type TranscriptSegmentInput } from './types.ts'

/** Two options asked for on their own: "Rail or trucks?", "Packed lunches or the museum cafe?" (not "Is that on-demand or provisioned?"). */
const EITHER_OR = /^(?:so,? |and,? |okay,? )?(?!(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|what|which|who|how|where|when|why)\b)((?:[\w'-]+ ){0,2}[\w'-]+),? or ((?:[\w'-]+ ){0,2}[\w'-]+)\?$/

const MERGE_THRESHOLD: Record<ItemKind, number> = { action: 0.5, decision: 0.5, question: 0.55, outcome: 0.6, reference: 0.6 }
const NEAR_DUPLICATE = 0.45
const REQUEST_TAKES_OPEN = 0.5
/** A clause that is only "let's …" (after a filler): how a meeting's first turn sets its agenda. */
const AGENDA_LETS = /^(?:(?:okay|ok|so|right|alright|all right|well|good|morning)[,.!]?\s+)*let(?:'s| us)\b/i
const BARE_FINE = /^fine[.!]?$/i
/** A turn asking the listener (or their team) to do something: "Jesse, can your guys bring them up Friday?" */
const ASKS_YOU = /\b(?:can|could|will|would)\s+(?:you|your|y'all)\b[^?]*\?\s*$/i
/** "We'll do it Friday.", "Yep, we can grab them first thing": work a team takes on (not a choice between options: "we'll go with", "we'll keep"). */
const WE_TAKE_IT = /^(?:(?:yeah|yes|yep|sure|okay|ok|fine|right|no problem|of course)[,.!]?\s+)*we(?:'ll| will| can)\s+(?:(?:just|definitely|probably|also)\s+)?(?!go with\b|use\b|switch\b|stick\b|keep\b|pick\b|choose\b|move\b|adopt\b|stay\b|drop\b|stop\b|cancel\b|skip\b|need\b|have to\b|see\b|talk\b|be\b)[a-z]+\b/i
const DEADLINE_WORDS = /\b(?:by|before|due|until)\b|之前|以前|截止/i

type SegmentState = {
  /** The turn (consecutive segments of one speaker: a recognizer writes one per sentence). */
  index: number
  /** The segment being read within the turn, and its position among all segments. */
  segment: TranscriptSegmentInput
  position: number
  isRecap: boolean
  /** The turn's last sentence was only a name ("Chris."): the next one is said to that person. */
  vocative?: string
  /** The turn announced a recap in a sentence of its own ("Okay, so recap."): its sentences are the recap. */
  isRecapHeader: boolean
  speaker: Person
  language: Language
  cues: CueSet
  /** The draft the previous clause of this segment went to, and the same when that clause said something of its own. */
  lastTouched?: Draft
  lastCreated?: Draft
  /** The previous clause was only a yes ("行，" "OK,"): the next one restates what is agreed. */
  wasAgreeing: boolean
  clausesSeen: number
  previousClause?: string
  sentence?: string
  /** "I agree." found nothing to attach to: the next statement says what was agreed. */
  isAgreementPending: boolean
  /** "One worry, though.": the next clause of the turn is the risk. */
  isWorryPending?: boolean
  /** The proposal this turn said yes to: the turn's next decision restates it ("Yes. Max two retries per pipeline from now on."). */
  confirmedHere?: Draft
}

export function assemble(segments: TranscriptSegmentInput[], people: People, today: LocalDate, turnOf: number[] = segments.map((_, index) => index)): Assembly {
  const drafts: Draft[] = []
  const nearDuplicates: NearDuplicate[] = []
  /** The speaker of each turn. */
  const speakers: Person[] = []
  let state: SegmentState | undefined

  segments.forEach((segment, position) => {
    // Speech engines spell out "let us", which reads as an invitation ("let's"), not "allow us" (but "let us know").
    const text = segment.text.replace(/[’‘]/g, "'").replace(/\b([Ll])et us\b(?!\s+know\b)/g, "$1et's")
    const language = detectLanguage(text, segment.language)
    const index = turnOf[position] ?? position
    if (state && state.index === index && state.language === language) {
      state.segment = segment
      state.position = position
      // "Okay, so recap." said alone: the turn's next sentences are the recap; any other recap ends with its segment.
      state.isRecap = state.isRecapHeader
      // A question goes on over the turn's sentences ("Just flagging, X. If this happens again…"), and a
      // decision into a sentence that points back at it or only qualifies it ("So one intern per mentor. That's the rule from
      // now on.", "Then we switch all alerts to p99. No exceptions."), and a result into what it sums up ("…delayed by up to
      // ninety minutes. So about ninety-five minutes in total.", "I finished the PDF rendering. It's merged."); other
      // items do not.
      const pointsBack = state.lastCreated?.kind === 'decision' && language === 'en' && (/^(?:that|this|it)(?:'s|\s+is)\b/i.test(text.trim()) || text.trim().split(/\s+/).length <= 3)
      const sumsUp = state.lastCreated?.kind === 'outcome' && language === 'en' && /^(?:so|that's|which|it's|it is|it was)\b/i.test(text.trim())
      if (state.lastCreated?.kind !== 'question' && !pointsBack && !sumsUp) state.lastCreated = undefined
    } else {
      const speaker = speakerOf(people, segment)
      // "One worry." said alone and the risk in the speaker's next segment (a pause split them into two turns).
      const isWorryPending = state?.isWorryPending === true && samePerson(state.speaker, speaker)
      state = { index, segment, position, isRecap: false, isRecapHeader: false, speaker, language, cues: cuesFor(language), clausesSeen: 0, isAgreementPending: false, wasAgreeing: false, isWorryPending }
      speakers[index] = state.speaker
    }
    readSegment(state, text)
  })
  return { drafts, nearDuplicates }

  function readSegment(state: SegmentState, text: string): void {
    const { segment } = state
    const sentences = splitSentences(text)
    sentences.forEach((sentence, sentenceIndex) => {
      let body = sentence
      // The sentence before, or (after only "Yep.") the segment said before this one ("We keep doing what we agreed last month. The door check." — "Yep. That stays.").
      const said = sentences.slice(0, sentenceIndex).join(' ')
      const before = said.split(/\s+/).filter(Boolean).length > 3 ? sentences[sentenceIndex - 1] : [segments[state.position - 1]?.text, said].filter(Boolean).join(' ')
      const withPrevious = [before, sentence].filter(Boolean).join(' ')
      const recap = state.cues.recap.exec(sentence)
      if (recap) {
        state.isRecap = true
        body = sentence.slice(recap.index + recap[0].length)
        state.isRecapHeader ||= !/[\p{L}\p{N}]/u.test(body)
      }
      const isRecap = state.isRecap
      const addressed = state.vocative ? `${state.vocative}, ${sentence}` : sentence
      state.vocative = isOnlyName(sentence) ? sentence.replace(/[.!?。！？]+$/u, '').trim() : undefined
      const splitContext: ClauseContext = { cues: state.cues, people, sentence: addressed, isRecap, today }
      const clauses = isRecap
        ? recapClauses(body, state.cues, people)
        : joinConditions(body.split(state.cues.clauseSplit).flatMap((piece) => clausesByKind(piece, splitContext)), state.cues)
      state.sentence = sentence
      clauses.forEach((clause, clauseIndex) => {
        if (!clause.trim()) return
        const context: ClauseContext = { cues: state.cues, people, sentence: addressed, withPrevious, isRecap, today }
        const signals = classifyClause(clause, context)
        const anchor = `${segment.id}#${sentenceIndex}.${clauseIndex}`
        if (state.isAgreementPending && !signals.candidate && !signals.confirmation) {
          const agreed = agreedStatement(clause, context)
          if (agreed) signals.candidate = agreed
        }
        state.isAgreementPending = false
        const isFiller = /^(?:though|then|so|okay|right|yeah)[.,!:]?$/i.test(clause.trim())
        if (state.isWorryPending && !isFiller && (!signals.candidate || signals.candidate.kind === 'decision' || signals.candidate.kind === 'outcome')) {
          const risk = announcedRisk(clause, context)
          if (risk) signals.candidate = risk
        }
        state.isWorryPending = state.cues.language === 'en' && (announcesWorry(clause) || (state.isWorryPending === true && isFiller))
        if (state.isWorryPending) signals.candidate = undefined
        if (!signals.candidate && !signals.confirmation && !signals.acceptance && state.wasAgreeing) {
          const summed = summedUpAfterYes(clause, context)
          if (summed) signals.candidate = summed
        }
        if (!signals.candidate && !signals.confirmation && !signals.acceptance && state.wasAgreeing) {
          const settling = settledAfterYes(clause, context)
          if (settling && settledBy(state)) signals.candidate = settling
        }
        // "Batteries, then.", "England then.", "New feet, then.": an option raised in the turns just before, settled on without a yes.
        if (!signals.candidate && !signals.confirmation && !signals.acceptance && state.language === 'en') {
          const settling = settledAfterYes(clause, context)
          if (settling && optionRaised(state, clause)) signals.candidate = settling
        }
        const asked = !signals.candidate && !signals.confirmation && state.clausesSeen === 0 ? asksChoice(state, clause) : undefined
        if (asked) {
          const chosen = answeredChoice(clause, context, asked === 'option')
          if (chosen) signals.candidate = chosen
        }
        const count = drafts.length
        const touched = place(signals, clause, anchor, state)
        if ((touched?.kind === 'action' || touched?.kind === 'outcome') && signals.candidate?.kind === touched.kind) {
          const reference = referenceIn(clause, context)
          if (reference) dedupeOrCreate(reference, `${anchor}#reference`, state)
        }
        if (touched) state.lastTouched = touched
        // "Let's leave that open for now. I'm not sure we can fit it in.": what follows an open question it points back at goes on with it.
        const keptOpen = signals.candidate?.kind === 'question' && touched?.kind === 'question'
        const saidSomething = Boolean(signals.candidate && (!signals.candidate.referring || keptOpen))
        state.lastCreated = drafts.length > count ? drafts[drafts.length - 1] : saidSomething ? touched : undefined
        state.wasAgreeing = !signals.candidate && (signals.acceptance || signals.confirmation)
        // A bare "Fine." agrees with nothing in particular: what the turn says next is what was agreed ("Fine. Twenty-five minutes then.").
        if (!signals.candidate && !signals.confirmation && BARE_FINE.test(clause.trim())) {
          state.isAgreementPending = true
          state.wasAgreeing = true
        }
        state.clausesSeen += 1
        state.previousClause = clause
      })
    })
  }

  function place(signals: ClauseSignals, clause: string, anchor: string, state: SegmentState): Draft | undefined {
    let candidate = signals.candidate
    if (candidate?.kind === 'decision' && state.language === 'en' && WE_TAKE_IT.test(clause.trim())) {
      // "Sure. We'll do it after lunch." once the request was taken: more of the same work, not a choice.
      const taken = state.lastTouched
      if (taken?.kind === 'action' && taken.isAccepted && taken.mentions.some((mention) => mention.segmentIndex === state.index)) {
        addMention(taken, state, clause, undefined)
        return taken
      }
      // "Yeah, we'll grab them Friday morning." answering "can your guys bring them up Friday?": the team takes the work.
      const asked = segments[state.position - 1]
      if (asked && turnOf[state.position - 1] !== state.index && ASKS_YOU.test(asked.text)) candidate = signals.candidate = { ...candidate, kind: 'action', semanticType: 'task', confidence: 0.7, owner: { mode: 'speaker' } }
    }
    const accepted = acceptRequest(signals, clause, state) ?? answerWhen(clause, state)
    if (accepted) return accepted
    let confirmed: Draft | undefined
    if (signals.acceptance || signals.confirmation) {
      // A plain yes answers the last turn; "Let's do it." may come after a question or two about the proposal ("What does that cost?").
      const reach = signals.confirmation ? 3 : 1
      const proposal = latest((draft) => draft.isProposal && draft.confidence < 0.7 && draft.lastSegmentIndex >= state.index - reach
        && draft.lastSegmentIndex < state.index && !samePerson(draft.mentions[0]?.speaker, state.speaker))
      // Further back, only when nothing but questions was said since (else the yes is for what was).
      const isNear = proposal !== undefined && proposal.lastSegmentIndex >= state.index - 1
      const overtaken = proposal && latest((draft) => draft.order > proposal.order && draft.confidence >= DEFAULT_QUALITY_GATE
        && (draft.kind === 'decision' || (!isNear && draft.kind !== 'question')))
      if (proposal && !overtaken) {
        // "Yeah, let's make it ten minutes.": the yes and what it restates are one mention of the proposal.
        if (candidate?.kind === 'decision') merge(proposal, candidate, state)
        else addMention(proposal, state, clause, undefined)
        proposal.confidence = Math.max(proposal.confidence, 0.7)
        if (candidate?.kind === 'decision') return proposal
        confirmed = proposal
        state.confirmedHere = proposal
      }
    }
    if (signals.confirmation && !confirmed) {
      confirmed = latest((draft) => draft.kind === 'decision' && draft.lastSegmentIndex >= state.index - 2)
      if (confirmed && !confirmed.mentions.some((mention) => mention.segmentIndex === state.index)) {
        addMention(confirmed, state, clause, undefined)
        confirmed.confidence = Math.min(0.95, confirmed.confidence + 0.1)
      }
      if (!confirmed && !candidate) state.isAgreementPending = true
    }
    if (!candidate) return confirmed ?? carryDueDate(clause, state)
    // "That's settled then", "确定了": agreement with nothing new to record.
    if (signals.confirmation && candidate.kind === 'decision' && candidate.topic.size <= 1) {
      // "Let's do that." with nothing to attach to: the next statement says what was agreed.
      if (!confirmed) state.isAgreementPending = true
      return confirmed
    }
    if (candidate.kind === 'action') {
      const action = placeAction(candidate, anchor, state)
      takenUp(action, state)
      return action
    }
    // "Okay, let's do the grant.": in the meeting's first turn nothing has been discussed yet; a bare "let's…" sets the agenda.
    if (candidate.kind === 'decision' && state.index === 0 && candidate.confidence <= 0.6 && !candidate.isProposal && AGENDA_LETS.test(candidate.text)) return undefined
    const restated = state.confirmedHere
    if (candidate.kind === 'decision' && restated && restated === state.lastTouched && !candidate.addition && !candidate.revision) {
      merge(restated, candidate, state)
      return restated
    }
    // "Fine, all queue configs then." settles the choice just discussed: the same decision.
    const settled = candidate.settles ? settledBy(state) : undefined
    if (settled) {
      merge(settled, candidate, state)
      settled.confidence = Math.max(settled.confidence, 0.7)
      return settled
    }
    if (candidate.kind === 'decision' && (signals.acceptance || signals.confirmation || state.wasAgreeing)) {
      // "OK, let's do the hourly cache then": a yes that restates the proposal just made.
      const proposed = latest((draft) => draft.kind === 'decision' && draft.lastSegmentIndex >= state.index - 1 && draft.lastSegmentIndex < state.index)
      if (proposed && overlapCoefficient(candidate.topic, proposed.topic) > 0) {
        merge(proposed, candidate, state)
        return proposed
      }
      // "Agreed. So we go with the built-in one.": the yes just confirmed a decision; this restates it.
      const agreedTo = state.lastTouched
      if (state.wasAgreeing && agreedTo?.kind === 'decision' && agreedTo.lastSegmentIndex === state.index && !candidate.addition && !candidate.revision) {
        merge(agreedTo, candidate, state)
        return agreedTo
      }
    }
    if (candidate.kind === 'question' && candidate.referring) {
      // "Let's keep it on the list." may close a question asked three turns back, with its answers between.
      const reach = candidate.explicitlyOpen ? 3 : 2
      const asked = latest((draft) => draft.kind === 'question' && draft.lastSegmentIndex >= state.index - reach)
      if (asked) {
        merge(asked, candidate, state)
        return asked
      }
    }
    const previous = state.lastCreated
    if (previous && previous.kind === candidate.kind && candidate.kind !== 'reference') {
      merge(previous, candidate, state)
      return previous
    }
    return dedupeOrCreate(candidate, anchor, state)
  }

  /**
   * "Let's ask for an expedited review." — "Sure, I'll submit it and request expedited.": a bare "let's" that
   * another speaker then takes on was work handed out, not a decision; it becomes part of that action.
   */
  function takenUp(action: Draft, state: SegmentState): void {
    if (!samePerson(action.mentions[action.mentions.length - 1]?.speaker, state.speaker)) return
    const handedOut = latest((draft) => draft.kind === 'decision' && Boolean(draft.isLetsOnly) && draft.mentions.length === 1
      && draft.lastSegmentIndex >= state.index - 2 && draft.lastSegmentIndex < state.index
      && !samePerson(draft.mentions[0]?.speaker, state.speaker) && overlapCoefficient(draft.topic, action.topic) > 0)
    if (!handedOut) return
    handedOut.confidence = 0.2
    handedOut.isLetsOnly = false
    action.mentions.push(...handedOut.mentions)
    action.firstSegmentIndex = Math.min(action.firstSegmentIndex, handedOut.firstSegmentIndex)
    addInto(action.topic, handedOut.topic)
  }

  /** What "Fine, Postgres then." settles: the decision just discussed, or another speaker's proposal a few turns back. */
  function settledBy(state: SegmentState): Draft | undefined {
    return latest((draft) => draft.kind === 'decision' && draft.lastSegmentIndex >= state.index - 2)
      ?? latest((draft) => draft.isProposal && draft.lastSegmentIndex >= state.index - 3 && draft.lastSegmentIndex < state.index && !samePerson(draft.mentions[0]?.speaker, state.speaker))
  }

  /** A word of "X, then" said in one of the four segments before (the option was on the table). */
  function optionRaised(state: SegmentState, clause: string): boolean {
    const words = contentTokens(clause.toLowerCase().replace(/\bthen\b.*$/, ''))
    if (words.length === 0) return false
    const before = segments.slice(Math.max(0, state.position - 4), state.position).map((segment) => segment.text.toLowerCase())
    return words.some((word) => before.some((text) => contentTokens(text).includes(word)))
  }

  function isOnlyName(sentence: string): boolean {
    return sentence.trim().split(/\s+/).length <= 2 && findAddressedPerson(people, sentence) !== undefined
  }

  /**
   * The previous segment, someone else's, asked for a choice or a rule ("should we…?", "要不要…？"), or named two options
   * ("Rail or trucks?") that the reply opens with ("Trucks. I'm not having it sit on a rail car.").
   */
  function asksChoice(state: SegmentState, clause: string): 'choice' | 'option' | undefined {
    const asked = latest((draft) => draft.kind === 'question' && draft.firstSegmentIndex === state.index - 1)
    const question = asked?.mentions[0]
    if (!question || samePerson(question.speaker, state.speaker) || !state.cues.choiceQuestion) return undefined
    const text = state.language === 'en' ? question.text.toLowerCase() : question.text
    if (state.cues.choiceQuestion.test(text)) return 'choice'
    const options = state.language === 'en' ? EITHER_OR.exec(text.trim()) : null
    const [opening] = clause.toLowerCase().replace(/^\W*(?:(?:the|a|an|our|oh|um|uh|well|okay|ok|yeah|so)\b\W*)*/, '').match(/[a-z][\w'-]*/) ?? []
    const isOptionAlone = clause.trim().split(/\s+/).length <= 3
    const named = options !== null && opening !== undefined && isOptionAlone && [options[1], options[2]].some((option) => option!.split(/\s+/).filter((word) => !/^(?:the|a|an|our)$/.test(word)).includes(opening))
    return named ? 'option' : undefined
  }

  /** "Aisha, when is it ready?" — "End of next week.": her action, due then. */
  function answerWhen(clause: string, state: SegmentState): Draft | undefined {
    if (state.clausesSeen > 0) return undefined
    const asked = latest((draft) => draft.kind === 'question' && draft.asksWhen && draft.lastSegmentIndex === state.index - 1
      && (draft.asksWhenOf ? samePerson(draft.asksWhenOf, state.speaker) : !samePerson(draft.mentions[0]?.speaker, state.speaker)))
    const dueDate = asked && resolveDueDate(clause, state.language, today)
    if (!asked || !dueDate) return undefined
    asked.asksWhen = false
    const dependency = state.cues.dependency.exec(clause.toLowerCase())
    // "I'll ask Priyanka." — "How soon can you get an answer?": asked right after the answerer's own commitment, about it.
    const existing = latest((draft) => draft.kind === 'action' && samePerson(draft.owner, state.speaker)
      && (overlapCoefficient(draft.topic, asked.topic) > 0 || draft.lastSegmentIndex >= asked.firstSegmentIndex - 1))
    if (existing) {
      addMention(existing, state, clause, undefined)
      if (!existing.dueDate) existing.dueDate = dueDate
      if (!existing.dependencyText && dependency) existing.dependencyText = dependency[1] ?? dependency[2] ?? dependency[3]
      return existing
    }
    const action = create({ ...fromQuestion(asked), dueDate }, `${state.segment.id}#answer`, state, state.speaker)
    if (dependency) action.dependencyText = dependency[1] ?? dependency[2] ?? dependency[3]
    return action
  }

  function fromQuestion(question: Draft): Candidate {
    const asked = question.mentions[0]!
    return {
      kind: 'action', semanticType: 'task', confidence: 0.7, owner: { mode: 'speaker' }, text: asked.text,
      title: asked.title.replace(/^(?:when|by when)\s+(?:do you think|can you have|will|would|could|can|is|are|do)\s+/i, '').replace(/^./, (first) => first.toUpperCase()),
      topic: new Map(question.topic), referring: false, claim: false, open: false, isRequest: false, isRecap: false,
      explicitlyOpen: false, isProposal: false, asksWhen: false, addition: false, revision: false,
    }
  }

  /** "Sure" / "I'll have it by Thursday" from the person a request was just addressed to. */
  function acceptRequest(signals: ClauseSignals, clause: string, state: SegmentState): Draft | undefined {
    const candidate = signals.candidate
    const pending = latest((draft) => draft.kind === 'action' && !draft.isAccepted && answersFor(draft, state.speaker)
      && draft.lastSegmentIndex < state.index && draft.lastSegmentIndex >= state.index - 2)
    if (!pending) return undefined
    // "Already drafted it. I'll roll it out tomorrow.": what came before the yes said nothing of its own.
    const isFirstClause = state.clausesSeen === 0 || state.lastTouched === pending || state.lastTouched === undefined
    const takesIt = signals.acceptance || (candidate?.kind === 'action' && candidate.owner.mode === 'speaker' && !candidate.addition)
    if (!isFirstClause || !takesIt) return undefined
    pending.isAccepted = true
    // A voice not known as anyone ("Speaker 3") answering for the person asked by name: that person.
    pending.owner = !pending.requestTo || pending.requestGuessed || samePerson(pending.requestTo, state.speaker) ? state.speaker : pending.requestTo
    addMention(pending, state, clause, candidate)
    if (candidate?.kind === 'action') absorb(pending, candidate)
    else if (!pending.dueDate) setDueDate(pending, resolveDueDate(clause, state.language, today))
    pending.confidence = Math.min(0.95, pending.confidence + 0.05)
    return pending
  }

  /**
   * Whether the speaker answers a request: they are the person it was addressed to; or (recognized
   * speech, where voices are "Speaker N") a voice known as no one answers a request made by name
   * to a person no voice is known as; or the request named no one. Never the one who asked.
   */
  function answersFor(draft: Draft, speaker: Person): boolean {
    if (samePerson(draft.requestTo, speaker)) return true
    if (samePerson(draft.mentions[0]?.speaker, speaker)) return false
    // "Can you…" naming no one was taken to speak to whoever spoke last; when voices are known as no
    // one, that guess is weak: whoever says yes is who it asked. (Between known people, a yes from
    // someone else may be a partner's: "Can you pair with Yusuf on it?" — Yusuf: "Happy to".)
    const unlinked = Boolean(speaker.speakerId && !people.linkedSpeakerIds.has(speaker.speakerId))
    if (draft.requestGuessed && unlinked) return true
    const asked = draft.requestTo
    if (asked) return Boolean(asked.name && !asked.speakerId && unlinked)
    // "Can you write the proposal?" with no one named or just heard: whoever answers first.
    return draft.semanticType === 'request' && !draft.owner && Boolean(speaker.speakerId || speaker.name)
  }

  function placeAction(said: Candidate, anchor: string, state: SegmentState): Draft {
    let candidate = said
    const owner = resolveOwner(candidate, state)
    const open = latest((draft) => draft.kind === 'action' && draft.isOpen && !draft.owner && draft.lastSegmentIndex >= state.index - 2)
    if (open && (owner || candidate.referring)) {
      const isAdjacent = open.lastSegmentIndex >= state.index - 1
      // A request naming its own work ("Priya, can you update the pricing page?") takes over the open
      // item only when it is about the same thing, not when it merely shares a word ("update").
      const overlap = overlapCoefficient(candidate.topic, open.topic)
      const isRelated = candidate.referring || candidate.claim || state.cues.pronoun.test(candidate.text.toLowerCase())
        || (candidate.isRequest ? overlap >= REQUEST_TAKES_OPEN : overlap > 0)
      // "We have to tell people why it's late." … "I'll draft the letter.": who raised the work takes it.
      const raisedIt = Boolean(owner) && !candidate.isRequest && samePerson(open.mentions[0]?.speaker, state.speaker)
      if ((isAdjacent && owner && !candidate.isRequest) || raisedIt || isRelated) {
        merge(open, candidate, state)
        if (owner) {
          open.owner = owner
          open.isOpen = false
          // "Felix, would you write the runbook?" taking the open item still waits for Felix's yes.
          if (candidate.isRequest) open.requestTo = owner
        }
        return open
      }
    }
    if (!candidate.dueDate && state.sentence && DEADLINE_WORDS.test(state.sentence)) {
      const sentenceDue = resolveDueDate(state.sentence, state.language, today)
      if (sentenceDue) candidate = { ...candidate, dueDate: sentenceDue }
    }
    // "Great, Julia, can you have it by Friday?" right after Julia took it: the same item.
    if (candidate.isRequest && owner && !candidate.addition) {
      const taken = latest((draft) => draft.kind === 'action' && samePerson(draft.owner, owner) && draft.lastSegmentIndex >= state.index - 1 && draft.lastSegmentIndex < state.index
        && (candidate.referring || overlapCoefficient(candidate.topic, draft.topic) > 0))
      if (taken) {
        merge(taken, candidate, state)
        return taken
      }
    }
    const previous = state.lastTouched
    if (previous?.kind === 'action' && previous.lastSegmentIndex === state.index && previous.mentions[previous.mentions.length - 1]?.referring
      && !candidate.addition && !candidate.isRecap
      && (!owner || !previous.owner || samePerson(owner, previous.owner) || tookIt(previous, state)) && !(candidate.isRequest && !samePerson(owner, previous.owner))) {
      merge(previous, candidate, state)
      if (owner && !previous.owner) previous.owner = owner
      return previous
    }
    // "Sure." then "I'll have it ready by Thursday.": the request this speaker just took, when
    // the yes and the rest come as two sentences.
    if (candidate.referring && !candidate.isRequest && !candidate.addition) {
      const accepted = latest((draft) => draft.kind === 'action' && Boolean(draft.isAccepted) && draft.lastSegmentIndex >= state.index - 1
        && samePerson(draft.mentions[draft.mentions.length - 1]?.speaker, state.speaker))
      if (accepted) {
        merge(accepted, candidate, state)
        return accepted
      }
    }
    if (candidate.referring) return createReferring(candidate, anchor, state, owner)
    if (candidate.isRecap) {
      const recapped = best((draft) => draft.kind === 'action' && samePerson(draft.owner, owner), candidate.topic, (a, b) => Math.max(cosine(a, b), overlapCoefficient(a, b)))
      if (recapped && (recapped.similarity >= 0.3 || cosine(candidate.topic, recapped.draft.topic) >= 0.15)) {
        merge(recapped.draft, candidate, state)
        return recapped.draft
      }
    }
    return dedupeOrCreate(candidate, anchor, state, owner)
  }

  /** This speaker just said yes to the request (the owner may be the person it named: "Speaker 3" answering for Lucy). */
  function tookIt(draft: Draft, state: SegmentState): boolean {
    return draft.isAccepted && samePerson(draft.mentions[draft.mentions.length - 1]?.speaker, state.speaker)
  }

  /** "I'll do it" with nothing open: the item is what was just said; ask when that is unclear. */
  function createReferring(candidate: Candidate, anchor: string, state: SegmentState, owner: Person | undefined): Draft {
    const antecedent = state.lastTouched ?? latest((draft) => draft.lastSegmentIndex === state.index - 1 && draft.kind !== 'action')
    // "we should do both" after a decision: more of that decision, not new work.
    if (antecedent?.kind === 'decision' && !owner && !candidate.isRequest) {
      merge(antecedent, { ...candidate, kind: 'decision', semanticType: antecedent.semanticType }, state)
      return antecedent
    }
    const draft = create(candidate, anchor, state, owner)
    if (antecedent) {
      draft.contextTitle = antecedent.kind === 'action' ? undefined : titleOf(antecedent)
      return draft
    }
    const context = state.previousClause ?? segments[state.position - 1]?.text
    if (context) draft.contextTitle = `${candidate.title}: ${truncate(context.trim().replace(/[。.!！?？]+$/u, ''), 70)}`
    draft.hasUnresolvedReference = !state.previousClause
    return draft
  }

  /** "I'll ask legal. I'm meeting them on Tuesday": a date right after the speaker's own action dates it. */
  function carryDueDate(clause: string, state: SegmentState): undefined {
    const previous = state.lastTouched
    if (previous?.kind === 'action' && !previous.dueDate && samePerson(previous.owner, state.speaker)) {
      setDueDate(previous, resolveDueDate(clause, state.language, today))
    }
    return undefined
  }

  function setDueDate(draft: Draft, dueDate: string | undefined): void {
    if (dueDate) draft.dueDate = dueDate
  }

  function dedupeOrCreate(candidate: Candidate, anchor: string, state: SegmentState, owner?: Person): Draft {
    const compatible = (draft: Draft) => draft.kind === candidate.kind && (draft.kind !== 'action' || !owner || !draft.owner || samePerson(owner, draft.owner))
    const match = best(compatible, candidate.topic, cosine)
    if (match && match.similarity >= MERGE_THRESHOLD[candidate.kind]) {
      merge(match.draft, candidate, state)
      if (owner && !match.draft.owner) match.draft.owner = owner
      return match.draft
    }
    // Too far apart to merge, or taken by different people: a person decides whether it is the same.
    const nearest = best((draft) => draft.kind === candidate.kind, candidate.topic, cosine)
    const draft = create(candidate, anchor, state, owner)
    if (nearest && nearest.similarity >= NEAR_DUPLICATE) nearDuplicates.push({ from: draft, to: nearest.draft, similarity: nearest.similarity })
    return draft
  }

  function create(candidate: Candidate, anchor: string, state: SegmentState, owner: Person | undefined): Draft {
    const draft: Draft = {
      order: drafts.length,
      kind: candidate.kind,
      semanticType: candidate.semanticType,
      confidence: candidate.confidence,
      anchor,
      language: state.language,
      mentions: [],
      topic: new Map(),
      isAccepted: false,
      isOpen: candidate.open,
      hasUnresolvedReference: false,
      isRevision: candidate.revision,
      isExplicitlyOpen: false,
      isProposal: candidate.isProposal,
      asksWhen: candidate.asksWhen,
      ...(candidate.asksWhenOf ? { asksWhenOf: candidate.asksWhenOf } : {}),
      firstSegmentIndex: state.index,
      lastSegmentIndex: state.index,
      ...(owner ? { owner } : {}),
      ...(candidate.isRequest && owner ? { requestTo: owner } : {}),
      ...(candidate.isRequest && candidate.owner.mode === 'addressee' && !candidate.owner.person ? { requestGuessed: true } : {}),
      ...(candidate.choiceObject ? { choiceObject: candidate.choiceObject } : {}),
      ...(candidate.letsOnly ? { isLetsOnly: true } : {}),
    }
    merge(draft, candidate, state)
    drafts.push(draft)
    return draft
  }

  function merge(draft: Draft, candidate: Candidate, state: SegmentState): void {
    addMention(draft, state, candidate.text, candidate)
    absorb(draft, candidate)
    if (draft.mentions.length > 1) draft.confidence = Math.max(draft.confidence, candidate.confidence)
  }

  function absorb(draft: Draft, candidate: Candidate): void {
    addInto(draft.topic, candidate.topic)
    if (!draft.dueDate && candidate.dueDate) draft.dueDate = candidate.dueDate
    if (!draft.dependencyText && candidate.dependencyText) draft.dependencyText = candidate.dependencyText
    if (!draft.choiceObject && candidate.choiceObject) draft.choiceObject = candidate.choiceObject
    if (candidate.explicitlyOpen) draft.isExplicitlyOpen = true
    if (candidate.semanticType === 'policy' || candidate.semanticType === 'metric' || candidate.semanticType === 'risk') draft.semanticType = candidate.semanticType
  }

  function addMention(draft: Draft, state: SegmentState, text: string, candidate: Candidate | undefined): void {
    draft.mentions.push({
      segmentIndex: state.index,
      segmentId: state.segment.id,
      speaker: state.speaker,
      text: text.trim(),
      title: candidate?.title ?? '',
      topicSize: candidate?.topic.size ?? 0,
      referring: candidate ? candidate.referring : true,
    })
    draft.lastSegmentIndex = Math.max(draft.lastSegmentIndex, state.index)
  }

  function resolveOwner(candidate: Candidate, state: SegmentState): Person | undefined {
    switch (candidate.owner.mode) {
      case 'speaker': return isKnown(state.speaker) ? state.speaker : undefined
      case 'named': return candidate.owner.person
      case 'addressee':
        if (candidate.owner.isBroadcast && distinctSpeakers() > 2) return undefined
        return candidate.owner.person ?? previousOtherSpeaker(state)
      case 'none': return undefined
    }
  }

  function distinctSpeakers(): number {
    return new Set(speakers.map((speaker) => speaker.speakerId ?? speaker.name)).size
  }

  /** "Can you…" without a name speaks to whoever spoke last, other than the asker. */
  function previousOtherSpeaker(state: SegmentState): Person | undefined {
    for (let index = state.index - 1; index >= Math.max(0, state.index - 3); index -= 1) {
      const speaker = speakers[index]
      if (isKnown(speaker) && !samePerson(speaker, state.speaker)) return speaker
    }
    return undefined
  }

  function latest(predicate: (draft: Draft) => boolean): Draft | undefined {
    for (let index = drafts.length - 1; index >= 0; index -= 1) if (predicate(drafts[index]!)) return drafts[index]
    return undefined
  }

  function best(predicate: (draft: Draft) => boolean, topic: TermVector, measure: (a: TermVector, b: TermVector) => number) {
    let found: { draft: Draft; similarity: number } | undefined
    for (const draft of drafts) {
      if (!predicate(draft)) continue
      const similarity = measure(topic, draft.topic)
      if (similarity > (found?.similarity ?? 0)) found = { draft, similarity }
    }
    return found
  }
}
