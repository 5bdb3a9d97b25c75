// What points at a specific artifact in English, typed or as a recognizer hears it (no capitals, no
// hyphens, numbers as words): a ticket, work order, claim or purchase order said with its number
// ("work order fifty five thirty", "it's ticket c d four eight eight one seven"), a place where
// documents live ("in the ops folder", "on the shared drive", "on SharePoint"), and a document
// named by what it is ("it's all in the production tracker", "the Winter Operations Plan").
// Written links and ids ("https://…", "MOB-2291") are the cue set's `referenceLink`.
import { withCommaSpaces } from './text.ts'

const DIGIT_WORD = 'zero|oh|one|two|three|four|five|six|seven|eight|nine'
const NUMBER_WORD = `${DIGIT_WORD}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand`

/** Any number, written or said ("412", "four twelve", "two hundred"). */
export const SPOKEN_NUMBER = String.raw`(?:\d+|(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)(?:[\s-]+(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|oh|zero))*)`

/** A number long enough to be an identifier: three or more digits, or two or more number words ("eleven forty two"). */
const ID_NUMBER = String.raw`(?:\d{3,}[\w-]*|\d(?: \d){2,}(?![\d.])|(?:${NUMBER_WORD})(?:(?:[\s-]+|\s+and\s+)(?:${NUMBER_WORD}|o(?!'))){1,})`

/** A ticket said aloud: "ticket web four twelve", "pull request number two thirty". */
const TICKET = new RegExp(String.raw`\b(?:ticket|issue|bug|pull request|pr|jira)(?:,\s*|\s+)(?:number\s+)?(?:(?!(?:at|by|around|before|after|until|till|since)\s)[a-z]{2,8}[\s-]+)?${SPOKEN_NUMBER}\b`)

/** Other records kept under a number: "work order eleven forty two", "a claim, it's C eleven eighty seven", "PO 4471". */
const NUMBERED_RECORD = new RegExp(
  String.raw`\b(?:work order|purchase order|order number|po|service request|change request|request number|job number|job card|service bulletin|bulletin|directive|permit|deviation|experiment|rfc|incident(?: report| number)?|(?<!\bin )case|claim|invoice|rfi|(?<!\bi )recall|reference|ref|ticket|consignment|accession|protocol|policy|file|account|booking|application)` +
    String.raw`(?:'s|s)?(?:,?\s+(?:in|number|no|is|it's|its|was|that's|it was))*,?\s+(?:(?!(?:at|by|around|before|after|until|till|since)\s)(?:[a-z](?:\s+[a-z]){0,2}|[a-z]{2,4})\s+)?(?<!\b(?:${NUMBER_WORD})\s)(?:${ID_NUMBER}|[a-z]{1,3}\d{3,})\b`,
)

/** Records whose kind is named before a short number: "RFC 38", "practice directive fourteen", "work package eleven". */
const KIND_AND_NUMBER = new RegExp(String.raw`\b(?:rfc|practice directive|service bulletin|job card|work package|work order|incident report|blast plan|change request)(?:'s|s)?,?\s+(?:number\s+)?(?:\d{1,2}\b|(?:${NUMBER_WORD})\b)(?!\s+(?:percent|per cent|%|minutes|hours|days|weeks|times|of))`)

/** "It's number 58812", "that's number four oh nine": a record's number said on its own. */
const ITS_NUMBER = new RegExp(String.raw`\b(?:it's|its|that's|it is|the) (?:number|no) ${ID_NUMBER}\b`)

/** A ticket's number said a few words after the ticket ("the ticket's already there, two hundred four"). */
const TICKET_THEN_NUMBER = new RegExp(String.raw`\bticket(?:'s|s)?\b(?:,?\s+[a-z']+){0,4}(?<!\b(?:at|by|around|before|after|until|till|since|${NUMBER_WORD})),?\s+${ID_NUMBER}\b`)

/** Where documents are kept: "in the ops folder", "on the shared drive", "on SharePoint". */
const DOCUMENT_PLACE = /\b(?:in|on|into|onto|under|to) (?:the |our |a |their )?(?:[\w'-]+ ){0,2}(?:drive|folder)\b|\b(?:in|on|into|onto) (?:the )?(?:sharepoint|share point|confluence|notion|jira|figma|airtable|trello|asana|smartsheet|dropbox|intranet|wiki|google (?:docs|drive|sheets))\b/

const DOCUMENT_NOUN = 'doc|docs|document|sheet|spreadsheet|tracker|log|manual|guide|guidelines|handbook|playbook|runbook|checklist|matrix|contract|template|form|rota|syllabus|register|inventory|binder|portal|deck|spec|report'

/** "It's all in the production tracker", "the numbers are in the setting log", "it's in the employee handbook". */
const KEPT_IN_DOCUMENT = new RegExp(String.raw`\b(?:is|are|it's|its|they're|that's|lives?|all|everything's|numbers are|details are) (?:all |already |also )?(?:in|on|under) (?:the |our |their )(?:[\w-]+ ){0,4}(?:${DOCUMENT_NOUN}|notion|confluence|sharepoint|jira|figma|airtable|trello|asana)\b`)

/** "The sheet's called Minus Eighty Inventory", "section four of the operations manual", "the indexing guide, version four". */
const DOCUMENT_PART = new RegExp(String.raw`\b(?:${DOCUMENT_NOUN}|file|page)(?:'s|s| is) (?:called|named|titled)\b|\b(?:the|a) one (?:called|named|titled) \w|\b(?:section|chapter|appendix|clause|page) ${SPOKEN_NUMBER} of (?:the|our) (?:[\w-]+ ){0,3}(?:${DOCUMENT_NOUN}|plan|policy)\b|\b(?:${DOCUMENT_NOUN}|plan|policy|schedule|draft|protocol|procedure),? (?:version|v) ${SPOKEN_NUMBER}\b`)

/** A document called by its name, as typed, after an article: "the Winter Operations Plan", "the Peak Ops Playbook", "the Q1 OKR doc". */
const NAMED_DOCUMENT = /\b(?:[Tt]he|a|[Oo]ur|[Tt]heir|in|on|into|to|from|per) (?!The\b)(?:(?:[A-Z][\w&-]*|[A-Z]?\d[\w.]*|v\d[\w.]*) ){1,4}(?:Plan|Log|Manual|Guide|Guidelines|Handbook|Playbook|Runbook|Checklist|Tracker|Matrix|Report|Contract|Template|Form|Policy|Sheet|Award|Directive|Agreement|Rota|Dashboard|Planner|[Dd]oc|[Ss]heet|[Tt]racker|[Ss]preadsheet|[Pp]age|[Rr]ota|[Ff]orm|[Dd]ashboard)\b|\b(?:[Tt]he|[Oo]ur) (?:[\w-]+ ){0,3}SOP\b/

/** A document named by a kind of record people keep by name, lower case: "the reindex runbook", "the loan agreement says",
 * "the pitch doc", "in the Q4 possession plan", "to the interpreter roster sheet" (two words or more before the kind). */
const KNOWN_DOCUMENT = /\bthe (?:[a-z0-9-]+ ){1,2}(?:runbook|playbook|handbook|style guide|design doc|pitch doc|postmortem doc|migration doc|migration guide|time sheet)\b|\bthe (?:design|pitch|postmortem|post-mortem|post mortem|migration|readout|incident|proposal|project) doc\b|\b(?:in|on|to|into|from) the (?:[a-z0-9-]+ ){2,3}(?:sheet|log|report|handbook|manual|register|tracker|dashboard|checklist|plan)\b(?<!\bthe (?:same|whole|next|last|first|old|new|other|current|final|main|usual|original|right|wrong) (?:[a-z0-9-]+ ){1,2}\w+)|\bthe (?:loan|service|rental|licen[cs]e|supply|hire|framework|partnership|data sharing) agreement\b/

/** An id said aloud after its letters, as typed: "it's K R twenty-eight oh seven", "DISP eleven eighty-seven", "RFC thirty-eight", "TW 93". */
const SPOKEN_ID = new RegExp(String.raw`\b(?!(?:I|A|OK|AM|PM|TV|UK|US|EU|HR|IT|QA|UTC|GMT|ETA|CEO|CFO|COO|CTO|VP|GP|MP|DJ|OR|ER|ICU|AC|DC|ID)\b)(?:[A-Z]{2,6}|[A-Z](?: [A-Z]){0,3})[\s-]+(?:${ID_NUMBER}|\d{2}(?![\d:%]|[.,]\d|\s*(?:percent|per cent|minutes|hours|days|weeks|months|years|times|people|of)\b))\b`)

/** Kept in a product named as one word with inner capitals, as typed: "in HerdTrack", "the draft's in HealthRoster". */
const IN_NAMED_TOOL = /\b(?:it's|its|is|are|they're|all|everything's|draft's|sheet|doc|rota|list|schedule|tracker|notes) (?:all )?(?:in|on) [A-Z][a-z]+[A-Z][A-Za-z]*\b/

/** A document where people find it: "the visitor booking form on the website", "the rota on the noticeboard". */
const DOCUMENT_ONLINE = new RegExp(String.raw`\b(?:${DOCUMENT_NOUN}) (?:on|in) (?:the|our) (?:website|web site|site|intranet|portal|noticeboard|notice board)\b`)
/** A report written for a named body: "the interim report for the Heritage Fund", "the catalogue submission to the Nairobi Coffee Exchange". */
const REPORT_FOR_NAMED = /\b[Tt]he (?:[a-z-]+ ){0,2}(?:report|submission|application|return|bid) (?:for|to) (?:the )?[A-Z][\w&-]+/

/** A record id with a one-letter prefix, as typed ("sheet L-201", "claim C-1187", "W5591", "M. 218" as a recognizer spells it), or letters run into its number as a recognizer writes it ("exp118"). */
const SHORT_ID = /\b[A-Z]-\d{2,}\b|\b[A-Za-z]{2,5}\d{3,}\b|\b[A-Z]\d{4,}\b|\b[A-Z]\.(?:[A-Z]\.)? \d{3,}\b/

/** A ticket said with its number ("ticket web four twelve"). */
export const saysTicket = (lower: string): boolean => TICKET.test(lower)

/** The incident or ticket a review is about, by its number: "this is the review for INC forty four seventy one". */
const REVIEWED_RECORD = new RegExp(String.raw`\b(?:review|retro|retrospective|postmortem|post-mortem|readout) (?:for|of) (?:[a-z]{1,8} )?${ID_NUMBER}\b`)

/** Does the clause (`lower`: lowercased, fillers stripped; `asSaid`: as typed) point at a specific artifact? */
export function pointsAtArtifact(clauseLower: string, clauseAsSaid: string): boolean {
  // Clauses come rejoined without the space after a comma ("the service bulletin,sixty three…"); the rules read it with one.
  const lower = withCommaSpaces(clauseLower)
  const asSaid = withCommaSpaces(clauseAsSaid)
  return (
    TICKET.test(lower) ||
    NUMBERED_RECORD.test(lower) ||
    KIND_AND_NUMBER.test(lower) ||
    ITS_NUMBER.test(lower) ||
    TICKET_THEN_NUMBER.test(lower) ||
    DOCUMENT_PLACE.test(lower) ||
    KEPT_IN_DOCUMENT.test(lower) ||
    DOCUMENT_PART.test(lower) ||
    REVIEWED_RECORD.test(lower) ||
    NAMED_DOCUMENT.test(asSaid) ||
    KNOWN_DOCUMENT.test(lower) ||
    DOCUMENT_ONLINE.test(lower) ||
    REPORT_FOR_NAMED.test(asSaid) ||
    SPOKEN_ID.test(asSaid) ||
    IN_NAMED_TOOL.test(asSaid) ||
    SHORT_ID.test(asSaid)
  )
}
