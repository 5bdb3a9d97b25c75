// The real server process transcribes, with the default engine (Moonshine), a two-speaker meeting synthesized with flite: WebM/Opus
// chunks of three seconds are uploaded over HTTP while a WebSocket watches the conversation; the
// session ends; the stored transcript has the words (≤ 30 % word error rate), two distinct
// speakers and turn start times within 0.5 s, the socket saw partials become finals, and the
// action and the decision said in the meeting are waiting in the work set as proposals citing
// their segments, with the takeover summary — on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds } from '../databases.ts'
import { encode, hasFfmpeg, hasFlite, hasPocketsphinx, synthesizeMeeting, turnsOfSegments, wordErrorRate } from '../speech.ts'
import { connectSocket } from '../ws-client.ts'
import { signInOverHttp, startMailCatcher, startServer, type MailCatcher, type RunningServer } from './server.ts'

const MEETING = [
  { voice: 'rms' as const, text: 'The new version is ready and the tests are passing.' },
  { voice: 'slt' as const, text: 'Good morning everyone. Let us look at the plan for this week.' },
  { voice: 'rms' as const, text: 'I will send the report to the team by Friday.' },
  { voice: 'slt' as const, text: 'Thank you. We decided to move the launch to next week.' },
]

describe.skipIf(!(hasFlite && hasPocketsphinx && hasFfmpeg)).each(databaseKinds)('transcription through the real server [%s]', (kind) => {
  let mail: MailCatcher
  let server: RunningServer
  beforeAll(async () => {
    mail = await startMailCatcher()
    server = await startServer(kind, { STT_ENGINE: 'moonshine', SMTP_URL: mail.url, JOB_POLL_INTERVAL_MS: '100' })
  })
  afterAll(async () => {
    await server?.stop()
    await mail?.close()
  })

  it('turns WebM/Opus chunks into a two-speaker transcript with live partials and finals', async () => {
    const cookie = await signInOverHttp(server, mail, 'speaker@example.com')
    const headers = { 'content-type': 'application/json', cookie, origin: server.baseUrl }
    expect((await fetch(`${server.baseUrl}/v1/account/bootstrap`, { method: 'POST', headers, body: '{}' })).status).toBe(200)
    const created = await fetch(`${server.baseUrl}/v1/sessions`, { method: 'POST', headers, body: JSON.stringify({ captureMode: 'microphone' }) })
    const session = await created.json() as { id: string; websocketURL: string; transcriptionEngine: string }
    expect(session.transcriptionEngine).toBe('moonshine')
    const socket = connectSocket(session.websocketURL, { cookie })
    await socket.waitFor((message) => message.type === 'hello')

    // A browser's MediaRecorder: one WebM stream, cut into pieces; only the first has the header.
    const { pcm, turns } = synthesizeMeeting(MEETING)
    const webm = encode(pcm, 'webm')
    const piece = Math.ceil(webm.length / Math.ceil(pcm.length / 96_000))
    for (let offset = 0, index = 0; offset < webm.length; offset += piece, index += 1) {
      const response = await fetch(`${server.baseUrl}/v1/sessions/${session.id}/audio`, {
        method: 'POST', headers: { cookie, 'content-type': 'audio/webm;codecs=opus', 'x-service-chunk-id': `webm-${index}` }, body: webm.subarray(offset, offset + piece),
      })
      expect(response.status).toBe(200)
    }
    await socket.waitFor((message) => message.type === 'transcript.final', 60_000).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\nserver output:\n${server.output()}`)
    })
    expect((await fetch(`${server.baseUrl}/v1/sessions/${session.id}/end`, { method: 'POST', headers: { cookie } })).status).toBe(200)
    await socket.waitFor((message) => message.type === 'session.updated' && (message.data as { state: string }).state === 'ready', 60_000)

    const transcript = await (await fetch(`${server.baseUrl}/v1/sessions/${session.id}/transcript?limit=200`, { headers: { cookie } })).json() as {
      segments: { id: string; text: string; speakerId: string; startMs: number; endMs: number; status: string }[]
    }
    const text = transcript.segments.map((segment) => segment.text).join(' ')
    const wer = wordErrorRate(MEETING.map((turn) => turn.text).join(' '), text)
    console.log(`e2e WER ${(wer * 100).toFixed(1)} %: ${text}`)
    expect(wer).toBeLessThanOrEqual(0.3)
    // One segment per sentence and turn: each turn has its own, none spans two turns.
    const turnOf = turnsOfSegments(transcript.segments, turns)
    expect(new Set(turnOf)).toEqual(new Set(turns.map((_, index) => index)))
    const firstOf = (turn: number) => transcript.segments[turnOf.indexOf(turn)]!
    const speakers = turns.map((_, index) => firstOf(index).speakerId)
    for (const [at, segment] of transcript.segments.entries()) expect(segment.speakerId).toBe(speakers[turnOf[at]!])
    expect(new Set(speakers).size).toBe(2)
    expect([speakers[0] === speakers[2], speakers[1] === speakers[3], speakers[0] !== speakers[1]]).toEqual([true, true, true])
    turns.forEach((turn, index) => expect(Math.abs(firstOf(index).startMs - turn.startMs)).toBeLessThanOrEqual(500))
    const segmentsOf = (turn: number) => transcript.segments.filter((_, at) => turnOf[at] === turn).map((segment) => segment.id)

    const finals = socket.messages.filter((message) => message.type === 'transcript.final').map((message) => (message.data as { id: string }).id)
    expect(new Set(finals)).toEqual(new Set(transcript.segments.map((segment) => segment.id)))
    for (const message of socket.messages.filter((candidate) => candidate.type === 'transcript.partial')) {
      expect(finals).toContain((message.data as { id: string }).id)
    }

    // Extraction ran before `ready`: the action said in turn 3 is a proposal citing that turn's segment.
    const sets = await (await fetch(`${server.baseUrl}/v1/conversations/${(session as unknown as { conversationId: string }).conversationId}/workset`, { headers: { cookie } })).json() as { workSets: { id: string }[] }
    const detail = await (await fetch(`${server.baseUrl}/v1/worksets/${sets.workSets[0]!.id}`, { headers: { cookie } })).json() as {
      workObjects: { id: string; kind: string; title: string; sourceSegmentIds: string[]; proposal?: { state: string } }[]
      takeoverState: string; takeoverSummary?: { blocks: { type: string; items: { workObjectId?: string }[] }[] }
    }
    const action = detail.workObjects.find((object) => object.kind === 'action' && object.title.toLowerCase().includes('report'))
    expect(action, JSON.stringify(detail.workObjects.map((object) => [object.kind, object.title]))).toBeDefined()
    expect(action!.sourceSegmentIds.some((id) => segmentsOf(2).includes(id))).toBe(true)
    expect(action!.proposal?.state).toBe('pending')
    // …and the decision of turn 4 ("we decided to move the launch"), citing that turn.
    const decision = detail.workObjects.find((object) => object.kind === 'decision' && object.sourceSegmentIds.some((id) => segmentsOf(3).includes(id)))
    expect(decision, JSON.stringify(detail.workObjects.map((object) => [object.kind, object.title]))).toBeDefined()
    expect(decision!.title.toLowerCase()).toContain('decided to move')
    expect(decision!.proposal?.state).toBe('pending')
    // The takeover summary was derived before `ready` and lists the action.
    expect(detail.takeoverState).toBe('ready')
    expect(detail.takeoverSummary!.blocks.find((block) => block.type === 'actions')!.items.map((item) => item.workObjectId)).toContain(action!.id)
    expect(socket.messages.some((message) => message.type === 'refinement.updated')).toBe(true)
    await socket.close()
  }, 180_000)
})
