// Work: each session's work set, its work objects (content revisions, stages, responsibility,
// assignment), AI proposals, review tasks, comments and activity. Other modules use:
// - createProposal(deps, executor, {sessionId, kind, title, summary, sourceSegmentIds, confidence, …}):
//   an AI-made object as a pending proposal (the extraction engine);
// - proposeRevision(deps, executor, {workObjectId, title, summary, confidence}): an AI-made revision
//   of an existing object, pending until a person accepts it;
// - addComment(deps, executor, {workObjectId, body, author: {accountId} | {shareId, displayName}, sessionId?}):
//   comments made through a share link appear in the object's comments;
// - listSessionComments(deps, sessionId), listSessionWorkObjects(deps, sessionId): what the share view shows;
// - recordFollowups(deps, trx, sessionId, {clarifications, relations}): what an extraction run raised;
// - deriveTakeover(deps, sessionId): the takeover summary after the meeting;
// - findWorkObject(deps, workspaceId, id): one object as the API shows it (the runner's tasks).
// - listAcceptedProjectWork(deps, workspaceId, {projectId, sessionIds}), findWorkObjectsMentioning(deps,
//   workspaceId, words): accepted work of a project (project memory) and work a question mentions (answers).
// - deps.ports.openWorkTitles: titles of open work, for the speech engine's vocabulary;
// - readWorkObject, readWorkSet, announceWorkSetChange: for the integrations module's recommended
//   and executed actions (external-actions.ts); the detail reads them back through deps.ports.worksetActions.
// - recordExternalReceipt(deps, trx, {workspaceId, workObjectId, actorId, ref}): an executed action's
//   receipt (created issue's id and URL) onto the object's `externalRefs` and activity (external-refs.ts).
// - renameSuggestedOwner(deps, trx, {workspaceId, sessionId, from: labels, to, actorId}): a session speaker
//   a person named: the session's work suggesting an old label as owner suggests the name (voice).
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { boardRoutes } from './board.ts'
import { collaborationRoutes } from './collaboration-routes.ts'
import { workRoutes } from './routes.ts'
import { followupSchemas } from './followup-schemas.ts'
import { workSchemas } from './schemas.ts'
import { worksetRoutes } from './workset-routes.ts'
import { findObject, listOpenWorkTitles } from './repo.ts'
import { presentWorkObject } from './presenter.ts'

export { createProposal, proposeRevision, withdrawProposal, type ProposalInput } from './proposals.ts'
export { addComment, listSessionComments, listSessionWorkObjects, type CommentAuthor } from './comments.ts'
export { presentWorkObject, type WorkObject } from './presenter.ts'
export { contentHash } from './content.ts'
export { recordFollowups, type ProposedRelation, type RaisedClarification } from './followups.ts'
export { deriveTakeover } from './takeover.ts'
export { checkSegments } from './service.ts'
export { listTargetedWorkTitles, setNeedsRebuild } from './repo.ts'

/** The work object with this id in the workspace, as the API shows it; undefined when absent. */
export async function findWorkObject(deps: AppDeps, workspaceId: string, id: string) {
  const row = await findObject(deps.database.db, workspaceId, id)
  return row && presentWorkObject(row)
}
export { findWorkObjectBrief, findWorkObjectsMentioning, listAcceptedProjectWork, type AcceptedWorkItem, type WorkSearchHit } from './project-work.ts'
export { announceWorkSetChange, readWorkObject, readWorkSet } from './external-actions.ts'
export { recordExternalReceipt } from './external-refs.ts'
export { completeProposalHints, renameSuggestedOwner } from './owner-hints.ts'
export type { ExternalRef } from './presenter.ts'

export function workModule(deps: AppDeps): FastifyPluginAsync {
  // Transcription listens for the words of open work (its language model is biased toward them).
  deps.ports.openWorkTitles = listOpenWorkTitles
  return async (app) => {
    for (const schema of [...workSchemas, ...followupSchemas]) app.addSchema(schema)
    workRoutes(app, deps)
    collaborationRoutes(app, deps)
    worksetRoutes(app, deps)
    boardRoutes(app, deps)
  }
}
