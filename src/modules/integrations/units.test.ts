// Pure pieces of the integrations module: access rules, approval tokens, the keyring, which
// actions suit a work object, and the connectors' catalog.
import { describe, expect, it } from 'vitest'
import { allowsAction } from './access.ts'
import { canonicalPayload, issueApprovalToken, payloadHashOf, tokenMatches } from './approval.ts'
import { ACTION_IDS, CONNECTORS } from './connectors/index.ts'
import { parseRetryAfter, ProviderError, providerError } from './connectors/types.ts'
import { MAX_RETRY_AFTER_MS, retryDelayOf } from './run.ts'
import { suitableActions } from './recommendations.ts'
import { createKeyring } from './secrets.ts'
import type { WorkObject } from '../work/index.ts'

const access = (connectionIds: string[], actionIds: string[], grants: unknown[] = []) => ({
  project_id: 'prj_1', workspace_id: 'wsp_1', connection_ids: JSON.stringify(connectionIds), action_ids: JSON.stringify(actionIds),
  grants: JSON.stringify(grants), updated_by: 'acc_1', updated_at: '2026-01-01T00:00:00.000Z',
})
const connection = { id: 'con_1', action_ids: JSON.stringify(['github.create_issue']) }

describe('allowsAction', () => {
  it('needs the connection and the action listed, and the action made for the connection', () => {
    expect(allowsAction(undefined, connection, 'github.create_issue')).toBe(false)
    expect(allowsAction(access(['con_1'], ['github.create_issue']), connection, 'github.create_issue')).toBe(true)
    expect(allowsAction(access([], ['github.create_issue']), connection, 'github.create_issue')).toBe(false)
    expect(allowsAction(access(['con_1'], []), connection, 'github.create_issue')).toBe(false)
    expect(allowsAction(access(['con_1'], ['webhook.send']), connection, 'webhook.send')).toBe(false)
  })
  it('lets a grant narrow a connection', () => {
    const narrowed = access(['con_1'], ['github.create_issue'], [{ connectionId: 'con_1', actionIds: [] }])
    expect(allowsAction(narrowed, connection, 'github.create_issue')).toBe(false)
  })
})

describe('approval tokens', () => {
  const binding = { actionRowId: 'act_1', payloadHash: payloadHashOf(canonicalPayload({ b: 1, a: 2 })), connectionId: 'con_1', actionId: 'github.create_issue', actionVersion: 1, expiresAt: '2026-01-01T00:10:00.000Z' }
  const secret = 'a-secret-that-is-long-enough-for-tests'
  it('match only the binding they were issued for', () => {
    const { token, tokenHash } = issueApprovalToken(secret, binding)
    expect(tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(tokenMatches(secret, token, binding)).toBe(true)
    for (const change of [{ payloadHash: payloadHashOf('{}') }, { connectionId: 'con_2' }, { actionVersion: 2 }, { actionRowId: 'act_2' }, { expiresAt: '2027-01-01T00:00:00.000Z' }]) {
      expect(tokenMatches(secret, token, { ...binding, ...change })).toBe(false)
    }
    expect(tokenMatches('another-secret-that-is-long-enough', token, binding)).toBe(false)
    expect(tokenMatches(secret, `${token}.x`, binding)).toBe(false)
    expect(tokenMatches(secret, 'garbage', binding)).toBe(false)
  })
  it('hash canonical JSON: key order does not matter, content does', () => {
    expect(canonicalPayload({ b: 1, a: 2 })).toBe('{"a":2,"b":1}')
    expect(payloadHashOf(canonicalPayload({ a: 2, b: 1 }))).toBe(binding.payloadHash)
  })
})

describe('keyring', () => {
  it('seals with a fresh nonce, binds the row id, and reads every configured version', () => {
    const old = createKeyring('server-secret-long-enough-for-hkdf', [])
    const sealed = old.encrypt('{"apiKey":"k"}', 'con_1')
    expect(sealed.keyVersion).toBe(0)
    expect(old.encrypt('{"apiKey":"k"}', 'con_1').nonce).not.toBe(sealed.nonce)
    expect(old.decrypt(sealed, 'con_1')).toBe('{"apiKey":"k"}')
    expect(() => old.decrypt(sealed, 'con_2')).toThrow()
    const tampered = { ...sealed, ciphertext: Buffer.from(Buffer.from(sealed.ciphertext, 'base64').map((byte, index) => (index === 0 ? byte ^ 1 : byte))).toString('base64') }
    expect(() => old.decrypt(tampered, 'con_1')).toThrow()
    const rotated = createKeyring('server-secret-long-enough-for-hkdf', [{ version: 3, key: Buffer.alloc(32, 1) }])
    expect(rotated.currentVersion).toBe(3)
    expect(rotated.decrypt(sealed, 'con_1')).toBe('{"apiKey":"k"}')
    expect(rotated.encrypt('x', 'con_1').keyVersion).toBe(3)
    expect(() => old.decrypt(rotated.encrypt('x', 'con_1'), 'con_1')).toThrow(/version 3/)
  })
})

describe('suitableActions', () => {
  const object = (fields: Partial<WorkObject>) => ({ kind: 'action', sourceSegmentIds: [], ...fields }) as WorkObject
  it('maps action items to an issue, dated ones also to an event, decisions to a channel message', () => {
    expect(suitableActions(object({})).flatMap((want) => want.actionIds)).toEqual(['github.create_issue', 'linear.create_issue'])
    expect(suitableActions(object({ dueDate: '2026-12-04' })).map((want) => want.actionIds[0])).toEqual(['github.create_issue', 'caldav.create_event'])
    expect(suitableActions(object({ kind: 'decision' })).flatMap((want) => want.actionIds)).toEqual(['slack.post_message', 'webhook.send'])
    expect(suitableActions(object({ kind: 'question' }))).toEqual([])
  })
})

describe('the connector catalog', () => {
  it('has unique action ids named after their service, each with an object input schema and a version', () => {
    expect(new Set(ACTION_IDS).size).toBe(ACTION_IDS.length)
    for (const connector of CONNECTORS) {
      for (const action of connector.actions) {
        expect(action.id.startsWith(`${connector.service}.`)).toBe(true)
        expect(action.id).toMatch(/^[a-z]+\.[a-z_]+$/)
        expect((action.input as { type?: string }).type).toBe('object')
        expect(action.version).toBeGreaterThanOrEqual(1)
      }
    }
  })
})

describe('Retry-After', () => {
  const now = Date.parse('2026-11-24T20:00:00.000Z')
  it('reads delay-seconds and HTTP dates; ignores what is neither', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000)
    expect(parseRetryAfter(' 0 ', now)).toBe(0)
    expect(parseRetryAfter('Tue, 24 Nov 2026 20:00:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('Tue, 24 Nov 2026 19:00:00 GMT', now)).toBe(0)
    for (const value of [undefined, null, '', '-5', '1.5', 'soon', '2026-11-24']) expect(parseRetryAfter(value, now)).toBeUndefined()
  })

  it('shapes the next attempt only for retryable refusals, within the bound', () => {
    expect(retryDelayOf(providerError(429, 'slow down', '3'))).toBe(3000)
    expect(retryDelayOf(providerError(503, 'later', String(7 * 24 * 3600)))).toBe(MAX_RETRY_AFTER_MS)
    expect(retryDelayOf(providerError(429, 'now', '0'))).toBeGreaterThan(0)
    expect(retryDelayOf(providerError(400, 'bad', '3'))).toBeUndefined()
    expect(retryDelayOf(providerError(503, 'no header'))).toBeUndefined()
    expect(retryDelayOf(new ProviderError('x', { retryable: false, retryAfterMs: 1000 }))).toBeUndefined()
    expect(retryDelayOf(new Error('not a provider'))).toBeUndefined()
  })
})
