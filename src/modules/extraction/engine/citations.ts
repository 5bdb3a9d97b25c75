// Grounding: an item must cite segments that exist. Any engine's output passes through here; an
// item citing an unknown segment (an LLM inventing ids) is dropped, with what pointed at it.
import type { ExtractedItem, ExtractionResult } from './types.ts'

export function validateCitations<T extends Pick<ExtractedItem, 'sourceSegmentIds'>>(items: T[], segmentIds: Iterable<string>): T[] {
  const known = new Set(segmentIds)
  return items.filter((item) => Array.isArray(item.sourceSegmentIds) && item.sourceSegmentIds.length > 0
    && item.sourceSegmentIds.every((id) => typeof id === 'string' && known.has(id)))
}

/** The whole result with uncited items dropped, and the relations and clarify items that named them. */
export function validateResultCitations(result: ExtractionResult, segmentIds: Iterable<string>): ExtractionResult {
  const known = new Set(segmentIds)
  const items = validateCitations(result.items, known)
  const keys = new Set(items.map((item) => item.key))
  return {
    items,
    relations: result.relations.filter((relation) => keys.has(relation.fromKey) && keys.has(relation.toKey)),
    clarifications: result.clarifications
      .filter((clarification) => clarification.itemKeys.every((key) => keys.has(key)))
      .map((clarification) => ({ ...clarification, sourceSegmentIds: clarification.sourceSegmentIds.filter((id) => known.has(id)) }))
      .filter((clarification) => clarification.sourceSegmentIds.length > 0),
  }
}
