// Written by hand from Linear's public GraphQL API reference (the published schema the pinned
// @linear/sdk 88.3.0 is generated from, browsable from linear.app/developers): ONLY the operations, arguments, fields and
// input fields Confer's Linear connector (src/modules/integrations/connectors/linear.ts) sends or
// reads, with Linear's names, types and nullability. Anything else is refused by the mock
// (test/providers/linear-mock.ts), as an unknown field would be by a stricter server: when the
// connector starts to use a new field, argument or input field, check it in Linear's reference and
// add it here with the reference's type, not the type the code happens to send.
export const linearSchema = /* GraphQL */ `
"ISO 8601 date and time."
scalar DateTime
"A date without a time (YYYY-MM-DD)."
scalar TimelessDate

type PageInfo {
  hasNextPage: Boolean!
  endCursor: String
}

type Team {
  id: ID!
  name: String!
}

type TeamConnection {
  nodes: [Team!]!
  pageInfo: PageInfo!
}

type Project {
  id: ID!
  name: String!
}

type ProjectConnection {
  nodes: [Project!]!
  pageInfo: PageInfo!
}

type WorkflowState {
  id: ID!
  name: String!
}

type WorkflowStateConnection {
  nodes: [WorkflowState!]!
  pageInfo: PageInfo!
}

type Issue {
  id: ID!
  "The issue's human readable identifier, e.g. ENG-123."
  identifier: String!
  title: String!
  url: String!
  description: String
  updatedAt: DateTime!
}

type IssueSearchResult {
  id: ID!
  identifier: String!
  title: String!
  url: String!
  description: String
  updatedAt: DateTime!
}

"The user the API key or OAuth token belongs to (Query.viewer)."
type User {
  id: ID!
}

type IssueSearchPayload {
  nodes: [IssueSearchResult!]!
}

type IssuePayload {
  success: Boolean!
  issue: Issue
}

input IDComparator {
  eq: ID
}

input TeamFilter {
  id: IDComparator
}

input WorkflowStateFilter {
  team: TeamFilter
}

input IssueCreateInput {
  "Client-chosen UUID v4 of the issue to create."
  id: String
  teamId: String!
  title: String
  description: String
  projectId: String
  stateId: String
  "0 = no priority, 1 = urgent, 2 = high, 3 = normal, 4 = low."
  priority: Int
  dueDate: TimelessDate
}

type Query {
  teams(first: Int, after: String): TeamConnection!
  projects(first: Int, after: String): ProjectConnection!
  workflowStates(first: Int, after: String, filter: WorkflowStateFilter): WorkflowStateConnection!
  issue(id: String!): Issue!
  searchIssues(term: String!, first: Int): IssueSearchPayload!
  "The currently authenticated user."
  viewer: User!
}

type Mutation {
  issueCreate(input: IssueCreateInput!): IssuePayload!
}
`
