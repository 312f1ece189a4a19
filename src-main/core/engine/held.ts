/**
 * Possible duplicates held for a person (issue 33): the fingerprints intake asks about (the
 * fingerprint module's Fingerprinter and index), each profile's setting (hold them, or send them
 * with a note), Discard, the list of held rows, and the rows that waited on a receipt still on its
 * way: when that one ends without being sent (failed, cancelled, skipped, superseded) they go on
 * their own; when it is sent they stay held. "Send anyway" is a retry (../actions.ts).
 */
import type { SettingsStore } from '../folders'
import type { EngineFingerprints } from './fingerprints'
import { isStorageError } from '../store/storage-errors'
import { storageGuarded } from '../store/storage-guard'
import type { Upload } from '../store/uploads'
import { DEFAULT_DUPLICATE_MODE, DUPLICATE_MODES, type DuplicateMode, type NearHolding } from '../intake/near'
import { printable } from '../names'
import type { EngineParts } from './parts'
import { coded } from '../../../contract/coded'
import { JOB_STATES } from '../../../contract/main-states'

export type HeldDeps = Pick<EngineParts, 'uploads' | 'events' | 'closed'> & {
  queue: Pick<EngineParts['queue'], 'kick' | 'storageFault'>
}

/** Statuses a receipt may end in without having been sent: what waited on it goes on its own. */
export const UNSENT_FOR_HELD: ReadonlySet<string> = new Set(['skipped', 'failed', 'superseded', 'cancelled', 'discarded'])

const MODE_KEY = (profileId: string) => `duplicates:${profileId}`

export class HeldDuplicates {
  constructor(
    private readonly d: HeldDeps,
    /** The engine's fingerprints (./fingerprints.ts): computed by intake, asked here. */
    private readonly fingerprints: EngineFingerprints,
    private readonly settings: SettingsStore,
  ) {}

  /** What intake asks (../intake/near.ts). */
  holding(): NearHolding {
    return {
      lookup: (q) => this.fingerprints.nearOf(q),
      mode: (profileId) => this.mode(profileId),
    }
  }

  /** A run's own choice (headless --duplicates), over the saved setting; not saved. */
  private readonly runModes = new Map<string, DuplicateMode>()

  /** The profile's setting: "hold" (the default) or "send"; a run's own choice first. */
  mode(profileId: string): DuplicateMode {
    const run = this.runModes.get(profileId)
    if (run) return run
    return this.savedMode(profileId)
  }

  /** The saved setting of a profile (Settings): "hold" unless "send" was chosen. */
  savedMode(profileId: string): DuplicateMode {
    const saved = this.settings.get<unknown>(MODE_KEY(profileId), DEFAULT_DUPLICATE_MODE)
    return DUPLICATE_MODES.includes(saved as DuplicateMode) ? (saved as DuplicateMode) : DEFAULT_DUPLICATE_MODE
  }

  setMode(profileId: string, mode: DuplicateMode): void {
    if (!DUPLICATE_MODES.includes(mode)) throw new Error(`Possible duplicates are either held ("hold") or sent ("send"), not "${String(mode)}".`)
    this.settings.set(MODE_KEY(profileId), mode)
  }

  /** This run only (headless --duplicates): the profile's saved setting is left as it is. */
  setRunMode(profileId: string, mode: DuplicateMode): void {
    this.runModes.set(profileId, mode)
  }

  /** Held rows of a profile (or all), oldest first. */
  list(profileId?: string): Upload[] {
    return this.d.uploads.held(profileId)
  }

  /** A person's Discard: the held row is never sent, and its fingerprint is forgotten. */
  discard(id: number): Upload {
    const row = this.d.uploads.get(id)
    if (!row) throw new Error(`There is no upload #${id}.`)
    if (row.status !== 'held') throw new Error(`Upload #${id} is ${row.status}: only a held possible duplicate can be discarded.`)
    const next = this.d.uploads.transition(row, 'held', 'discarded', { nextAttemptAt: null, lastError: coded(JOB_STATES.discardedByYou) })
    if (!next) throw new Error(`Upload #${id} changed meanwhile (it is ${this.d.uploads.get(id)?.status ?? 'gone'} now): try again.`)
    this.fingerprints.index.forget(id)
    this.d.events.emit('upload', { upload: next, previous: 'held' })
    return next
  }

  /**
   * Held rows that waited on `original` (every such row when none is given, at start) whose
   * receipt ended without being sent go on their own; their note says why.
   */
  release(original?: number): void {
    if (this.d.closed()) return
    const rows = storageGuarded(this.d.queue, () =>
      original === undefined ? this.d.uploads.orphanedHeld() : this.d.uploads.heldOn(original),
    )
    if (!rows || rows.length === 0) return
    try {
      for (const row of rows) {
        const gone = row.nearOf == null ? undefined : this.d.uploads.get(row.nearOf)
        if (!gone || !UNSENT_FOR_HELD.has(gone.status) || gone.jobReference || gone.recordUuid) continue
        const next = this.d.uploads.transition(row, 'held', 'queued', {
          nextAttemptAt: null,
          lastError: null,
          nearOf: null,
          nearBasis: null,
          note: `Sent on its own: ${printable(gone.name)} (upload #${gone.id}), which it looked like, was not sent.`,
        })
        if (!next) continue
        this.d.events.emit('upload', { upload: next, previous: 'held' })
        this.d.queue.kick(next.profileId)
      }
    } catch (e) {
      if (isStorageError(e)) this.d.queue.storageFault(e)
      else this.d.events.emit('notice', { level: 'error', message: `Could not send a held file on its own: ${(e as Error).message}` })
    }
  }
}
