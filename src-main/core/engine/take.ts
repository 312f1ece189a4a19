/**
 * The one way into intake for every source (folders, drops, mail, files taken again): a hashing
 * slot, a count of files in flight (whenIdle), and storage faults, which pause the queue and keep
 * the request to take it again once storage works.
 */
import { basename } from 'node:path'
import pLimit from 'p-limit'
import type { Intake, IntakeRequest, IntakeResult } from '../intake/intake'
import type { UploadQueue } from '../queue/queue'
import { isStorageError } from '../store/storage-errors'
import { storageGuarded } from '../store/storage-guard'

export class FileTaker {
  private readonly hashLimit: ReturnType<typeof pLimit>
  /** Files being checked and hashed (or waiting for a hashing slot). */
  private inFlight = 0
  /** Candidates that could not be recorded while storage failed: taken again once it works. */
  private readonly untaken = new Map<string, IntakeRequest>()

  constructor(
    private readonly intake: Intake,
    private readonly queue: Pick<UploadQueue, 'kick' | 'storageFault' | 'storageProblem'>,
    /** Called after every file taken, whatever the outcome (it may make room for a waiting scan). */
    private readonly taken: () => void,
    hashConcurrency: number,
  ) {
    this.hashLimit = pLimit(hashConcurrency)
  }

  /** Files waiting for a hashing slot. */
  get waiting(): number {
    return this.hashLimit.pendingCount
  }

  /** True while a file is being checked and hashed, or waits for a slot. */
  get busy(): boolean {
    return this.inFlight > 0
  }

  /** Takes a file when a hashing slot is free. */
  inTurn(req: IntakeRequest): Promise<IntakeResult> {
    return this.hashLimit(() => this.take(req))
  }

  /** Takes a watcher's candidate when a hashing slot is free, counted in flight while it waits. */
  candidate(req: IntakeRequest): Promise<IntakeResult> {
    this.inFlight++
    return this.inTurn(req).finally(() => this.inFlight--)
  }

  /** Takes a file now (a person's retry does not wait for a slot). */
  async take(req: IntakeRequest): Promise<IntakeResult> {
    this.inFlight++
    try {
      const r = await this.intake.take(req)
      this.untaken.delete(req.path)
      if (r.kind === 'queued') this.queue.kick(r.upload.profileId)
      return r
    } catch (e) {
      if (!isStorageError(e)) throw e
      // Nothing was recorded: the file stays where it is, and is taken again once storage works.
      this.untaken.set(req.path, req)
      this.queue.storageFault(e)
      throw new Error(
        `${basename(req.path)} could not be recorded: ${this.queue.storageProblem() ?? 'storage failed'}`,
      )
    } finally {
      this.inFlight--
      // Any file taken (a scan's or a drop's) may make room for a waiting scan.
      this.taken()
    }
  }

  /** A mail with no receipt: its skipped row (see Intake.noReceipt); a storage fault pauses the queue. */
  noReceipt(req: IntakeRequest): IntakeResult {
    try {
      return this.intake.noReceipt(req)
    } catch (e) {
      if (isStorageError(e)) this.queue.storageFault(e)
      throw e
    }
  }

  /** A watched file that was taken went away before it was sent (Intake.vanished). */
  vanished(req: IntakeRequest): void {
    storageGuarded(this.queue, () => this.intake.vanished(req))
  }

  /** Storage works again: take the files that could not be recorded meanwhile. */
  retakeUntaken(): void {
    const reqs = [...this.untaken.values()]
    this.untaken.clear()
    for (const req of reqs) void this.inTurn(req).catch(() => undefined)
  }

  /** Drops the files waiting for a slot (closing). */
  clear(): void {
    this.hashLimit.clearQueue()
  }
}
