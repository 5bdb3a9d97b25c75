// Why an action is recommended, as a stable code beside the English sentence stored with the
// recommendation: a client writes the reason in its reader's language from the code (the stored
// sentence is the meeting-independent English the API always gave). One code per catalog action.
export const REASON_CODES = ['tracker-issue', 'dated-follow-up', 'message', 'decision-announcement'] as const
export type ReasonCode = typeof REASON_CODES[number]

const BY_ACTION: Record<string, ReasonCode> = {
  'github.create_issue': 'tracker-issue',
  'linear.create_issue': 'tracker-issue',
  'caldav.create_event': 'dated-follow-up',
  'email.send': 'message',
  'slack.post_message': 'decision-announcement',
  'webhook.send': 'decision-announcement',
}

/** The reason code of a recommended action, or undefined for an action no rule recommends. */
export const reasonCodeOf = (actionId: string): ReasonCode | undefined => BY_ACTION[actionId]
