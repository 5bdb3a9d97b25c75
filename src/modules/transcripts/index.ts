// Transcripts: the segments and speakers of capture sessions. Other modules (work objects,
// extraction, search, summaries, shares) read segments through the functions exported here.
export { finalSegments, findSegment, findSessionSegments, listSegments, listSpeakers, type SegmentRow, type SpeakerRow } from './repo.ts'
export { presentSegment, presentSpeaker, type TranscriptSegment } from './presenter.ts'
