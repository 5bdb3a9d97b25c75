// One clause → what it is: an action, decision, question, outcome or reference candidate, plus
// the signals that link it to what came before (agreement, acceptance, a pronoun for a referent).
// Rules only look at the clause and its sentence; context is the assembler's job.
import type { CueSet } from './cues.ts'
import { resolveDueDate, type LocalDate } from './due-dates.ts'
import { findAddressedPerson, findAssignedPerson, leadingAddressee, namesIn, type People, type Person } from './owners.ts'
import { contentTokens, termVector, type TermVector } from './text.ts'
import { pointsAtArtifact, saysTicket, SPOKEN_NUMBER } from './references.ts'
import { makeTitle } from './titles.ts'
import type { ItemKind, SemanticType } from './types.ts'

export type OwnerHint =
  | { mode: 'speaker' }
  | { mode: 'named'; person: Person }
  | { mode: 'addressee'; person?: Person; isBroadcast?: boolean }
  | { mode: 'none' }

export type Candidate = {
  kind: ItemKind
  semanticType: SemanticType
  confidence: number
  owner: OwnerHint
  text: string
  title: string
  topic: TermVector
  /** The object is only a pronoun ("I'll do it"): the item is one already being discussed. */
  referring: boolean
  claim: boolean
  /** Work put up for a volunteer ("who owns that?", "we need someone to…"). */
  open: boolean
  isRequest: boolean
  isRecap: boolean
  /** "Let's keep it as an open question": the question stays open whatever answers follow. */
  explicitlyOpen: boolean
  /** "I suggest…": a decision only once someone else agrees. */
  isProposal: boolean
  /** "Aisha, when will the proposal be ready?": the answer's date makes it the answerer's action. */
  asksWhen: boolean
  asksWhenOf?: Person
  addition: boolean
  revision: boolean
  /** Only a bare "let's <do something>" ("let's ask for an expedited review"). */
  letsOnly?: boolean
  /** "Fine, all queue configs then": settles the choice under discussion. */
  settles?: boolean
  choiceObject?: string
  dependencyText?: string
  dueDate?: string
}

export type ClauseSignals = { confirmation: boolean; acceptance: boolean; candidate?: Candidate }

export type ClauseContext = {
  cues: CueSet
  people: People
  /** The whole sentence, where the addressee may be named outside the clause. */
  sentence: string
  /** This sentence with the speaker's sentence before it ("We set that in the spring. That stays."). */
  withPrevious?: string
  isRecap: boolean
  today: LocalDate
}

function normalize(text: string, cues: CueSet): string {
  const straight = text.replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim()
  return cues.language === 'en' ? spokenForm(straight.toLowerCase()) : straight
}

/**
 * Speech as recognized or transcribed verbatim: hesitations ("um", "uh", "you know" as a filler)
 * and false starts ("i'll i'll send", "we we decided") leave the words the rules read.
 */
export function spokenForm(lower: string): string {
  const known = spokenForms.get(lower)
  if (known !== undefined) return known
  const form = readSpoken(lower)
  // The rules read one clause many times: each form is computed once (a bounded cache, emptied when full).
  if (spokenForms.size >= SPOKEN_FORMS_KEPT) spokenForms.clear()
  spokenForms.set(lower, form)
  return form
}

const SPOKEN_FORMS_KEPT = 20_000
const spokenForms = new Map<string, string>()

function readSpoken(lower: string): string {
  return lower
    .replace(/(^|[\s,])(?:um+|uh+|erm|er|hmm+|mm+)(?=[\s,.!?]|$)[,]?/g, '$1')
    .replace(/(?<!\b(?:do|did|does|don't|didn't|would|if|as|what|who|whether|you|ya)\s)\byou know\b,?\s*/g, '')
    .replace(/\b([a-z]+(?:'[a-z]+)?)(?:,?\s+\1\b)+/g, '$1')
    // pocketsphinx hears a clipped "I'll" as "by all" ("by all draft the letter"); "by all means/accounts" stay.
    .replace(/(^|[.!?,]\s+|\s)by all (?!means\b|accounts\b|of\b|the\b|these\b|those\b|this\b|that\b|our\b|their\b|your\b|my\b|its\b|his\b|her\b|them\b|us\b|you\b|me\b|counts\b|standards\b|[a-z]+ed\b|[a-z]+s\b)(?=[a-z]+\b)/g, "$1i'll ")
    // A recognizer splits and hyphenates words a typist joins: "some body has to", "every one", "to-morrow".
    .replace(/\b(some|any|no|every) (body|one)\b(?! of\b)/g, '$1$2')
    .replace(/\b(some|any|no|every) bod(?:ies|y's)\b/g, "$1body's")
    .replace(/\bto-(morrow|night|day)\b/g, 'to$1')
    // …and loses the "'ll" of a commitment with its time ("i write it and queue it for tomorrow morning").
    .replace(DROPPED_WILL, "i'll $1")
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!?])/g, '$1')
    .trim()
}

/** Verbs a commitment takes ("I'll send…"), for the "'ll" a recognizer drops. */
const COMMITTED_VERB = 'send|email|mail|write|call|check|look|ask|book|order|update|fix|add|take|get|finish|draft|review|test|retest|chase|ping|text|share|post|schedule|move|talk|sort|prepare|print|clean|change|contact|confirm|follow up|make|tell|bring|pick|handle|cover|organi[sz]e|file|log|raise|redo|rig|build|run|put|do'
/** A time still to come, as said ("tonight", "by Friday", "tomorrow morning", "next week"). */
const FUTURE_TIME = String.raw`(?:today|tonight|tomorrow|this (?:afternoon|evening|week)|next (?:week|month|monday|tuesday|wednesday|thursday|friday)|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|noon|the end|end of|eod|close|then|the \d|\d))`
/** "i write it and queue it for tomorrow morning": a commitment whose "'ll" the recognizer lost (spokenForm). */
const DROPPED_WILL = new RegExp(String.raw`(?<!\b(?:when|if|before|after|once|until|till|unless|as|whether|that|what|where|how|do|can|should|could|would|did)\s)\bi (${COMMITTED_VERB})\b(?=[^.!?]*\b${FUTURE_TIME}\b)`, 'g')

/** "Do I need to present…?", "am I supposed to…": the speaker asks about their own part; by wording, with or without "?". */
const ASKS_ABOUT_SELF = /^(?:do|did|am|must|have) i\b|^(?:should|will|would|can|could) i (?:need|have|be|present|attend|join|bring|prepare|talk|speak|go|come|expect)\b/

function stripFillers(text: string, cues: CueSet): string {
  let current = text
  for (let pass = 0; pass < 6; pass += 1) {
    const next = current.replace(cues.leadingFiller, '')
    if (next === current) break
    current = next
  }
  return current
}

const position = (pattern: RegExp | undefined, text: string) => {
  if (!pattern) return -1
  const match = pattern.exec(text)
  return match ? match.index : -1
}
const earliest = (...positions: number[]) => {
  const found = positions.filter((value) => value >= 0)
  return found.length ? Math.min(...found) : -1
}

type Kinded = Pick<Candidate, 'kind' | 'semanticType' | 'confidence'> & Partial<Candidate> & { needsFutureDate?: boolean }

export function classifyClause(clause: string, context: ClauseContext): ClauseSignals {
  const { cues } = context
  const normalized = normalize(clause, cues)
  const body = stripFillers(normalized, cues)
  const signals: ClauseSignals = {
    confirmation: cues.confirmation.test(normalized) || cues.confirmation.test(body),
    // "Yeah, forget that then.", "Yeah, bad idea.": a yes that takes the proposal back.
    acceptance: cues.acceptance.test(normalized) && !(cues.language === 'en' && WITHDRAWS.test(normalize(context.sentence, cues))),
  }
  if (!body || cues.logistics.test(body) || cues.logistics.test(normalized)) return signals
  const kinded = context.isRecap ? recapAction(body, context) ?? recapReference(body, clause, cues) : decideKind(body, clause, context)
  if (!kinded) return signals
  signals.candidate = complete(kinded, clause, body, context)
  return signals
}

function recapAction(body: string, context: ClauseContext): Kinded | undefined {
  const person = findAssignedPerson(context.people, body, true)
  if (!person) return undefined
  return { kind: 'action', semanticType: 'task', confidence: 0.6, owner: { mode: 'named', person }, isRecap: true }
}

/** "需求文档在飞书的会员项目文件夹里" said inside a recap: still a pointer to a document. */
function recapReference(body: string, asSaid: string, cues: CueSet): Kinded | undefined {
  if (cues.referenceLink.test(asSaid)) return { kind: 'reference', semanticType: 'link', confidence: 0.8 }
  if (cues.referenceDocument.test(body)) return { kind: 'reference', semanticType: 'document', confidence: 0.65 }
  return undefined
}

function decideKind(body: string, asSaid: string, context: ClauseContext): Kinded | undefined {
  const { cues, people } = context
  if (cues.openQuestion.test(body)) return { kind: 'question', semanticType: 'open-question', confidence: 0.7 }
  if (cues.language === 'en' && OPENS_WITH_WORRY.test(body)) return { kind: 'question', semanticType: 'risk', confidence: 0.7 }
  if (cues.language === 'en' && IF_THEN_TROUBLE.test(body)) return { kind: 'question', semanticType: 'risk', confidence: 0.7 }
  if (cues.language === 'en' && WOULD_RUIN_US.test(body)) return { kind: 'question', semanticType: 'risk', confidence: 0.7 }
  if (cues.language === 'en' && ASKS_ABOUT_SELF.test(body) && !cues.notQuestion.test(body)) return { kind: 'question', semanticType: 'open-question', confidence: 0.65 }
  // "The diocese approved the budget last Friday.", "the hotel in Bukit Bintang renewed, two more years": others' answer, a result (not our choice recalled).
  if (cues.language === 'en' && OTHERS_ANSWERED.test(body)) return { kind: 'outcome', semanticType: 'outcome', confidence: 0.7 }
  if (cues.decisionRecalled.test(body)) return { kind: 'decision', semanticType: 'choice', confidence: 0.25 }
  // "That's what we decided in January, that stays.": the earlier choice kept, not a new one.
  if (cues.language === 'en' && POINTS_BACK_AND_KEEPS.test(body) && cues.decisionRecalled.test(normalize(context.withPrevious ?? context.sentence, cues))) return { kind: 'decision', semanticType: 'choice', confidence: 0.25 }
  if (cues.decisionNegativeChoice?.test(body)) return { kind: 'decision', semanticType: 'choice', confidence: 0.65 }
  if (cues.language === 'en' && AGREED_CHOICE.test(normalize(asSaid, cues))) return { kind: 'decision', semanticType: 'choice', confidence: 0.7, settles: true }
  if (cues.language === 'en' && SUMMED_UP.test(normalize(asSaid, cues)) && isSummary(body)) return { kind: 'decision', semanticType: 'choice', confidence: 0.6 }
  if (cues.language === 'en' && SO_WE_CHOOSE.test(normalize(asSaid, cues))) return { kind: 'decision', semanticType: 'choice', confidence: 0.7 }
  if (cues.language === 'en' && THEN_ITS_NAMED.test(asSaid.trim())) return { kind: 'decision', semanticType: 'choice', confidence: 0.7 }
  if (cues.language === 'en' && ENDS_AFTER.test(body)) return { kind: 'decision', semanticType: 'choice', confidence: 0.7 }
  if (cues.language === 'en' && REVERSES.test(body)) return { kind: 'decision', semanticType: 'choice', confidence: 0.75 }
  if (cues.language === 'en' && THEN_WE_TAKE.test(normalize(asSaid, cues))) return { kind: 'decision', semanticType: 'choice', confidence: 0.7 }
  if (cues.language === 'en' && FROM_NOW.test(body)) return { kind: 'decision', semanticType: 'policy', confidence: 0.7 }

  const addressee = cues.language === 'en' ? leadingAddressee(people, body) : undefined
  // "Chase it again today and copy me this time.", "Ila, update the doc by Friday": work handed over in the imperative, to someone named or with its time.
  const ordered = cues.language === 'en' && (IMPERATIVE.test(addressee?.rest ?? body) || YOU_WILL.test(addressee?.rest ?? body)) && (addressee !== undefined || DUE_SAID.test(body))
  const requestAt = cues.notRequest.test(body) ? -1 : ordered ? 0 : position(cues.request, body)
  const firstPersonAt = cues.notCommitment.test(body) ? -1 : position(cues.firstPerson, body)
  const progressiveAt = position(cues.firstPersonProgressive, body)
  const claimAt = cues.notClaim?.test(normalize(context.sentence, cues)) ? -1 : position(cues.claim, body)
  const solicitationAt = position(cues.ownerSolicitation, body)
  const isYesNoQuestion = cues.questionEnd.test(body) && cues.questionStart.test(body)
  // "I think we should offer fifteen percent": a proposal (a decision once agreed), not work put up for a taker.
  const needAt = isYesNoQuestion || (cues.language === 'en' && TENTATIVE_SHOULD.test(body)) ? -1 : position(cues.collectiveNeed, body)
  const assigned = findAssignedPerson(people, body, false)
  const actionAt = earliest(requestAt, firstPersonAt, progressiveAt, claimAt, solicitationAt, needAt, assigned ? 0 : -1)

  const strongAt = position(cues.decisionStrong, body)
  const choiceAt = position(cues.decisionChoice, body)
  const policyAt = position(cues.decisionPolicy, body)
  // "失败的时候要不要重试？": a rule asked about is not a rule made.
  const conditionalAt = cues.questionEnd.test(body) ? -1 : position(cues.decisionConditional, body)
  // "Let's figure that out later" puts a choice off; it makes none.
  const letsAt = cues.language !== 'en' || ONLY_A_DATE.test(body) ? -1 : position(/\blet(?:'s| us)\s+(?!figure\b|see\b|wait\b|make sure\b|us\b|discuss\b|talk\b|think\b|revisit\b|find out\b|come back\b|be\b|keep an eye\b|flag\b|(?:actually |just )?(?:pick|choose|set|find|agree on) (?:a|an) (?:date|day|time|slot|name)\b)\w/, body)
  const weakPolicyAt = position(cues.decisionPolicyWeak, body)
  // "Let's crack on", "we'll leave it there", "let's sort out who": the meeting's own running, or a
  // choice put off, said with a decision's words; no choice is made (an action it names still is one).
  const decisionAt = cues.language === 'en' && (MEETING_PROCESS.test(body) || isOnlyAStart(body) || KEEPS_WATCHING.test(body) || OTHERS_CONFIRMED.test(body)) ? -1 : earliest(strongAt, choiceAt, policyAt, conditionalAt, letsAt)

  if (actionAt >= 0 && (decisionAt < 0 || actionAt <= decisionAt)) {
    return actionKind(body, context, { requestAt, firstPersonAt, progressiveAt, claimAt, solicitationAt, needAt, assigned, addressed: addressee?.person })
  }
  if (decisionAt >= 0) {
    const isPolicy = policyAt >= 0 || weakPolicyAt >= 0
    const confidence = strongAt >= 0 ? 0.85 : policyAt >= 0 || choiceAt >= 0 ? 0.75 : 0.6
    const letsOnly = decisionAt === letsAt && strongAt < 0 && choiceAt < 0 && policyAt < 0 && conditionalAt < 0 && weakPolicyAt < 0
    return { kind: 'decision', semanticType: isPolicy ? 'policy' : 'choice', confidence, ...(letsOnly ? { letsOnly: true } : {}) }
  }
  if (cues.referenceLink.test(asSaid)) return { kind: 'reference', semanticType: 'link', confidence: 0.85 }
  // "The reset failed again, same bug, live 2291": a result reported with its ticket is the result; the ticket is added beside it.
  if (cues.language === 'en' && saysTicket(body) && !(cues.outcomeDone.test(body) && !cues.notOutcome.test(body))) return { kind: 'reference', semanticType: 'link', confidence: 0.7 }
  // "初稿已经写完了，放在共享文档里": progress reported as such is the item; the assembler adds the
  // document beside it. "文档我写好了，放在知识库里" only points at the document.
  const isReported = /\balready\b|已经/.test(body) && cues.outcomeDone.test(body) && !cues.notOutcome.test(body)
  if (cues.referenceDocument.test(body) && !isReported) return { kind: 'reference', semanticType: 'document', confidence: 0.7 }
  const isQuestion = cues.questionEnd.test(body) || cues.questionStart.test(body)
  if (cues.proposal.test(body) && !proposes(body, cues)) return undefined
  if (proposes(body, cues) && !cues.questionEnd.test(body)) return { kind: 'decision', semanticType: 'choice', confidence: 0.4, isProposal: true }
  if (isQuestion && !cues.notQuestion.test(body)) {
    if (proposes(body, cues)) return { kind: 'decision', semanticType: 'choice', confidence: 0.4, isProposal: true }
    if (cues.risk.test(body)) return { kind: 'question', semanticType: 'risk', confidence: 0.7 }
    // Asked by its wording alone ("can someone tell me whether…", typed or recognized without "?"):
    // a question word opening the clause is as good a sign as the mark.
    return { kind: 'question', semanticType: 'open-question', confidence: cues.questionEnd.test(body) || WORDED_QUESTION.test(body) ? 0.65 : 0.55 }
  }
  if (cues.risk.test(body)) return { kind: 'question', semanticType: 'risk', confidence: 0.7 }
  const done = cues.outcomeDone.test(body) && !cues.notOutcome.test(body)
  // "Right now about forty percent…": the fillers stripped from the body ("right", "now") may be the context.
  // "Cold room two's at four degrees, it should be two": the norm a reading is held against is no forecast.
  const forecastRead = cues.language === 'en' ? body.replace(AGAINST_NORM, '') : body
  const metric = cues.metricUnit.test(body) && (cues.metricContext.test(body) || cues.metricContext.test(normalize(asSaid, cues))) && !cues.notMetric.test(forecastRead)
  if (done || metric) return { kind: 'outcome', semanticType: metric ? 'metric' : 'outcome', confidence: done && metric ? 0.8 : done ? 0.7 : 0.65 }
  // After the outcome: "we got forty kits in for recall two seventy" reports the result, and the recall is added beside it.
  if (cues.language === 'en' && pointsAtArtifact(body, asSaid)) return { kind: 'reference', semanticType: 'document', confidence: 0.7 }
  // "I want this meeting every week until…": a standing rule put forward, a decision once others agree.
  if (weakPolicyAt >= 0 && cues.language === 'en' && WANTS_RULE.test(body) && !cues.questionEnd.test(body)) return { kind: 'decision', semanticType: 'policy', confidence: 0.4, isProposal: true }
  if (weakPolicyAt >= 0 && /^no\b(?! (?:idea|clue|problem|worries|rush|thanks)\b)|^不/.test(body)) return { kind: 'decision', semanticType: 'policy', confidence: 0.55 }
  if (cues.worry.test(body)) return { kind: 'question', semanticType: 'risk', confidence: 0.45 }
  return undefined
}

const DATE_WORD = String.raw`(?:the|end|of|next|this|week|month|today|tomorrow|monday|tuesday|wednesday|thursday|friday|january|february|march|april|may|june|july|august|september|october|november|december|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|twenty|thirty|\d{1,2}(?:st|nd|rd|th)?)`
/** "Let's say by the twenty-second.": a deadline put on what was just taken, not a choice of its own ("let's say the fifteenth" may choose a day). */
const ONLY_A_DATE = new RegExp(String.raw`^let's (?:say|aim for|make it|target|go for)\s+(?:by|before) (?:${DATE_WORD}[\s,-]*)+[.!]?$`)

/** "Let's say by the ninth.": only a deadline (the learned detector takes no decision from it either). */
export function isOnlyADeadline(sentence: string): boolean {
  return ONLY_A_DATE.test(sentence.replace(/[’‘]/g, "'").toLowerCase().trim())
}

/** The norm a reading is compared with: ", it should be two", "yesterday should be 15", "and the target's fifteen", "against a limit of 0.4". */
const AGAINST_NORM = /,?\s*(?:and |but |when )?(?:(?:it|that|they|she|he|which)(?:'s| is)? (?:should|supposed to|meant to|ought to) be|(?:the |our |a )?(?:target|limit|plan|norm|spec)(?:'s| is| was)|against (?:a|the|our) (?:target|limit|plan|norm) of)\b[^,.;]*|\s*\bshould be (?:about |around )?(?:\d[\d.,]*|[a-z]+(?:-[a-z]+)?)\s*(?:%|percent)?(?=[,.;!]|$)/g

const WITHDRAWS = /\b(?:forget (?:it|that|about it|i said (?:it|that))|never ?mind|scrap that|bad idea)\b/

/** "The vendor's confirmed cutover for the fourth": what someone outside settled, reported; not this meeting's choice. */
const OTHERS_CONFIRMED = /^(?:(?:and|so|okay|ok|also|oh)[,.]? )*(?:the |our )?(?!we\b|i\b)[\w-]+(?: [\w-]+)?(?:'s| has| have|'ve) (?:now |finally |just )?confirmed\b/

/** Whether a sentence only reports what someone outside the meeting confirmed (the learned detector's guard too). */
export const othersConfirmed = (sentence: string): boolean => OTHERS_CONFIRMED.test(plainSpoken(sentence))

/** A sentence as the English rules read it: straight quotes, lower case, fillers and false starts gone. */
const plainSpoken = (sentence: string): string => spokenForm(sentence.replace(/[’‘]/g, "'").toLowerCase().trim())

/** Whether a sentence only watches, shrugs or takes back ("keep an eye on it", "it is what it is", "forget I said it") (the learned detector's guard too). */
export const keepsWatching = (sentence: string): boolean => KEEPS_WATCHING.test(plainSpoken(sentence))

/** "Keep an eye on it.", "It is what it is.", "Forget I said it.", "Never mind.": watching, shrugging or taking back, not deciding. */
const KEEPS_WATCHING = /^(?:(?:okay|ok|so|then|and|yeah|right|fine|no)[,.]? )*(?:(?:let's |we'll |we |just )?keep (?:an eye on|watching|tabs on) (?:it|that|this|them)\b|it is what it is\b|(?:just )?forget (?:it|that|i said (?:it|that|anything))(?: then)?[.!]?$|never ?mind\b)/

/** "Starting next week.", "From Monday.": when a choice takes effect, said after it; no choice of its own. */
const ONLY_A_START = new RegExp(String.raw`^(?:(?:and|so|okay|ok|then|right)[,.]? )*(?:starting|start|from|as of|beginning|effective)(?: (?:on|from|with|in))? (?:(?:next|this|the|on|of|from|tonight|tomorrow|today|now|sunday|saturday|morning|afternoon|evening|weekend|week|month|quarter|year|season|term|sprint|${DATE_WORD})[\s,-]*)+[.!]?$`)

export function isOnlyAStart(sentence: string): boolean {
  return ONLY_A_START.test(sentence.replace(/[’‘]/g, "'").toLowerCase().trim())
}

/** A verb that hands over a task when said first in the clause ("send", "chase", "get … into the garage"); not choices ("go with", "keep", "use", "take", "move", "run", "make it"). */
const TASK_VERB = String.raw`(?:send|e-?mail|mail|ring|call|phone|text|ping|chase|book|order|re-?order|get (?!going\b|started\b|on with\b|to (?:it|that|this)\b|back to (?:it|that)\b|it\b(?! (?:in|into|to|done|fixed|sorted|back|over|booked|checked)\b)|rid\b|off\b|out\b|up\b|home\b|away\b|there\b|here\b|lucky\b|ready\b|better\b|worse\b)|fix|update|write|add|check|draft|file|print|post|pull|ask|tell|let (?:them|him|her|me|us|everyone|everybody|the [a-z]+) know|find|sort out|arrange|organi[sz]e|schedule|set up|pick up|drop off|bring|clean|sharpen|redo|re-?test|measure|label|ship|pay|invoice|submit|prep|prepare|buy|hire|replace|confirm|cancel|forward|share|upload|review|install|grab|collect|reschedule|re-?book|log|raise|look (?:at|into)|follow up (?:with|on)|reach out to|contact|notify|remind|invite|brief|inspect|service|drain|repair|patch|put up|put in)`
const IMPERATIVE = new RegExp(String.raw`^(?:(?:and|so|then|okay|ok|right|alright|great|good|fine|yeah|also|oh)[,.]?\s+)*(?:just |please |quickly |first |also )?(?!check engine\b|remind (?:me|us) (?:where|what|how|who|when|which|whether|if)\b)${TASK_VERB}\b(?![,.?!]|$| (?:for|of|is|was|were|came|'s)\b)`)
/** "You'll finish the write-up and publish it Friday": the work told to the listener. */
const YOU_WILL = new RegExp(String.raw`^(?:(?:and|so|then|okay|ok|right|great|yeah)[,.]?\s+)*you(?:(?:'ll| will) (?:just |also |then )?(?:${TASK_VERB}|finish|do|take care of|handle|sort|write|run)\b(?![,.?!]|$)| (?:do|take|handle|sort) (?:that|this|it|that one|this one)\b)`)
/** When the work is due, said with it. */
const DUE_SAID = /\b(?:today|tonight|tomorrow|this (?:week|morning|afternoon|evening|weekend)|next week|first thing|asap|end of (?:the )?(?:day|week)|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|the|end|tonight|tomorrow|noon|lunch|close|[a-z]+day)|before (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|the|you|we|close|lunch|[a-z]+day)|(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/

const POINTS_BACK_AT_RISK = /^(?:that|this|it)(?:'s| is| would be| could be) (?:a |the )?(?:big |real |huge |serious )?risk\b/

const WANTS_RULE = /^i(?: want|'d like| would like) (?!to\b)(?:this|the|us|our|everyone|everybody|all|a|an|every)\b/

const MEETING_PROCESS = new RegExp(String.raw`^(?:[^,.]*?\b(?:okay|ok|right|alright)[,.]?\s+)?(?:(?:okay|ok|right|so|then|and|well|alright|all right|yeah|good|fine)[,.]?\s+)*(?:let's|let us|we'll|we will|we're going to|we'd better|we)\s+(?:just\s+|all\s+)?(?:go(?:\s+(?:through|over|round|around)\b[^,.]*|\s+back to (?:the )?(?:agenda|list|top|start|beginning|item|point|question)\b[^,.]*|(?=\s+(?:i|i've|i'm|we've|we're|it's|they're|the [a-z]+ (?:is|are))\b).*)?|crac?n?k on|get going|get started|get on with it|get to (?:that|it|this|them|[a-z]+s?)(?: later| next| in a (?:minute|sec|second|bit))?|come back to (?:that|it|this|them)(?: one)?|go ([a-z]+) by \1|leave (?:it|that|this|those|them)(?: one)?(?:\s+(?:with (?:the|us|me|them)|on|until|till|for|there|at|open)\b[^,.]*)?|park (?:it|that|this)|sort (?:it|that|this)(?: out)?|sort out who\b[^,.]*|find (?:someone|somebody)|work out who\b[^,.]*|(?:think|chew|sleep) on (?:it|that|this)|keep (?:it|this|that) (?:quick|short|brief|informal|simple|tight)|watch (?:it|that|this)|wrap (?:up|it up)|stop there|call it (?:there|a day)|take (?:it|that|this) offline|talk (?:again|tomorrow|later|offline)|see how it goes|not (?:borrow trouble|(?:try to )?solve (?:it|that|this)(?: now| today| tonight| here| right now| in this meeting)?)|do (?:the|a|our)(?: quick| usual| weekly)? (?:week|round|roundup|rundown|numbers|updates?|agenda|list|check-?in|catch-?up|run-?through|stand-?up)(?: first)?|(?:go|be|speak|keep (?:it|this)|make (?:it|this)) (?:quick|fast|quickly)\b.*|hope (?:it|that) doesn't come to that|hope(?: so| not)?|get through (?:this|it|the (?:agenda|list))(?: quickly)?)(?:\s+(?:for now|then|today|later|tomorrow|next time|next week|now))?(?:[,.!;]|\s+and\s+(?:talk|come back|decide|see)\b|\s+(?=(?:i|i've|i'm|we've|we're|it's|first)\b)|\s*$)`)
/** "Bring it back.", "Go back to the old ones, the blue ones.", "Switch it back on Monday.": an earlier state restored, a choice reversed. */
const REVERSES = /^(?:(?:okay|ok|right|so|well|fine|then|yeah|yes|and)[,.]? )*(?:let's |we'll |we )?(?:(?:bring|put|switch|turn|roll|change|move|set) (?:it|them|that|those|this) back\b(?! (?:to (?:you|me|him|her|them)|here)\b)|go back to (?!(?:the |that |this |your |my )?(?:agenda|top|start|beginning|point|item|question|list|slide|office|desk|room|work|it|that|this|them|you|me|him|her|sleep|bed)\b)(?:the |using |our )?[\w-]+)/

/** "Then we take it, tell them yes.": the offer weighed is taken. */
const THEN_WE_TAKE = /^(?:(?:okay|ok|right|so|well|fine|good|great)[,.]? )*then,? we(?:'ll)? (?:take|accept|sign|book|go with|go for) (?:it|that|them|this|the [\w-]+(?: [\w-]+)?)(?=[,.!]|$)/
/** "The diocese approved the budget last Friday.", "the hotel renewed, two more years": an outside body's answer, a result. */
const OTHERS_ANSWERED = /^(?:(?:so|and|um|uh|well|also|oh|good news)[,.]?\s+)*the (?!team\b|board\b|committee\b)[\w-]+(?: [\w-]+){0,4} (?:has |have )?(?:finally |officially |just )?(?:approved|renewed|rejected|turned (?:it |us |them )?down|signed off|accepted|refused|granted)\b(?! (?:to|that)\b)/
/** "It's Sunday mornings from now.": the new state, from now on. */
const FROM_NOW = /^(?:(?:okay|ok|so|right|then|and)[,.]? )*(?:it's|it is|that's|we're on|we do|they're|they go|it goes) [^,.?]{2,40}? from now(?: on)?[.!]?$/

/** "The everything bagel's done after Sunday.", "the late bus is finished from March": something stopped from a time on. */
const ENDS_AFTER = /^(?:(?:okay|ok|so|right|yeah|then|fine)[,.]? )*(?:the |our |that |this )?[\w-]+(?: [\w-]+){0,3}?(?:'s| is| are|'re) (?:done|finished|over|gone|off the (?:menu|list|schedule|range|rota))(?: for good)? (?:after|from|as of|at the end of|once) (?:this |next |the )?[\w-]+(?: [\w-]+){0,2}[.!]?$/

/** "Let's crack on.", "Let's go back to the agenda.": the meeting's own running (the learned detector's guard too). */
export function runsTheMeeting(sentence: string): boolean {
  return MEETING_PROCESS.test(plainSpoken(sentence))
}

/** "Then it's Bidroom.": the option named after the weighing is the one taken. */
const THEN_ITS_NAMED = /^(?:(?:okay|ok|right|so|well|fine)[,.]? )*[Tt]hen it's (?:the )?[A-Z][\w-]*(?: \S+){0,3}?[.!]?$/

/** A proposal says what it proposes: "What if we, uh…" trailing off proposes nothing. */
const EMPTY_PROPOSAL = /^(?:what if|how about|what about|why don't|i suggest|i'd suggest|i propose|i was thinking|i'm thinking|my suggestion is|we could|or we)(?: (?:we|the|it|this|that|our|maybe|just))?[\s,.…!?—–-]*$/
const proposes = (body: string, cues: CueSet): boolean => cues.proposal.test(body) && !EMPTY_PROPOSAL.test(body)

const POINTS_BACK_AND_KEEPS = /^(?:and |so )?(?:that|it|this|which) (?:still )?(?:stays?|remains?|holds?|stands?)\b/
const TENTATIVE_SHOULD = /^(?:i think|maybe|perhaps) we should\b(?! (?:not|never)\b)/


/** "Fine, Postgres then.", "Okay, twelve weeks then": a yes that names what it settles on. */
const AGREED_CHOICE = /^(?:fine|okay|ok|alright|all right|good|great|sure|yeah|yes)(?:[,.!]\s*|\s+)(?:so\s+)?(?!(?:i|we|you|they|he|she|it|that|this|let's|see|talk|bye|thanks|what|how|why|who|when|forget|never)\b)(?:[\w'.-]+\s+){0,3}[\w'.-]+\s+then(?:[.!]?$|(?:,\s*|\s+)(?:with|and|plus)\s[^?]*[.!]?$)/

/** "So ninety now, fifty next year.", "Okay, so in the office at least three days a week.": a choice summed up. */
const SUMMED_UP = /^(?:(?:okay|ok|alright|all right|right|great|good|fine|yeah)[,.!]?\s+)?so[,.]?\s+/
/** "Okay, so we just keep doing short subject lines then": what the group does, drawn as a conclusion. */
const SO_WE_CHOOSE = /^(?:(?:okay|ok|alright|all right|right|fine|yeah)[,.!]?\s+)?(?:so|then)[,.]?\s+we (?:just |only |still )?(?:switch|move|use|keep|stick|cap|limit|drop|make|change|go|skip|push|buy|split|ship|send|start|pay|wait|accept|approve|refund|cancel|book|pause|stop|revert|extend|postpone|hold|order|hire|rent|rake|run|add|take|close|open|charge|replace|repair|fix|reshoot|retest|re-test|redo)\b(?! (?:through|over|round|around)\b)(?![^?]*\?)/
/** A sentence without a subject or a verb of its own that names an amount, a time or a limit ("twelve weeks, starting in June"). */
const VERB_OR_SUBJECT = /\b(?:i|we|you|they|he|she|it|that|this|there|these|those|i'm|we're|you're|they're|it's|that's|there's|here's|he's|she's|what's|is|are|was|were|be|been|am|have|has|had|do|does|did|will|would|can|could|should|might|must|may|need|needs|want|wants|think|guess|let's|gonna|mean|said|says)\b|\?/
const NAMES_AMOUNT = new RegExp(String.raw`\b${SPOKEN_NUMBER}\b|\b(?:max|maximum|minimum|at least|at most|no)\b`)
/** After a yes, the summary opens with the amount or the limit ("Twelve weeks, starting in June", "No fully remote"). */
const OPENS_WITH_AMOUNT = new RegExp(String.raw`^(?:${SPOKEN_NUMBER}|no|at least|at most|max|every)\b`)
/** Arithmetic, results, durations and agendas summed up are not choices ("so three hundred short", "so ninety minutes", "three things today"). */
const NOT_SUMMARY = /\b(?:so far|total|short|left|times|plus|minus|roughly|about|around|percent|ago|last|behind|over budget|under budget|down|up|things?|topics?|items?|questions?|apart|seconds?|minutes?|hours?|dollars?|pounds?|euros?|k)\b|\b[a-z]{3,}ed\b/

/** A choice summed up without a verb or a subject of its own, naming an amount or a limit. */
function isSummary(body: string): boolean {
  return !VERB_OR_SUBJECT.test(body) && NAMES_AMOUNT.test(body) && !NOT_SUMMARY.test(body) && body.split(/\s+/).length >= 3
}

/** "Okay." then "Twelve weeks, starting in June.": what a turn settles on right after its own yes. */
export function summedUpAfterYes(clause: string, context: ClauseContext): Candidate | undefined {
  const { cues } = context
  if (cues.language !== 'en') return undefined
  const body = stripFillers(normalize(clause, cues), cues)
  if (!body || !OPENS_WITH_AMOUNT.test(body) || !isSummary(body)) return undefined
  const candidate = complete({ kind: 'decision', semanticType: 'choice', confidence: 0.6 }, clause, body, context)
  return candidate && candidate.topic.size >= 2 ? candidate : undefined
}

/** "Okay. Yeah. Ten then.": after the turn's own yes, a short "X then" settles what was proposed ("Yeah, forget that then." takes it back). */
const THEN_CHOICE = /^(?!(?:i|we|you|they|he|she|it|that|this|let's|see|talk|bye|thanks|what|how|why|who|when|and|but|so|since|back|until|just|only|by|and|not|no|forget|never)\b)(?:[\w'.-]+\s+){0,2}[\w'.-]+,?\s+then(?:[.!]?$|(?:,\s*|\s+)(?:with|and|plus)\s[^?]*[.!]?$)/

export function settledAfterYes(clause: string, context: ClauseContext): Candidate | undefined {
  const { cues } = context
  if (cues.language !== 'en') return undefined
  const body = stripFillers(normalize(clause, cues), cues)
  if (!body || !THEN_CHOICE.test(body)) return undefined
  return complete({ kind: 'decision', semanticType: 'choice', confidence: 0.7, settles: true }, clause, body, context)
}

const WORDED_QUESTION = /^(?:who|what|why|how|when|where|which|whose|is there|are there|does anyone|do we know|did anyone|has anyone|can (?:someone|anyone|somebody) (?:tell|confirm|check|explain)|could (?:someone|anyone) (?:tell|confirm|explain)|do you know|any (?:idea|news|update))\b/

// "please leave comments": to whoever listens, unless only two people are talking.
const BARE_PLEASE = /(?:^|,\s*)please\b(?![^,.]*\byou\b)/
const ASKS_WHEN = /\b(?:when|by when|what's the eta|how soon)\b|什么时候|哪天|多久能/

type ActionCues = {
  requestAt: number
  firstPersonAt: number
  progressiveAt: number
  claimAt: number
  solicitationAt: number
  needAt: number
  assigned: Person | undefined
  /** The person the clause opens by naming ("Ila, update the doc"). */
  addressed?: Person | undefined
}

function actionKind(body: string, context: ClauseContext, cues: ActionCues): Kinded {
  const at = earliest(cues.requestAt, cues.firstPersonAt, cues.progressiveAt, cues.claimAt, cues.solicitationAt, cues.needAt, cues.assigned ? 0 : -1)
  if (cues.assigned && at === 0 && cues.requestAt !== 0) {
    return { kind: 'action', semanticType: 'task', confidence: 0.8, owner: { mode: 'named', person: cues.assigned } }
  }
  if (at === cues.requestAt) {
    const person = cues.addressed ?? findAddressedPerson(context.people, context.sentence)
    const isBroadcast = !person && BARE_PLEASE.test(body)
    return { kind: 'action', semanticType: 'request', confidence: person ? 0.85 : 0.75, owner: person ? { mode: 'named', person } : { mode: 'addressee', isBroadcast }, isRequest: true }
  }
  if (at === cues.solicitationAt) return { kind: 'action', semanticType: 'task', confidence: 0.55, owner: { mode: 'none' }, open: true }
  if (at === cues.needAt) {
    const weak = /\bwe should\b/.test(body)
    return { kind: 'action', semanticType: 'task', confidence: weak ? 0.5 : 0.6, owner: { mode: 'none' }, open: true }
  }
  if (at === cues.claimAt) return { kind: 'action', semanticType: 'task', confidence: 0.7, owner: { mode: 'speaker' }, claim: true, referring: true }
  const followUp = /\b(?:follow up|get back to|check with|ask|confirm|send|share|ping|reach out|talk to|email)\b|问一下|确认|发给|跟进|沟通|联系|同步/.test(body)
  if (at === cues.progressiveAt && at !== cues.firstPersonAt) {
    return { kind: 'action', semanticType: followUp ? 'follow-up' : 'task', confidence: 0.7, owner: { mode: 'speaker' }, needsFutureDate: true }
  }
  return { kind: 'action', semanticType: followUp ? 'follow-up' : 'task', confidence: 0.8, owner: { mode: 'speaker' } }
}

function whenOf(context: ClauseContext): { asksWhenOf?: Person } {
  const person = findAddressedPerson(context.people, context.sentence)
  return person ? { asksWhenOf: person } : {}
}

/** After "I agree." the next statement is what was agreed: a decision, unless it is only an opinion. */
/** "One worry, though.", "One last concern.", "My worry is this:": the next sentence of the turn is the risk. */
const WORRY_ANNOUNCED = /^(?:(?:and|but|okay|so|also),?\s*)?(?:(?:one|a|my|the|another|more|last|final|big|small|real) )*(?:worry|concern|risk|thing that worries me)(?:,?\s*though| is this| here| for me)?[.!:,]?$/

/** "That would kill us.", "that'd be a disaster": the trouble just described, weighed as a risk. */
const WOULD_RUIN_US = /^(?:(?:and|but|so|yeah|well|honestly)[,]?\s+)*that(?:'d| would| will|'ll) (?:(?:kill|finish|sink|ruin|bankrupt) us|be (?:a )?(?:disaster|nightmare|catastrophe|catastrophic|the end of us))\b/
/** "If the disputes keep coming, we'll be over two hundred open cases", "if it goes, we're down to one side": trouble foreseen, a risk (not a rule). */
const IF_THEN_TROUBLE = /^(?:(?:and|but|so|also|um|uh)[,]? )*if\b[^.?]{3,80}?\b(?:(?:it all|the whole [\w-]+(?: [\w-]+)?|everything) (?:has to|have to|'ll have to|will have to|gets?|goes|would) (?:come out|be redone|be scrapped|be thrown|wet|flooded|ruined|lost|spoiled|spoilt)|we(?:'d|'ll| will| would)? lose|we(?:'re|'ll be| are| will be| would be|'d be) (?:down to|stuck|short|out of|over|past|behind|full|filled|swamped|overbooked)|we(?:'ve| have)? got nowhere|there's nowhere|we(?:'d|'ll)? (?:literally |just )?run out|we (?:can't|cannot|won't be able to|couldn't) (?:run|cover|keep|do|make|get|open|meet|finish|ship|hold)|(?:[\w-]+ ){1,3}(?:are|is|'s|'re|would be|will be) in trouble|(?:[\w-]+ ){1,3}never gets?|(?:is|are) going to be (?:very |really )?(?:bad|high|tight|short|late)|we(?:'d| would| could| might)? be (?:done|finished|short|stuck|out)\b|they (?:can|could|will|would|might|'ll) (?:put|shut|close|stop|fine|ban|pull|cancel|suspend)\b|(?:it all|the whole [\w-]+(?: [\w-]+)?|everything) (?:slides|slips|moves back|falls over|falls apart)|we(?:'re| are|'ll be| will be|'d be| would be) looking at (?:a |an |another )?(?:[\w-]+ )?(?:delay|hiatus|shutdown|closure|gap|fine|loss|penalty|week off|month off|refund|recall|strike)s?)\b/

/** "One worry though if the blade doesn't come we're down to five trucks" (speech, one sentence): a risk raised. */
const OPENS_WITH_WORRY = /^(?:(?:and|but|okay|so|also),?\s*)?(?:(?:one|my|another|more|last|final|big|real) )+(?:worry|concern)(?:,?\s*though)?[,:]?\s+(?:is (?:that )?)?(?=\w)/

export const announcesWorry = (clause: string): boolean => WORRY_ANNOUNCED.test(clause.replace(/[’‘]/g, "'").toLowerCase().trim())

/** The sentence after "One worry, though.": the risk itself, also when it reads as a rule ("If the blade doesn't come, we're down to five trucks"). */
export function announcedRisk(clause: string, context: ClauseContext): Candidate | undefined {
  const { cues } = context
  const body = stripFillers(normalize(clause, cues), cues)
  if (!body) return undefined
  return complete({ kind: 'question', semanticType: 'risk', confidence: 0.7 }, clause, body, context)
}

export function agreedStatement(clause: string, context: ClauseContext): Candidate | undefined {
  const { cues } = context
  const body = stripFillers(normalize(clause, cues), cues)
  if (!body || cues.questionEnd.test(body) || /^(?:i'd|i would|i think|i'm|i am|maybe|我觉得|我想|可能)/.test(body)) return undefined
  if (/\b(?:was|were|did|had|ago|yesterday|last)\b|了$|了。$|过/.test(body)) return undefined
  const candidate = complete({ kind: 'decision', semanticType: 'choice', confidence: 0.65 }, clause, body, context)
  return candidate && candidate.topic.size >= 2 ? candidate : undefined
}

/** "要不要支持保存多个？" — "要，最多保存五个。": the plain answer to a choice asked is what was chosen. */
export function answeredChoice(clause: string, context: ClauseContext, namesOption = false): Candidate | undefined {
  const { cues } = context
  const body = stripFillers(normalize(clause, cues), cues)
  if (!body || cues.questionEnd.test(body) || cues.acceptance.test(body) || HEDGED.test(body) || REPORTED.test(body)) return undefined
  if (cues.deferral.test(normalize(context.sentence, cues))) return undefined
  const candidate = complete({ kind: 'decision', semanticType: 'choice', confidence: 0.6 }, clause, body, context)
  // "Definitely." "要做。": a bare yes, not a choice of its own; "Not until we know what it is." sets a condition;
  // "Trucks." names one of the two options asked for.
  return candidate && (candidate.topic.size >= 2 || CONDITIONED.test(body) || (namesOption && candidate.topic.size >= 1)) ? candidate : undefined
}

/** "Should we tell the board?" — "Not until we know what it is.": a yes or no under a condition. */
const CONDITIONED = /^(?:no,? )?(?:not (?:until|before|unless)|only (?:if|when|after|once))\b/

// An opinion or a report answers the question without choosing anything.
const HEDGED = /^(?:i'd|i would|we'd|we would|i think|i guess|i'm not|maybe|probably|perhaps|depends|it depends)\b|^(?:我觉得|我想|我感觉|可能|也许|应该|看情况)/
const REPORTED = /\b(?:was|were|did|had|already|ago|yesterday|last)\b|已经|了[。！!]?$|(?<![超通经不])过/

/** "I'll put the plan in the wiki under Q2": an action that also points at a document. */
export function referenceIn(clause: string, context: ClauseContext): Candidate | undefined {
  const { cues } = context
  const body = stripFillers(normalize(clause, cues), cues)
  if (cues.referenceLink.test(clause)) return complete({ kind: 'reference', semanticType: 'link', confidence: 0.8 }, clause, body, context)
  if (cues.referenceDocument.test(body)) return complete({ kind: 'reference', semanticType: 'document', confidence: 0.65 }, clause, body, context)
  if (cues.language === 'en' && pointsAtArtifact(body, clause)) return complete({ kind: 'reference', semanticType: 'link', confidence: 0.7 }, clause, body, context)
  return undefined
}

function complete(kinded: Kinded, clause: string, body: string, context: ClauseContext): Candidate | undefined {
  const { cues, people } = context
  const names = namesIn(people, clause)
  const nameTokens = new Set(names.flatMap((name) => contentTokens(name)))
  const topicTokens = contentTokens(clause).filter((token) => !cues.genericTokens.has(token) && !nameTokens.has(token))
  const hasPronoun = cues.pronoun.test(body)
  const explicitlyOpen = kinded.kind === 'question' && cues.openQuestion.test(body)
  const referring = Boolean(kinded.referring)
    || (kinded.kind === 'action' && (topicTokens.length === 0 || (hasPronoun && topicTokens.length <= 1)))
    || (explicitlyOpen && (hasPronoun || topicTokens.length <= 2))
    // "That's a risk for the whole plan": the risk of what was just asked, not a question of its own.
    || (kinded.semanticType === 'risk' && POINTS_BACK_AT_RISK.test(body))
  const dueDate = kinded.kind === 'action' ? resolveDueDate(clause, cues.language, context.today) : undefined
  if (kinded.needsFutureDate) {
    const todayIso = `${context.today.year}-${String(context.today.month).padStart(2, '0')}-${String(context.today.day).padStart(2, '0')}`
    if (!dueDate || dueDate <= todayIso) return undefined
  }
  const choice = kinded.kind === 'decision' ? cues.choiceObject.exec(body)?.[1]?.toLowerCase() : undefined
  const dependency = kinded.kind === 'action' || kinded.kind === 'decision' ? cues.dependency.exec(body) : null
  const dependencyText = dependency ? (dependency[1] ?? dependency[2] ?? dependency[3]) : undefined
  return {
    kind: kinded.kind,
    semanticType: kinded.semanticType,
    confidence: kinded.confidence,
    owner: kinded.owner ?? { mode: 'none' },
    text: clause.trim(),
    // "So, open fermenters, Jodie, get two of them sanitised…": a request titled from what the named person is asked.
    title: makeTitle(kinded.kind === 'action' && kinded.isRequest ? leadingAddressee(people, clause)?.rest ?? clause : clause, cues, names),
    topic: termVector(topicTokens),
    referring,
    claim: Boolean(kinded.claim),
    explicitlyOpen,
    isProposal: Boolean(kinded.isProposal),
    asksWhen: kinded.kind === 'question' && ASKS_WHEN.test(body),
    ...(kinded.kind === 'question' && ASKS_WHEN.test(body) ? whenOf(context) : {}),
    open: Boolean(kinded.open),
    isRequest: Boolean(kinded.isRequest),
    isRecap: Boolean(kinded.isRecap),
    addition: cues.addition.test(body),
    revision: cues.revision.test(body),
    ...(choice ? { choiceObject: choice } : {}),
    ...(kinded.settles ? { settles: true } : {}),
    ...(kinded.letsOnly ? { letsOnly: true } : {}),
    ...(dependencyText ? { dependencyText } : {}),
    ...(dueDate ? { dueDate } : {}),
  }
}
