// Work calls: work sets, work objects (proposal, stage, responsibility, assignment, content),
// comments, revisions and reviews. Every mutation refreshes the cached work set it belongs to.
import { api, idempotencyKey, invalidate, useResource } from '../../lib/api.ts'
import type {
  AssignmentInput, MembersResult, ProposalDecisionInput, ResponsibilityInput, ReviewDecisionInput, ReviewResult,
  StageInput, StageResult, WorkComment, WorkObject, WorkObjectRevision, WorkSetDetail, WorkSetPatchInput,
} from '../../lib/types.ts'

export type ConversationWorkSets = { workSets: { id: string }[] }

export const workSetPath = (id: string) => `/v1/worksets/${id}`
export const useConversationWorkSets = (conversationId: string | undefined) =>
  useResource<ConversationWorkSets>(conversationId ? `/v1/conversations/${conversationId}/workset` : null)
export const useWorkSet = (id: string | undefined) => useResource<WorkSetDetail>(id ? workSetPath(id) : null)
export const useMembers = () => useResource<MembersResult>('/v1/workspace/members')
export const useComments = (id: string) => useResource<WorkComment[]>(`/v1/workobjects/${id}/comments`)
export const useRevisions = (id: string) => useResource<{ workObjectId: string; revisions: WorkObjectRevision[] }>(`/v1/workobjects/${id}/revisions`)

const refresh = <T extends { workSetId?: string; workObject?: WorkObject }>(result: T, workSetId: string) => {
  invalidate(workSetPath(workSetId))
  return result
}

export const work = {
  decideProposal: async (wo: WorkObject, input: ProposalDecisionInput) => refresh(await api.patch<{ workObject: WorkObject }>(`/v1/workobjects/${wo.id}/proposal`, input), wo.workSetId),
  moveStage: async (wo: WorkObject, input: StageInput) => refresh(await api.patch<StageResult>(`/v1/workobjects/${wo.id}/stage`, input), wo.workSetId),
  setResponsibility: async (wo: WorkObject, input: ResponsibilityInput) => refresh(await api.patch<{ workObject?: WorkObject }>(`/v1/workobjects/${wo.id}/responsibility`, input), wo.workSetId),
  assign: async (wo: WorkObject, input: AssignmentInput) => refresh(await api.post<{ workObject?: WorkObject }>(`/v1/workobjects/${wo.id}/assignment`, input), wo.workSetId),
  edit: async (wo: WorkObject, title: string, summary: string, dueDate: string, nextStep: NextStep | '') =>
    refresh(await api.patch<{ workObject?: WorkObject }>(`/v1/workobjects/${wo.id}`, {
      expectedRevisionHash: wo.revisionHash, content: { title, summary: summary || null }, dueDate: dueDate || null, nextStep: nextStep || null,
    }), wo.workSetId),
  comment: async (wo: WorkObject, body: string) => {
    const comment = await api.post<WorkComment>(`/v1/workobjects/${wo.id}/comments`, { body })
    invalidate(`/v1/workobjects/${wo.id}/comments`)
    return comment
  },
  designateReviewer: async (wo: WorkObject, userId: string) => refresh(await api.post<{ workObject?: WorkObject }>(`/v1/reviews/${wo.reviewId}/assignment`, { action: 'assign', userId }), wo.workSetId),
  requestReview: async (wo: WorkObject) => refresh(await api.post<{ workObject?: WorkObject }>(`/v1/reviews/${wo.reviewId}/request`, { revisionId: wo.revisionId }), wo.workSetId),
  decideReview: async (wo: WorkObject, input: Omit<ReviewDecisionInput, 'revisionId'>) =>
    refresh(await api.post<ReviewResult>(`/v1/reviews/${wo.reviewId}/decisions`, { ...input, revisionId: wo.revisionId }), wo.workSetId),
  patchWorkSet: async (sessionId: string, workSetId: string, input: WorkSetPatchInput) => {
    const result = await api.patch<unknown>(`/v1/sessions/${sessionId}/workset`, input)
    invalidate(workSetPath(workSetId))
    return result
  },
  rebuild: async (sessionId: string, workSetId: string) => {
    const result = await api.post<unknown>(`/v1/sessions/${sessionId}/rebuild-workset`, {}, { 'idempotency-key': idempotencyKey() })
    invalidate(workSetPath(workSetId))
    return result
  },
}

export const STAGES = ['captured', 'structured', 'executing', 'ready-for-review', 'accepted'] as const
/** MeetingWorkNextStep: the production branch a member chooses; it authorizes nothing external. */
export const NEXT_STEPS = ['organize', 'runner-a', 'moodboard', 'visual-proposal'] as const
export type NextStep = (typeof NEXT_STEPS)[number]
