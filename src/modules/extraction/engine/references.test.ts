// Artifacts pointed at in English, typed and as a recognizer writes them (lower case, numbers as words).
import { describe, expect, it } from 'vitest'
import { extractItems } from './extractive.ts'
import { pointsAtArtifact } from './references.ts'
import { asRecognized, meeting } from './testing.ts'
import { DEFAULT_QUALITY_GATE } from './types.ts'

const points = (text: string) => pointsAtArtifact(text.toLowerCase(), text)

describe('references in speech and text', () => {
  it('finds records said with their numbers, places documents live in and documents named by what they are', () => {
    for (const text of [
      'I put a work order in, eleven forty two.',
      'It goes against the blanket PO, that is PO four four seven one.',
      'I opened a claim, it\'s C eleven eighty seven.',
      'The tickets already there, two hundred four.',
      'I logged it with the vendor, it\'s number 58812.',
      'The service contract is in the ops folder.',
      'It\'s on the shared drive.',
      'It\'s all in the production tracker if you need the numbers.',
      'The sheet\'s called minus eighty inventory.',
      'Section four of the operations manual, version seven.',
      'I\'ll update the Peak Ops Playbook with the cap.',
      'The calving sheet in HerdTrack is half done.',
      'That\'s sheet L-201.',
      'This is the review for INC forty four seventy one, the search lag on Monday.',
      'It\'s K R twenty-eight oh seven, I\'ve got it open.',
      'There\'s a ticket, DISP eleven eighty-seven.',
      'His job card\'s fourteen oh six, if you want the details.',
      'The Representment Playbook is still on the old rules.',
      'The seahorse SOP still has the old temperature range in it.',
      'Also, the reindex runbook is two years out of date.',
      'Okay, so, exp118, the seven-day trial against our normal fourteen.',
      // as Moonshine writes them: digits, plurals, ids run together, lower-case names
      'His job cards 1406, if you want the details.',
      'No worries, so, Tomash is Doc, RFC 38, the online feature store.',
      'Right, practice directive fourteen.',
      'I\'ve put it on the tech log as TW, um TW 93.',
      'I\'ll do it under SRCH nine o two.',
      'Same bug, live 2291, the top hundred didn\'t get their rewards.',
      'For the minutes, the incident numbers F241739.',
      'I opened a case with the vendor. Case 8 2 1 3, I\'ll recalibrate it tomorrow.',
      'I\'ll add a phone confirmed column to the interpreter roster sheet today.',
      'It\'s all in the Q4 possession plan.',
      'Right, the post-mortem doc has both.',
      'It\'s the one called Lakeview HOA 2028.',
      'I was looking at the tech schedule version 4.',
      'It\'s all in the readout doc in Notion.',
      'It\'s all written up, incident report I R331.',
      'The Georgian T-Service, consignment seat 2109, the hallmark looks wrong.',
    ]) expect(points(text), text).toBe(true)
  })

  it('leaves amounts, cases and plans that point at nothing', () => {
    for (const text of [
      'In case two hundred people show up we need more chairs.',
      'I\'ll order two hundred kits.',
      'Can you all see my screen? The tracker?',
      'Lab sheet\'s fine.',
      'We got forty kits in on Tuesday.',
      'I recall twenty people came last year.',
      'They opened a ticket at eleven oh two and nothing fired.',
      'I think we need an AC unit for two hundred people.',
      'The plan is fine, OK twenty minutes then.',
      'Our budget is about twenty thousand.',
      'We said nine o\'clock, ticket at nine o\'clock.',
      'The QA 15 minutes before close.',
      'We need 2 4 6 chairs.',
      'Put it in the same old spreadsheet.',
      'It\'s in the plan.',
    ]) expect(points(text), text).toBe(false)
  })

  it('adds the record beside the result it is reported with, in recognized speech', () => {
    const items = extractItems(asRecognized(meeting([
      ['ana', 'So for recall twenty seven v one fourteen we got forty kits in on Tuesday.'],
      ['ben', 'Okay. It is all in the production tracker if you need the numbers.'],
    ]))).items.filter((item) => item.confidence >= DEFAULT_QUALITY_GATE)
    expect(items.filter((item) => item.kind === 'reference').map((item) => item.sourceSegmentIds[0]?.split('.')[0])).toEqual(['s1', 's2'])
    expect(items.some((item) => item.kind === 'outcome')).toBe(true)
  })
})
