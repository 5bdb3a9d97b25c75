// Where a session's transcription stands (table transcription_state), read and compare-and-set.
import type { Selectable } from 'kysely'
import type { Db } from '../../platform/db/index.ts'
import type { TranscriptionStateTable } from '../../platform/db/tables.ts'
import type { Executor } from '../../platform/realtime/types.ts'

export type TranscriptionState = Selectable<TranscriptionStateTable> & { stored: boolean }

export async function loadState(db: Db | Executor, sessionId: string): Promise<TranscriptionState> {
  const row = await db.selectFrom('transcription_state').selectAll().where('session_id', '=', sessionId).executeTakeFirst()
  if (!row) {
    return {
      session_id: sessionId, version: 0, processed_sequence: -1, audio_ms: 0, tail_blob_key: null, tail_start_ms: 0,
      open_segment_id: null, stream_first_sequence: null, stream_samples: 0, engine: null, last_error: null, updated_at: '', stored: false,
    }
  }
  const number = (value: unknown) => (value === null ? null : Number(value))
  return {
    ...row, stored: true, version: Number(row.version), processed_sequence: Number(row.processed_sequence), audio_ms: Number(row.audio_ms),
    tail_start_ms: Number(row.tail_start_ms), stream_first_sequence: number(row.stream_first_sequence), stream_samples: Number(row.stream_samples),
  }
}

/** Writes the next state unless another run moved it first (then false: start over from the new one). */
export async function saveState(trx: Executor, previous: TranscriptionState, next: Omit<Selectable<TranscriptionStateTable>, 'version' | 'session_id'>) {
  if (!previous.stored) {
    const inserted = await trx.insertInto('transcription_state').values({ ...next, session_id: previous.session_id, version: 1 })
      .onConflict((oc) => oc.column('session_id').doNothing()).executeTakeFirst()
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1
  }
  const updated = await trx.updateTable('transcription_state').set({ ...next, version: previous.version + 1 })
    .where('session_id', '=', previous.session_id).where('version', '=', previous.version).executeTakeFirst()
  return Number(updated.numUpdatedRows) === 1
}
