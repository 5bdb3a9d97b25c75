// Test helpers of the runner module: a runner paired through the real routes, with its own key,
// and completions signed the way `confer runner` signs them.
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import canonicalize from 'canonicalize'
import type { LightMyRequestResponse } from 'fastify'
import type { Harness, Member } from '../../../test/harness.ts'
import { sha256Hex } from '../../platform/ids.ts'

export type TestRunner = {
  id: string
  token: string
  privateKey: KeyObject
  request(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<LightMyRequestResponse>
}

export function runnerKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  return { privateKey, publicSigningKey: publicKey.export({ format: 'jwk' }).x! }
}

const json = (response: LightMyRequestResponse, what: string) => {
  if (response.statusCode !== 200) throw new Error(`${what} failed: ${response.statusCode} ${response.body}`)
  return response.json()
}

/** The member creates a grant and a new runner registers with it (as `confer runner pair` does). */
export async function pairRunner(h: Harness, member: Member, options: { supportedRunners?: string[]; installationId?: string } = {}): Promise<TestRunner> {
  const grant = json(await member.post('/v1/local-runner/registration-grants', {}), 'creating a grant')
  const key = runnerKey()
  const registered = json(await h.app.inject({
    method: 'POST', url: '/v1/local-runner/registrations',
    headers: { authorization: `Bearer ${grant.registrationGrant}` },
    payload: {
      installationId: options.installationId ?? `inst-${randomBytes(4).toString('hex')}`, displayName: 'Test laptop',
      supportedRunners: options.supportedRunners ?? ['runner-a'], capabilities: [{ name: 'shell' }], publicSigningKey: key.publicSigningKey,
    },
  }), 'registering a runner')
  const token = registered.runnerToken as string
  return {
    id: registered.runner.id, token, privateKey: key.privateKey,
    request: (method, url, body) => h.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body as object }) }),
  }
}

/** A work object of the member's, in a new session. */
export async function workObjectFor(member: Member, fields: Record<string, unknown> = { nextStep: 'runner-a' }) {
  const session = json(await member.post('/v1/sessions', { captureMode: 'microphone' }), 'starting a session')
  return json(await member.post(`/v1/sessions/${session.id}/workobjects`, { kind: 'action', title: 'Prepare the release notes', ...fields }), 'capturing a work object')
}

export type Lease = { leaseId: string; attempt: number; expiresAt: string }

/** The signed completion body for a task under a lease. */
export function signedCompletion(runner: Pick<TestRunner, 'privateKey'>, taskId: string, lease: Pick<Lease, 'leaseId' | 'attempt'>, result: unknown, overrides: { nonce?: string; timestamp?: string } = {}) {
  const nonce = overrides.nonce ?? randomBytes(16).toString('hex')
  const timestamp = overrides.timestamp ?? new Date().toISOString()
  const payload = { taskId, leaseId: lease.leaseId, attempt: lease.attempt, resultSha256: sha256Hex(canonicalize(result)!), nonce, timestamp }
  const signature = sign(null, Buffer.from(canonicalize(payload)!), runner.privateKey).toString('base64url')
  return { leaseId: lease.leaseId, attempt: lease.attempt, result, nonce, timestamp, signature }
}
