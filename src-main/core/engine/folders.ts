/**
 * The watched folders at work: one watcher per enabled folder, its status, what it finds taken
 * through intake, and the backpressure that keeps a scan no faster than intake (the intake room).
 */
import type { Coded } from '../../../contract/message'
import type { FolderState } from '../events'
import { type FolderConfig, type FolderInput, destinationDir, normalizeFolder } from '../folders'
import type { InspectFn } from '../intake/inspect'
import { type FolderChecks, FolderRuleError, checkFolderRules, checkWatchedFolder } from '../user-paths'
import { FolderWatcher, type FolderWatcherConfig } from '../watch'
import { folderRequest } from './requests'
import type { Retakes } from './retake'
import type { EngineParts } from './parts'

export type FolderStatus = { state: FolderState; message: string | null; messageCoded?: Coded | null }

/** Watcher timing a host may set (tests shorten these). */
export type WatchTiming = Partial<
  Pick<
    FolderWatcherConfig,
    | 'stabilityMs'
    | 'rescanIntervalMs'
    | 'recoverInitialMs'
    | 'recoverMaxMs'
    | 'pollIntervalMs'
    | 'unfinishedQuietMs'
    | 'writers'
  >
>

/** Candidates from folder scans that may wait for a hashing slot before the scans wait. */
const INTAKE_BACKLOG_MAX = 32

export type WatchedFolderDeps = Pick<
  EngineParts,
  'folders' | 'events' | 'taker' | 'maxFileBytes' | 'closed'
> & {
  retakes: Retakes
  /** The content check the watchers use. */
  inspect: InspectFn
  watch: WatchTiming | undefined
  /** The folder rules' context (the data folder, folders picked in the native picker). */
  rules: FolderChecks
}

export class WatchedFolders {
  private readonly watchers = new Map<string, FolderWatcher>()
  private readonly status = new Map<string, FolderStatus>()
  /** Folder scans waiting for the intake backlog to shrink (see INTAKE_BACKLOG_MAX). */
  private intakeRoomWaiters: Array<() => void> = []

  constructor(private readonly d: WatchedFolderDeps) {}

  async add(input: FolderInput): Promise<FolderConfig> {
    const f = normalizeFolder(input)
    await checkFolderRules(f, null, this.d.rules)
    const clash = this.d.folders
      .list()
      .find((o) => o.path === f.path && o.profileId === f.profileId && o.target === f.target)
    if (clash) throw new Error(`${f.path} is already watched for ${f.target}.`)
    this.d.folders.save(f)
    if (f.enabled) this.startWatcher(f)
    return f
  }

  async update(id: string, patch: Partial<FolderInput>): Promise<FolderConfig> {
    const cur = this.d.folders.get(id)
    if (!cur) throw new Error('That folder is no longer watched.')
    const { id: _id, addedAt, ...rest } = cur
    const next = normalizeFolder({ ...rest, ...patch }, id, addedAt)
    await checkFolderRules(next, cur, this.d.rules)
    this.d.folders.save(next)
    await this.stopWatcher(id)
    if (next.enabled) this.startWatcher(next)
    else this.setStatus(id, 'disabled', null)
    return next
  }

  async remove(id: string): Promise<void> {
    await this.stopWatcher(id)
    this.d.folders.remove(id)
    this.status.delete(id)
  }

  list(): (FolderConfig & FolderStatus)[] {
    return this.d.folders.list().map((f) => ({
      ...f,
      ...(this.status.get(f.id) ?? { state: f.enabled ? 'starting' : 'disabled', message: null }),
    }))
  }

  /** Starts every enabled folder (at open). */
  async startEnabled(): Promise<void> {
    for (const f of this.d.folders.list()) if (f.enabled) await this.startIfAllowed(f)
  }

  /** Walks every watched folder now (the watchers also do this on a jittered timer). */
  async rescan(): Promise<void> {
    await Promise.all([...this.watchers.values()].map((w) => w.rescan()))
  }

  /** True while a watcher has files waiting to become stable. */
  busy(): boolean {
    return [...this.watchers.values()].some((w) => w.busy())
  }

  /** Lets every waiting scan go and stops every watcher (the engine is closing). */
  async close(): Promise<void> {
    this.wakeIntakeRoom(true)
    await Promise.all([...this.watchers.keys()].map((id) => this.stopWatcher(id)))
  }

  private setStatus(folderId: string, state: FolderState, message: Coded | string | null): void {
    const messageCoded = message && typeof message === 'object' ? message : null
    const text = messageCoded ? messageCoded.text : (message as string | null)
    this.status.set(folderId, { state, message: text, messageCoded })
    this.d.events.emit('folder', { folderId, state, message: text, messageCoded })
  }

  /**
   * A stored folder is watched only if it still passes the folder rules (it may have been saved
   * before them, or by another program writing the database): otherwise it shows the rule broken as
   * its error, and nothing is read from it. A folder that is only missing (an unplugged drive) is
   * left to the watcher, which waits for it.
   */
  private async startIfAllowed(f: FolderConfig): Promise<void> {
    try {
      await checkWatchedFolder(f.path, { dataDir: this.d.rules.dataDir, recursive: f.recursive })
    } catch (e) {
      if (e instanceof FolderRuleError && e.rule !== 'missing') {
        // The rule broken, in the person's language (the state says it is not watched).
        const text = `Not watched: ${e.message}`
        this.setStatus(f.id, 'error', e.coded ? { ...e.coded, text } : text)
        return
      }
    }
    this.startWatcher(f)
  }

  private startWatcher(f: FolderConfig): void {
    const { taker, events } = this.d
    // Only the folder files are moved into is left out: a person's own "Uploaded" sub-folder is
    // watched when files are left in place.
    const dest = destinationDir(f)
    const excludeDirs = dest ? [dest] : []
    const w = new FolderWatcher({
      id: f.id,
      path: f.path,
      recursive: f.recursive,
      acceptedKinds: f.acceptedKinds,
      usePolling: f.usePolling,
      ignoreOlderThanMs: f.takeExisting ? undefined : f.addedAt,
      excludeDirs,
      scanGate: () => this.intakeRoom(),
      inspect: this.d.inspect,
      ...this.d.watch,
    })
    w.on('status', (s) => this.setStatus(f.id, s.state, s.messageCoded ?? s.message ?? null))
    w.on('candidate', (c) => {
      const req = folderRequest(f, c.path, c.root, this.d.maxFileBytes())
      if (c.note) req.note = c.note
      void taker.candidate(req).catch((e: unknown) => {
        events.emit('notice', {
          level: 'error',
          message: `Could not queue ${c.path}: ${(e as Error).message}`,
        })
      })
    })
    w.on('vanished', (v) => {
      if (v.accepted) taker.vanished(folderRequest(f, v.path, null, this.d.maxFileBytes()))
    })
    w.on('scanned', () => void this.d.retakes.skipped(f.id))
    this.watchers.set(f.id, w)
    // Not awaited: the initial scan hands files over only as fast as intake takes them (see
    // intakeRoom), which for a big folder takes a while. Meanwhile the folder shows 'starting', and
    // whenIdle() waits for it (busy). start() never rejects.
    void w.start()
  }

  private async stopWatcher(id: string): Promise<void> {
    const w = this.watchers.get(id)
    this.watchers.delete(id)
    if (w) await w.stop()
  }

  /**
   * Backpressure for folder scans: a scan hands over files no faster than they are hashed and
   * queued, so a folder of 20,000 existing files never has 20,000 candidates in memory at once.
   */
  private intakeRoom(): Promise<void> | undefined {
    if (this.d.closed() || this.d.taker.waiting < INTAKE_BACKLOG_MAX) return undefined
    return new Promise<void>((resolve) => this.intakeRoomWaiters.push(resolve))
  }

  /** A file was taken: a waiting scan goes on once the backlog is half gone (all of them: closing). */
  wakeIntakeRoom(all = false): void {
    if (this.intakeRoomWaiters.length === 0) return
    if (!all && this.d.taker.waiting > INTAKE_BACKLOG_MAX / 2) return
    const waiters = this.intakeRoomWaiters
    this.intakeRoomWaiters = []
    for (const w of waiters) w()
  }
}
