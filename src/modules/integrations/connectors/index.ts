// The connector catalog: every service Confer can act on, each behind the same interface.
import { caldavConnector } from './caldav.ts'
import { emailConnector } from './email.ts'
import { githubConnector } from './github.ts'
import { linearConnector } from './linear.ts'
import { slackConnector } from './slack.ts'
import type { ActionDefinition, Connector } from './types.ts'
import { webhookConnector } from './webhook.ts'

export const CONNECTORS: Connector[] = [githubConnector, webhookConnector, emailConnector, caldavConnector, slackConnector, linearConnector]

const byService = new Map(CONNECTORS.map((connector) => [connector.service, connector]))
const byAction = new Map(CONNECTORS.flatMap((connector) => connector.actions.map((action) => [action.id, { connector, action }] as const)))

export const connectorOf = (service: string): Connector | undefined => byService.get(service)
export const actionOf = (actionId: string): { connector: Connector; action: ActionDefinition } | undefined => byAction.get(actionId)
export const SERVICES = CONNECTORS.map((connector) => connector.service)
export const ACTION_IDS = [...byAction.keys()]
