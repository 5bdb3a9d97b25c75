// Test helpers of the integrations module: a GitHub connection, a prepared, approved or executing
// action, made through the real routes. No network: nothing here calls the provider.
import type { Member } from '../../../test/harness.ts'

const ok = async <T = Record<string, any>>(response: Promise<{ statusCode: number; body: string; json(): any }>, what: string): Promise<T> => {
  const answer = await response
  if (answer.statusCode !== 200) throw new Error(`${what} failed: ${answer.statusCode} ${answer.body}`)
  return answer.json() as T
}

export const githubIssueInput = (title = 'Ship the beta') => ({ owner: 'octo-org', repo: 'launch', title, body: 'From the weekly sync.' })

export async function githubConnection(member: Member, options: { projectId?: string; repository?: string } = {}) {
  const projectId = options.projectId ?? (await ok(member.post('/v1/projects', { name: 'Launch' }), 'creating a project')).id as string
  const connection = await ok(member.post('/v1/integrations/connections/credential', {
    projectId, service: 'github', authType: 'api_key', credential: { apiKey: 'ghp_test_token_value' },
    actionIds: ['github.create_issue'], settings: { repository: options.repository ?? 'octo-org/launch' },
  }), 'connecting GitHub')
  return { projectId, connection }
}

export async function preparedAction(member: Member, input = githubIssueInput()) {
  const { projectId, connection } = await githubConnection(member)
  const action = await ok(member.post('/v1/integrations/actions/prepare', {
    projectId, connectionId: connection.id, actionId: 'github.create_issue', input,
  }), 'preparing an action')
  return { projectId, connection, action }
}

export async function approvedAction(member: Member) {
  const prepared = await preparedAction(member)
  const approval = await ok(member.post(`/v1/actions/${prepared.action.id}/approve`, { expectedPayloadHash: prepared.action.payloadHash }), 'approving')
  return { ...prepared, approvalToken: approval.approvalToken as string }
}

export async function executingAction(member: Member) {
  const approved = await approvedAction(member)
  const executed = await ok(member.post(`/v1/actions/${approved.action.id}/execute`, { approvalToken: approved.approvalToken }), 'executing')
  return { ...approved, executionId: executed.receipt.executionId as string }
}
