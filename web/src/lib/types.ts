// Request and response types of the API, taken from the server's own TypeBox schemas (type-only
// imports: nothing of the server reaches the bundle). `Type.Ref` fields type as unknown, so the
// referenced records are put back in with Resolve.
import type { Static } from 'typebox'
import type * as account from '../../../src/modules/account/schemas.ts'
import type * as sessions from '../../../src/modules/sessions/schemas.ts'
import type * as shares from '../../../src/modules/shares/schemas.ts'
import type * as work from '../../../src/modules/work/schemas.ts'
import type * as followups from '../../../src/modules/work/followup-schemas.ts'
import type * as workspace from '../../../src/modules/workspace/schemas.ts'
import type * as notifications from '../../../src/modules/notifications/schemas.ts'
import type * as projects from '../../../src/modules/projects/schemas.ts'
import type * as billing from '../../../src/modules/billing/schemas.ts'
import type * as runner from '../../../src/modules/runner/schemas.ts'
import type * as integrations from '../../../src/modules/integrations/schemas.ts'
import type * as memory from '../../../src/modules/memory/schemas.ts'
import type * as answers from '../../../src/modules/answers/schemas.ts'
import type * as voice from '../../../src/modules/voice/schemas.ts'

type Resolve<T, R> = Omit<T, keyof R> & R

export type Account = Static<typeof account.AccountRecord>
export type Workspace = Static<typeof account.WorkspaceRecord>
export type Membership = Static<typeof account.MembershipRecord>
export type BootstrapInput = Static<typeof account.BootstrapRequest>
export type ProfileInput = account.ProfileInput
export type BootstrapResult = Resolve<Static<typeof account.BootstrapResponse>, { account: Account; workspace: Workspace; membership: Membership }>
export type CurrentAccount = Resolve<Static<typeof account.CurrentAccountResponse>, { account: Account; workspace?: Workspace; membership?: Membership }>

export type SessionSnapshot = Static<typeof sessions.SessionSnapshot>
export type CaptureMode = Static<typeof sessions.CaptureMode>
export type CreateSessionInput = Static<typeof sessions.CreateSessionBody>
export type SessionCreateResult = Static<typeof sessions.CreateSessionResult>
export type AudioChunkResult = Static<typeof sessions.AudioChunkResult>
export type AudioChunk = Static<typeof sessions.AudioChunkRecord>

/** A transcript segment (the share page's schema holds the same fields as the transcript route's). */
export type TranscriptSegment = Static<typeof shares.ShareTranscriptPage>['segments'][number] & { status: 'partial' | 'final' }
/** What voice recognition says of a session speaker; a suggestion is confirmed by PATCH of its identity (`confirmSpeaker`). */
export type SpeakerVoice = { state: 'named' | 'suggested' | 'unnamed' | 'opted-out'; identityId?: string; suggestion?: { identityId: string; displayName: string; score: number } }
export type Speaker = { speakerId: string; label: string; voice?: SpeakerVoice }
export type Transcript = { sessionId: string; segments: TranscriptSegment[]; speakers: Speaker[]; nextCursor?: string }

export type WorkObject = Static<typeof work.WorkObject>
export type WorkObjectRevision = Static<typeof work.WorkObjectRevision>
export type ReviewTask = Static<typeof work.ReviewTask>
export type WorkComment = Static<typeof work.WorkComment>
export type WorkSet = Static<typeof work.WorkSetV2>
export type Stage = Static<typeof work.Stage>
export type ResponsibilityState = Static<typeof work.ResponsibilityStateSchema>
export type StageInput = Static<typeof work.StageBody>
export type ProposalDecisionInput = Static<typeof work.ProposalDecisionBody>
export type ResponsibilityInput = Static<typeof work.ResponsibilityBody>
export type AssignmentInput = Static<typeof work.AssignmentBody>
export type ReviewDecisionInput = Static<typeof work.ReviewDecisionBody>
export type Clarification = Static<typeof followups.Clarification>
export type Relation = Static<typeof followups.Relation>
export type TakeoverSummary = Static<typeof followups.TakeoverSummary>
export type WorkSetPatchInput = Static<typeof followups.WorkSetPatchBody>
export type WorkSetDetail = Resolve<Static<typeof work.WorkSetDetail>, {
  workSet: WorkSet; workObjects: WorkObject[]; revisions: WorkObjectRevision[]; reviewTasks: ReviewTask[]
  takeoverSummary?: TakeoverSummary; clarifications: Clarification[]; relations: Relation[]
}>
export type ReviewResult = { review: ReviewTask; workObject: WorkObject }
export type StageResult = { workObject: WorkObject; transition: Static<typeof work.StageTransition> }

export type WorkspaceMember = Static<typeof workspace.WorkspaceMember>
export type WorkspaceInvitation = Static<typeof workspace.WorkspaceInvitation>
export type MembersResult = { members: WorkspaceMember[]; invitations: WorkspaceInvitation[] }
export type CreateInvitationInput = Static<typeof workspace.CreateInvitationBody>
export type InvitationResult = Resolve<Static<typeof workspace.InvitationResult>, { invitation: WorkspaceInvitation }>
export type LoginIntent = Static<typeof workspace.LoginIntent>
export type AcceptResult = Resolve<Static<typeof workspace.AcceptResult>, { member: WorkspaceMember }>
export type CollaborationNotification = Static<typeof notifications.CollaborationNotification>
export type NotificationList = Resolve<Static<typeof notifications.NotificationList>, { notifications: CollaborationNotification[] }>
export type MarkReadInput = Static<typeof notifications.MarkReadBody>

export type Project = Static<typeof projects.Project>
export type ProjectRole = Static<typeof projects.ProjectRole>
export type ProjectMembership = Static<typeof projects.ProjectMembership>
export type CreateProjectInput = Static<typeof projects.CreateProjectBody>
export type UpdateProjectInput = Static<typeof projects.UpdateProjectBody>
export type ProjectDetail = { project: Project; sessions: SessionSnapshot[] }

export type ShareLink = Static<typeof shares.ShareLink>
export type ShareComment = Static<typeof shares.ShareComment>
export type ShareCommentInput = Static<typeof shares.ShareCommentBody>
export type ShareView = Resolve<Static<typeof shares.ShareView>, {
  session: SessionSnapshot; comments: ShareComment[]; workObjects: WorkObject[]
}>

export type SessionSearchResult = { query: string; sessions: (SessionSnapshot & { search: { score: number; matchedIn: 'title' | 'transcript'; snippet: string; segmentId?: string } })[] }

// ---- billing, local runners, integrations (their screens load lazily) ----

export type BillingLimit = Static<typeof billing.BillingLimit>
export type BillingSummary = Resolve<Static<typeof billing.BillingSummaryResponse>, { limits: BillingLimit[] }>
export type BillingRedirect = Static<typeof billing.BillingRedirectResponse>
export type CheckoutInput = Static<typeof billing.CheckoutBody>

export type RegistrationGrant = Static<typeof runner.RegistrationGrant>
export type CreateGrantInput = Static<typeof runner.CreateGrantBody>
export type LocalRunner = Static<typeof runner.LocalRunner>
export type RunnerList = { runners: LocalRunner[] }
export type RunnerTaskResult = Static<typeof runner.TaskResult>
export type RunnerTask = Resolve<Static<typeof runner.LocalRunnerTask>, { result?: RunnerTaskResult }>
export type RunnerTaskList = { tasks: RunnerTask[] }
export type CreateTaskInput = Static<typeof runner.CreateTaskBody>

export type IntegrationConnection = Static<typeof integrations.IntegrationConnection>
export type CredentialConnectionInput = Static<typeof integrations.CredentialConnectionBody>
export type OAuthConnectionInput = Static<typeof integrations.OAuthConnectionBody>
export type OAuthConnectionResult = Resolve<Static<typeof integrations.OAuthConnectionResult>, { connection: IntegrationConnection }>
export type IntegrationAccess = Static<typeof integrations.IntegrationAccess>
export type AccessInput = Static<typeof integrations.AccessBody>
export type ActionRecommendation = Static<typeof integrations.ActionRecommendation>
export type RecommendationList = { recommendations: ActionRecommendation[] }
export type RefreshInput = Static<typeof integrations.RefreshBody>
export type ActionReceipt = Static<typeof integrations.ExternalActionReceipt>
export type PreparedAction = Resolve<Static<typeof integrations.PreparedExternalAction>, { receipt?: ActionReceipt }>
export type PrepareRecommendationInput = Static<typeof integrations.PrepareRecommendationBody>
export type ApprovalResult = Resolve<Static<typeof integrations.ApprovalResult>, { action: PreparedAction }>
export type ExecuteInput = Static<typeof integrations.ExecuteBody>
export type ExecuteResult = Resolve<Static<typeof integrations.ExecuteResult>, { action: PreparedAction; receipt: ActionReceipt }>
export type Execution = Resolve<Static<typeof integrations.ExecutionV2>, { receipt?: ActionReceipt }>
export type ExternalTool = Static<typeof integrations.ExternalTool>
export type ExternalToolList = Static<typeof integrations.ExternalToolList>
export type MemorySource = Static<typeof memory.MemorySource>
export type MemoryEntry = Resolve<Static<typeof memory.ProjectMemoryEntry>, { sources: MemorySource[] }>
export type MemoryConflictSide = Resolve<Static<typeof memory.MemoryConflictSide>, { sources: MemorySource[] }>
export type MemoryConflict = Resolve<Static<typeof memory.MemoryConflict>, { sides: MemoryConflictSide[] }>
export type MemoryCodebase = Static<typeof memory.Codebase>
export type ProjectMemory = Resolve<Static<typeof memory.ProjectMemory>, { entries: MemoryEntry[]; conflicts: MemoryConflict[]; codebases: MemoryCodebase[] }>
export type ResolveConflictInput = Static<typeof memory.ResolveConflictBody>
export type ResolveConflictResult = { conflict: MemoryConflict; memory: ProjectMemory }

export type AnswerSource = Static<typeof answers.AnswerSource>
export type SearchAnswer = Resolve<Static<typeof answers.SearchAnswer>, { sources: AnswerSource[] }>

export type VoiceManifest = Static<typeof voice.VoiceProfileModelManifest>
export type VoiceProfile = Static<typeof voice.VoiceProfileResponse>
export type DeleteVoiceProfileResult = Static<typeof voice.DeleteVoiceProfileResponse>
export type EnrollmentCreated = Resolve<Static<typeof voice.EnrollmentCreated>, { manifest: VoiceManifest }>
export type SaveEnrollmentInput = Static<typeof voice.SaveEnrollmentBody>
export type VoiceIdentity = Static<typeof voice.WorkspaceVoiceIdentity>
export type VoiceIdentityUtterance = Static<typeof voice.WorkspaceVoiceIdentityUtterance>
export type VoiceIdentityDetail = { identity: VoiceIdentity; utterances: VoiceIdentityUtterance[] }
export type PatchIdentityInput = Static<typeof voice.PatchIdentityBody>
export type VoiceOptOutResult = Static<typeof voice.OptOutResult>
export type DeleteIdentityResult = Static<typeof voice.DeleteIdentityResult>
