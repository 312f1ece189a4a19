/**
 * The engine's review parts (issues 32 and 33), made together: content fingerprints
 * (./fingerprints.ts), possible duplicates held for a person (./held.ts) and what each receipt
 * became (./records.ts). They reach the upload queue, made after them, once it exists. Also here:
 * what follows when a row ends without being sent, and a history page with its records.
 */
import type { TaskPool } from '../../../workers/pool'
import type { FingerprintTasks } from '../fingerprint/fingerprinter'
import type { EngineEmitter } from '../events'
import type { SettingsStore } from '../folders'
import type { UploadQueue } from '../queue/queue'
import type { Db } from '../store/db'
import type { HistoryFilter, Upload, UploadStore } from '../store/uploads'
import { EngineFingerprints } from './fingerprints'
import { HeldDuplicates, UNSENT_FOR_HELD } from './held'
import { UNSENT_ENDS } from './orphans'
import { RecordKeeper } from './records'

export interface ReviewParts {
  fingerprints: EngineFingerprints
  held: HeldDuplicates
  records: RecordKeeper
}

export interface ReviewPartsDeps {
  db: Db
  uploads: UploadStore
  events: EngineEmitter
  settings: SettingsStore
  /** The queue, made after these parts: reached through this once it exists. */
  queue: () => UploadQueue
  closed: () => boolean
  /** EngineOptions.fingerprints (default on). */
  fingerprints: boolean
  /** The intake worker's pool (./intake-pool.ts), where fingerprints are computed. */
  pool: TaskPool<FingerprintTasks>
}

export function makeReviewParts(d: ReviewPartsDeps): ReviewParts {
  const fingerprints = new EngineFingerprints(d.db, d.uploads, d.fingerprints, d.pool)
  const held = new HeldDuplicates(
    {
      uploads: d.uploads,
      events: d.events,
      queue: { kick: (p) => d.queue().kick(p), storageFault: (e) => d.queue().storageFault(e) },
      closed: d.closed,
    },
    fingerprints,
    d.settings,
  )
  const records = new RecordKeeper({
    db: d.db,
    uploads: d.uploads,
    events: d.events,
    clientOf: (profileId) => d.queue().clientOf(profileId),
    paced: (profileId, fn) => d.queue().paced(profileId, fn),
    now: () => Date.now(),
  })
  return { fingerprints, held, records }
}

/**
 * A row that ends without being sent lets a copy of its content go in its place (./orphans.ts)…
 * and a possible duplicate held while it was on its way goes on its own (issue 33).
 */
export function followUnsentEnds(
  events: EngineEmitter,
  on: { promoteOrphans(original: number): void; held: Pick<HeldDuplicates, 'release'> },
): void {
  events.on('upload', ({ upload, previous }) => {
    if (previous === upload.status) return
    if (UNSENT_ENDS.has(upload.status)) on.promoteOrphans(upload.id)
    if (UNSENT_FOR_HELD.has(upload.status)) on.held.release(upload.id)
  })
}

/** A page of the history, each completed row with what it became (its records not read yet are read soon). */
export function historyPage(
  uploads: UploadStore,
  records: RecordKeeper,
  filter: HistoryFilter,
): { rows: Upload[]; total: number } {
  const page = uploads.query(filter)
  records.readSoon(page.rows.filter((r) => r.status === 'completed' && r.recordUuid !== null).map((r) => r.id))
  return { rows: records.withRecords(page.rows), total: page.total }
}
