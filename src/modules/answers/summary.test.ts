import { afterAll, beforeAll, expect, it } from 'vitest'
import { chatServer } from '../../../test/chat-server.ts'
import { eachDatabase } from '../../../test/harness.ts'
import { createChatClient } from '../../platform/llm/chat.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'

const MEETING = [
  { text: 'Morning all. Quick sync on the launch.', speakerId: 'spk_1' },
  { text: 'The landing page copy is still in review.', speakerId: 'spk_2' },
  { text: 'Dana will send the launch email to customers on Friday. It needs legal approval first.', speakerId: 'spk_1' },
  { text: 'Legal said they can approve it by Thursday.', speakerId: 'spk_2' },
  { text: 'Unrelated: the office plants need water.', speakerId: 'spk_1' },
]

eachDatabase('transcript summary (extractive)', (h) => {
  it('summarizes what the transcript says about an item, citing its segments', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const ids = await seedSegments(h, session, MEETING)
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const answered = await viewer.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: ids[2], itemText: 'Send the launch email to customers', locale: 'en' })
    expect(answered.statusCode).toBe(200)
    const body = answered.json()
    expect(body).toMatchObject({ status: 'answered', generatedBy: 'extractive' })
    expect(body.summary.text).toContain('Dana will send the launch email to customers on Friday.')
    expect(body.summary.sourceSegmentIds).toContain(ids[2])
    expect(body.summary.sourceSegmentIds).not.toContain(ids[4])
    for (const point of body.summary.points) expect(ids).toEqual(expect.arrayContaining(point.sourceSegmentIds))
  })

  it('answers no-evidence rather than a guess, handles Chinese, and 404s a foreign segment', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const ids = await seedSegments(h, session, MEETING)
    const none = (await owner.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: ids[2], itemText: 'Renew the car insurance', locale: 'en' })).json()
    expect(none).toEqual({ status: 'no-evidence', summary: { text: '', points: [], sourceSegmentIds: [] }, generatedBy: 'extractive' })

    const zh = await startRecording(await h.member())
    const zhOwner = await h.member()
    const zhSession = await startRecording(zhOwner)
    const zhIds = await seedSegments(h, zhSession, [
      { text: '大家好，今天讨论发布计划。', language: 'zh-Hans' },
      { text: '李雷负责在周五之前完成预算审批。预算需要财务确认。', language: 'zh-Hans' },
      { text: '另外，办公室的咖啡机坏了。', language: 'zh-Hans' },
    ])
    const zhAnswer = (await zhOwner.post(`/v1/sessions/${zhSession.id}/transcript-summary`, { segmentId: zhIds[1], itemText: '完成预算审批', locale: 'zh-Hans' })).json()
    expect(zhAnswer.status).toBe('answered')
    expect(zhAnswer.summary.text).toContain('李雷负责在周五之前完成预算审批。')
    expect(zhAnswer.summary.text).not.toContain(' ')
    expect(zhAnswer.summary.text).not.toContain('咖啡机')

    expect((await owner.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: zhIds[0], itemText: 'x', locale: 'en' })).statusCode).toBe(404)
    expect((await zhOwner.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: ids[0], itemText: 'x', locale: 'en' })).statusCode).toBe(404)
    expect((await owner.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: ids[0], itemText: 'x', locale: 'fr' })).statusCode).toBe(400)
    expect(zh.id).toBeTruthy()
  })
})

const llm = chatServer()
beforeAll(() => llm.start())
afterAll(() => llm.stop())
const llmUrl = () => llm.url()

eachDatabase('transcript summary (grounded-ai)', (h) => {
  it('uses the model when its citations hold, and falls back to extractive when they do not or it fails', async () => {
    // The harness built the app before this server had a port: point the chat client at it.
    h.app.deps.llm = createChatClient({ baseUrl: llmUrl(), model: 'test-model', timeoutMs: 5000 })
    const owner = await h.member()
    const session = await startRecording(owner)
    const ids = await seedSegments(h, session, MEETING)
    const ask = () => owner.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: ids[2], itemText: 'Send the launch email', locale: 'en' })

    llm.reply = ({ messages }) => {
      expect(messages[1]!.content).toContain(`[${ids[2]}]`)
      return { status: 200, content: JSON.stringify({ status: 'answered', text: 'Dana emails customers Friday once legal approves (by Thursday).', points: [{ text: 'Dana sends it Friday', sourceSegmentIds: [ids[2]] }, { text: 'Legal approves by Thursday', sourceSegmentIds: [ids[3]] }] }) }
    }
    const grounded = (await ask()).json()
    expect(grounded).toMatchObject({ status: 'answered', generatedBy: 'grounded-ai', summary: { sourceSegmentIds: [ids[2], ids[3]] } })

    llm.reply = () => ({ status: 200, content: JSON.stringify({ status: 'answered', text: 'Invented.', points: [{ text: 'made up', sourceSegmentIds: ['seg_invented'] }] }) })
    expect((await ask()).json()).toMatchObject({ status: 'answered', generatedBy: 'extractive' })
    llm.reply = () => ({ status: 200, content: 'not json at all' })
    expect((await ask()).json().generatedBy).toBe('extractive')
    llm.reply = () => ({ status: 503 })
    expect((await ask()).json().generatedBy).toBe('extractive')
    llm.reply = () => ({ status: 200, content: JSON.stringify({ status: 'no-evidence', text: '', points: [] }) })
    expect((await ask()).json()).toMatchObject({ status: 'no-evidence', generatedBy: 'grounded-ai' })
  })
})

eachDatabase('transcript summary in the asked language', (h) => {
  it('answers a zh-Hans request about an English transcript in Chinese, quoting what was said', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const ids = await seedSegments(h, session, MEETING)
    const body = (await owner.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: ids[2], itemText: 'Send the launch email to customers', locale: 'zh-Hans' })).json()
    expect(body.status).toBe('answered')
    expect(body.summary.text.startsWith('会议中提到：')).toBe(true)
    expect(body.summary.text).toContain('“Dana will send the launch email to customers on Friday.”')
    const english = (await owner.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: ids[2], itemText: 'Send the launch email to customers', locale: 'en' })).json()
    expect(english.summary.text).not.toMatch(/\p{Script=Han}/u)
  })

  it('refuses a grounded-ai summary written in English when zh-Hans was asked', async () => {
    h.app.deps.llm = createChatClient({ baseUrl: llmUrl(), model: 'test-model', timeoutMs: 5000 })
    const owner = await h.member()
    const session = await startRecording(owner)
    const ids = await seedSegments(h, session, MEETING)
    llm.reply = () => ({ status: 200, content: JSON.stringify({ status: 'answered', text: 'Dana emails customers on Friday.', points: [{ text: 'Dana sends it Friday', sourceSegmentIds: [ids[2]] }] }) })
    const english = (await owner.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: ids[2], itemText: 'Send the launch email', locale: 'zh-Hans' })).json()
    expect(english.generatedBy).toBe('extractive')
    expect(english.summary.text.startsWith('会议中提到：')).toBe(true)
    llm.reply = () => ({ status: 200, content: JSON.stringify({ status: 'answered', text: 'Dana 周五给客户发邮件。', points: [{ text: 'Dana 周五发送', sourceSegmentIds: [ids[2]] }] }) })
    expect((await owner.post(`/v1/sessions/${session.id}/transcript-summary`, { segmentId: ids[2], itemText: 'Send the launch email', locale: 'zh-Hans' })).json()).toMatchObject({ generatedBy: 'grounded-ai', summary: { text: 'Dana 周五给客户发邮件。' } })
    h.app.deps.llm = undefined
  })
})
