/**
 * Taking files again without their watcher: the new version of a superseded row once its file is
 * stable, and, after a folder's rescan, the files it skipped for a cause that can go away.
 */
import { constants as fsConstants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { fsPath } from '../names'
import { storageGuarded } from '../store/storage-guard'
import type { Upload } from '../store/uploads'
import type { ActionDeps } from '../actions'
import type { EngineParts } from './parts'
import { copyGoneMessage } from './retention'
import { folderRequestNow, rowRequest } from './requests'

/** True while a file cannot be read (its permissions, a lock). */
const cannotRead = (path: string): Promise<boolean> =>
  access(fsPath(path), fsConstants.R_OK)
    .then(() => false)
    .catch(() => true)

export type RetakeDeps = Pick<
  EngineParts,
  'uploads' | 'folders' | 'events' | 'taker' | 'queue' | 'maxFileBytes' | 'closed'
> & {
  /** How long a file must stay the same to be stable (the watchers' stabilityMs). */
  stabilityMs: number
}

export class Retakes {
  /** Superseded rows whose file's new version is being waited for (one wait per path). */
  private readonly retaking = new Set<string>()

  constructor(private readonly d: RetakeDeps) {}

  /** The intake request for a row's file now (requests.ts: rowRequest). */
  requestFor(row: Upload): ReturnType<typeof rowRequest> {
    return rowRequest(row, this.d.folders, this.d.maxFileBytes())
  }

  /**
   * A row was superseded (its file changed before it was sent): once the file is stable again, its
   * new content goes through intake as a new row (duplicate rules apply). The folder's watcher may
   * report the same version too; intake records a version once.
   */
  superseded(row: Upload): void {
    const { closed } = this.d
    if (closed() || this.retaking.has(row.path)) return
    this.retaking.add(row.path)
    const window = this.d.stabilityMs
    void (async () => {
      try {
        let last = ''
        for (let i = 0; i < 100 && !closed(); i++) {
          const st = await stat(fsPath(row.path)).catch(() => null)
          const now = st ? `${st.size}:${st.mtimeMs}` : 'gone'
          if (now === last) break
          last = now
          await new Promise((r) => setTimeout(r, window))
        }
        if (closed()) return
        const req = await this.requestFor(row)
        await this.d.taker.inTurn(req)
      } catch (e) {
        this.d.events.emit('notice', {
          level: 'error',
          message: `Could not queue the new version of ${row.name}: ${(e as Error).message}`,
        })
      } finally {
        this.retaking.delete(row.path)
      }
    })()
  }

  /**
   * A rescan looks again at the files of a folder that were skipped for a cause that can go away:
   * readable again, under the size limit, no longer empty. The same row goes on (one row per file
   * while it cannot be sent).
   */
  async skipped(folderId: string): Promise<void> {
    const { closed } = this.d
    const folder = this.d.folders.get(folderId)
    if (!folder || closed()) return
    const rows = storageGuarded(this.d.queue, () => this.d.uploads.retakeableInFolder(folderId))
    if (!rows) return
    for (const row of rows) {
      if (closed()) return
      const st = await stat(fsPath(row.path)).catch(() => null)
      if (!st?.isFile()) continue
      if (row.reason === 'empty' && st.size === 0) continue
      if (row.reason === 'too_large' && st.size > this.d.maxFileBytes()) continue
      if (row.reason === 'unreadable' && (await cannotRead(row.path))) continue
      const req = await folderRequestNow(folder, row.path, this.d.maxFileBytes())
      await this.d.taker.inTurn(req).catch(() => undefined)
    }
  }
}

/** What a person's actions (../actions.ts) need of the engine: a retried row's file is taken again, over its duplicate. */
export function actionDeps(
  d: Pick<EngineParts, 'uploads' | 'events' | 'queue' | 'taker'>,
  retakes: Retakes,
  dataDir: string,
): ActionDeps {
  return {
    uploads: d.uploads,
    events: d.events,
    kick: (profileId) => d.queue.kick(profileId),
    resume: (profileId) => d.queue.resume(profileId),
    retake: async (row) => d.taker.take({ ...(await retakes.requestFor(row)), override: true, continues: row }),
    copyGone: (row) => copyGoneMessage(dataDir, row),
  }
}
