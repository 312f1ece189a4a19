/**
 * Duplicates whose original was never sent: one copy goes in its place, the others wait on it.
 */
import { stat } from 'node:fs/promises'
import { fsPath, printable } from '../names'
import { isStorageError } from '../store/storage-errors'
import { storageGuarded } from '../store/storage-guard'
import type { Upload } from '../store/uploads'
import type { EngineParts } from './parts'

/** Statuses a row may end in without having been sent (a copy of its content then goes in its place). */
export const UNSENT_ENDS: ReadonlySet<string> = new Set(['skipped', 'failed', 'superseded'])

export type OrphanDeps = Pick<EngineParts, 'uploads' | 'events' | 'queue' | 'closed'>

/**
 * A duplicate whose original ended without being sent (skipped, refused before the server took
 * it, superseded) goes in its place: the oldest one whose file is still as it was recorded is
 * queued, and the others become duplicates of it. At start for every such row (a restart fixes
 * what an earlier run left), and whenever a row ends unsent.
 */
export function promoteOrphans(d: OrphanDeps, original?: number): void {
  if (d.closed()) return
  const orphans = storageGuarded(d.queue, () => d.uploads.orphanedDuplicates(original))
  if (!orphans || orphans.length === 0) return
  void (async () => {
    const byOriginal = new Map<number, Upload[]>()
    for (const o of orphans) byOriginal.set(o.duplicateOf!, [...(byOriginal.get(o.duplicateOf!) ?? []), o])
    for (const [originalId, copies] of byOriginal) {
      const gone = d.uploads.get(originalId)
      for (const copy of copies) {
        if (d.closed()) return
        const st = await stat(fsPath(copy.path)).catch(() => null)
        if (!st?.isFile() || st.size !== copy.size || Math.floor(st.mtimeMs) !== copy.mtimeMs) continue
        const next = d.uploads.transition(copy, 'duplicate', 'queued', {
          nextAttemptAt: null,
          lastError: null,
          note: `Sent in place of ${gone ? printable(gone.name) : 'its original'} (upload #${originalId}), which was not sent.`,
        })
        if (!next) continue
        d.events.emit('upload', { upload: next, previous: 'duplicate' })
        d.queue.kick(next.profileId)
        // The other copies now wait on this one.
        for (const other of copies) {
          if (other.id === copy.id) continue
          d.uploads.note(other, 'duplicate', { duplicateOf: next.id })
        }
        break
      }
    }
  })().catch((e: unknown) => {
    if (isStorageError(e)) d.queue.storageFault(e)
    else
      d.events.emit('notice', {
        level: 'error',
        message: `Could not queue a copy in place of an unsent file: ${(e as Error).message}`,
      })
  })
}
