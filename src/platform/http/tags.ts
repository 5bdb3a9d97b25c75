// OpenAPI tags: the interface's endpoint groups (spec/endpoints.tsv), spelled exactly.
export const TAGS = {
  system: 'System',
  account: 'Account and voice profile',
  sessions: 'Sessions, shares, conversations',
  work: 'Work',
  actions: 'Actions and integrations',
  projects: 'Projects and memory',
  workspace: 'Workspace, invitations, notifications',
  reviews: 'Reviews',
  billing: 'Billing',
} as const
