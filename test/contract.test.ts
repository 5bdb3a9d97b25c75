// Mismatches found by calling the server as a client written against the interface
// (/work/shared/spec/interface.md) would, through HTTP on every database.
import { beforeAll, describe, expect, it } from 'vitest'
import { startRecording } from '../src/modules/sessions/testing.ts'
import { eachDatabase, type Member } from './harness.ts'

const JSON_TYPE = { 'content-type': 'application/json' }

eachDatabase('the interface, from a client', (h) => {
  let owner: Member
  beforeAll(async () => {
    owner = await h.member()
  })

  describe('an operation whose request is "none" takes an empty body sent as application/json', () => {
    it('login-intent (public), resend, rebuild-workset and bootstrap answer 200', async () => {
      const created = await owner.post('/v1/workspace/invitations', { email: h.uniqueEmail('invitee') })
      expect(created.statusCode, created.body).toBe(200)
      const { invitation, inviteURL } = created.json()
      const token = String(inviteURL).split('/').pop()!

      const intent = await h.anonymous.request('POST', `/v1/invitations/${token}/login-intent`, { headers: JSON_TYPE, payload: '' })
      expect(intent.statusCode, intent.body).toBe(200)
      expect(intent.json()).toMatchObject({ invitedEmail: invitation.email, contentPermission: invitation.contentPermission })

      const resend = await owner.request('POST', `/v1/workspace/invitations/${invitation.id}/resend`, { headers: JSON_TYPE, payload: '' })
      expect(resend.statusCode, resend.body).toBe(200)

      const session = await startRecording(owner)
      const rebuild = await owner.request('POST', `/v1/sessions/${session.id}/rebuild-workset`, { headers: JSON_TYPE, payload: '' })
      expect(rebuild.statusCode, rebuild.body).toBe(200)
      expect(rebuild.json()).toMatchObject({ sessionId: session.id })

      const bootstrap = await owner.request('POST', '/v1/account/bootstrap', { headers: JSON_TYPE, payload: ' \n' })
      expect(bootstrap.statusCode, bootstrap.body).toBe(200)
      expect(bootstrap.json().workspace.id).toBe(owner.workspaceId)
    })

    it('an operation that needs a body still answers 400 validation_failed', async () => {
      const response = await owner.request('POST', '/v1/projects', { headers: JSON_TYPE, payload: '' })
      expect(response.statusCode, response.body).toBe(400)
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(response.json()).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field: 'body' })] })
    })
  })
})
