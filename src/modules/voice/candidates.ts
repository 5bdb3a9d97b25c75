// Who a session speaker may be named as: the workspace's enrolled members who consented (a profile
// of the current model) and were not opted out there. Identification judges against them and
// diarization uses their profiles as anchors (platform/speech/speakers.ts).
import type { AppDeps } from '../../platform/deps.ts'
import { listMembers } from '../workspace/index.ts'
import type { Candidate } from './judge.ts'
import * as repo from './repo.ts'

/** Enrolled, consenting members of the workspace with a profile of the current model. */
export async function candidatesOf(deps: AppDeps, workspaceId: string): Promise<Candidate[]> {
  const db = deps.database.db
  const members = await listMembers(db, workspaceId)
  const optedOut = await repo.optedOutAccounts(db, workspaceId)
  const profiles = await repo.profilesOf(db, members.map((member) => member.account_id).filter((id) => !optedOut.has(id)))
  return profiles.filter((profile) => profile.model_version === deps.speech.voice.modelVersion).map((profile) => {
    const member = members.find((candidate) => candidate.account_id === profile.account_id)!
    return { accountId: profile.account_id, name: member.name || member.email, embedding: repo.parseVector(profile.embedding)! }
  })
}

