// The names of the durable jobs that one module enqueues and another handles (docs/ARCHITECTURE.md,
// "Jobs"). Enqueuing by name keeps the enqueuer from importing the handler's module.

export const JOBS = {
  /** sessions → processing: the after-capture chain of an ended session (transcribe, refine, takeover, ready) */
  processSession: 'sessions.process',
  /** sessions → transcripts: new audio chunks while recording */
  transcribe: 'transcripts.transcribe',
  /** transcripts → extraction: new final segments (one pending per session) */
  refine: 'extraction.refine',
  /** work → work: the takeover summary of a set whose meeting gets its first action item */
  takeover: 'work.takeover',
} as const

/** Payload of every job above. */
export type SessionJobPayload = { sessionId: string }
