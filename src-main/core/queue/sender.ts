/**
 * Sending: one upload's create and one job's poll, each with its own AbortSignal (a stop aborts
 * them), and the answer applied to the row as one move of the lifecycle table (outcomes.ts says
 * which). Counts what is in flight for the scheduler and the idle check.
 */
import { type JobRead } from '../../../schemas'
import type { EngineEmitter } from '../events'
import type { Upload, UploadStatus, UploadStore } from '../store/uploads'
import { pollDelay } from './backoff'
import type { ProfileGates } from './gates'
import {
  type CompletionNote,
  type Outcome,
  afterJobAnswer,
  afterPollFailure,
  afterUploadFailure,
  jobTimedOut,
  notReported,
} from './outcomes'
import { fixedAtFirstSend, sentFile, sentPrompt } from './sent-file'
import {
  type ClientFailure,
  type QueueHooks,
  type QueueOptions,
  type SendFile,
  type UploadClient,
  asFailure,
} from './types'

/** What sending needs of the queue. */
export interface SenderDeps {
  store: UploadStore
  events: EngineEmitter
  hooks: QueueHooks
  opts: QueueOptions
  gates: ProfileGates
  client(profileId: string): Promise<UploadClient>
  /** Work the queue waits for (a stop, the idle check) and looks for more after. */
  track(p: Promise<void>): void
  /** Runs a write; a storage fault holds the queue instead of escaping. */
  guarded<T>(write: () => T): T | undefined
}

export class Sender {
  uploadsInFlight = 0
  pollsInFlight = 0
  /** Rows with a request in flight in this process (a row 'uploading' in SQLite but not here is an orphan). */
  readonly inFlightRows = new Set<number>()
  /** Rows whose job is being asked about right now: not picked for another poll meanwhile. */
  readonly pollingRows = new Set<number>()
  /** One per request in flight: a stop aborts them (their rows resume with the same key). */
  private readonly controllers = new Set<AbortController>()

  constructor(private readonly d: SenderDeps) {}

  /** Aborts every request in flight (a stop). */
  abortAll(): void {
    for (const c of this.controllers) c.abort()
  }

  /** An AbortSignal for one request, aborted by stop(); `done` forgets it. */
  private request(): { signal: AbortSignal; done: () => void } {
    const c = new AbortController()
    this.controllers.add(c)
    return { signal: c.signal, done: () => this.controllers.delete(c) }
  }

  startUpload(row: Upload): void {
    const g = this.d.gates.gate(row.profileId)
    const now = this.d.opts.now()
    const updated = this.d.store.transition(
      row,
      row.status,
      'uploading',
      { attempts: row.attempts + 1, nextAttemptAt: null, ...fixedAtFirstSend(row) },
      now,
    )
    if (!updated) return // a person changed it between the query and now
    this.uploadsInFlight++
    g.inFlight++
    this.inFlightRows.add(row.id)
    this.emitUpload(updated, row.status)
    this.d.track(
      this.sendUpload(updated).finally(() => {
        this.uploadsInFlight--
        g.inFlight--
        this.inFlightRows.delete(row.id)
      }),
    )
  }

  private async sendUpload(row: Upload): Promise<void> {
    let lastEmit = 0
    let res: Awaited<ReturnType<UploadClient['aiCreateFromFiles']>>
    let file: SendFile | undefined
    const req = this.request()
    try {
      const client = await this.d.client(row.profileId)
      if (this.d.gates.wantsProbe(row.profileId)) await this.probe(client, req.signal)
      const sent = sentFile(row)
      // A mail's body text goes as text_attachment, not as a file (issue 24).
      const text = row.source === 'mail' && this.d.hooks.textOf ? await this.d.hooks.textOf(row) : null
      // The file as it is to be read: a prepared photo is Bookdrop's own file in its data folder; an
      // original is checked where it is opened (see QueueHooks.fileForSend).
      file = text === null && row.preparedPath === null && this.d.hooks.fileForSend ? await this.d.hooks.fileForSend(row) : undefined
      res = await client.aiCreateFromFiles(
        row.target,
        {
          prompt: sentPrompt(row),
          process_type: row.processType,
          ...(text !== null ? { text_attachment: text, files: [] } : { files: [{ ...sent, path: file?.path ?? sent.path, ...(file?.handle ? { handle: file.handle } : {}) }] }),
        },
        {
          idempotencyKey: row.idempotencyKey,
          maxFileBytes: this.d.opts.maxFileBytes,
          signal: req.signal,
          onProgress: (sent, total) => {
            const t = this.d.opts.now()
            if (sent === total || t - lastEmit > 100) {
              lastEmit = t
              this.d.events.emit('progress', { id: row.id, sent, total })
            }
          },
        },
      )
    } catch (e) {
      req.done()
      const f = asFailure(e)
      if (req.signal.aborted) {
        // Stopped while sending: it may or may not have reached the server. The next start sends
        // it again with the same key (the server replays); the try is not counted.
        this.d.guarded(() =>
          this.finish(row, 'waiting_retry', {
            attempts: Math.max(0, row.attempts - 1),
            nextAttemptAt: this.d.opts.now(),
            lastError: 'Stopped while it was being sent; sent again with the same Idempotency-Key at the next start.',
            errorCode: f.errorCode,
            httpStatus: null,
          }),
        )
        return
      }
      this.d.guarded(() => this.uploadFailed(row, f))
      return
    } finally {
      await file?.release()
    }
    req.done()
    this.d.gates.connectionOk(row.profileId)
    this.d.guarded(() => {
      if (res.process_type === 'async') {
        const now = this.d.opts.now()
        const next = this.d.store.transition(
          row,
          'uploading',
          'processing',
          {
            jobReference: res.job_reference,
            acceptedAt: now,
            polls: 0,
            nextAttemptAt: now + pollDelay(0, this.d.opts.poll, this.d.opts.random),
            lastError: null,
            errorCode: null,
            httpStatus: null,
          },
          now,
        )
        if (next) this.emitUpload(next, 'uploading') // else: cancelled while in flight
      } else if (res.process_type === 'direct') {
        this.complete(row, res.record.uuid, res.record.resource_type ?? row.target, 'uploading', null, [res.record.uuid])
      } else {
        this.apply(row, 'uploading', notReported({ why: 'no_job' }, 'its answer named no job and no record'))
      }
    })
  }

  /**
   * After a 5xx page, the API is asked a light question before the whole file goes again: no
   * answer of the API (another page) is thrown as the upload's failure, and nothing is sent; any
   * answer of the API (even a refusal) ends the wait, and the file goes.
   */
  private async probe(client: UploadClient, signal: AbortSignal): Promise<void> {
    if (!client.validateKey) return
    try {
      await client.validateKey({ signal })
    } catch (e) {
      if (asFailure(e).connection || signal.aborted) throw e
    }
  }

  private uploadFailed(row: Upload, f: ClientFailure): void {
    this.apply(row, 'uploading', afterUploadFailure(row, f, this.d.opts, this.d.gates, this.d.opts.now()))
  }

  /** Applies an outcome (./outcomes.ts) to a row in status `from`, as one move of the lifecycle table. */
  private apply(row: Upload, from: 'uploading' | 'processing', o: Outcome): void {
    const now = this.d.opts.now()
    if (o.kind === 'move') {
      this.finish(row, o.to, o.patch)
    } else if (o.kind === 'superseded') {
      const next = this.d.store.transition(row, from, 'superseded', o.patch, now)
      if (next) {
        this.emitUpload(next, from)
        this.d.hooks.superseded(next)
      }
    } else if (o.kind === 'follow') {
      // The job is still on the server: ask again, never later than its deadline.
      const patch = {
        polls: o.counted === false ? row.polls : row.polls + 1,
        nextAttemptAt: Math.min(now + o.wait, this.deadline(row)),
        lastError: o.lastError,
      }
      this.d.store.note(row, 'processing', patch, now)
    } else {
      this.complete(row, o.recordUuid, o.recordType, from, o.note, o.recordUuids)
    }
  }

  /** A move of the lifecycle table; nothing happens when a person changed the row meanwhile. */
  private finish(cur: Upload, to: UploadStatus, patch: Parameters<UploadStore['transition']>[3]): void {
    const next = this.d.store.transition(cur, cur.status, to, patch, this.d.opts.now())
    if (next) this.emitUpload(next, cur.status)
  }

  // ---- jobs ----------------------------------------------------------------------------------

  startPoll(row: Upload): void {
    const g = this.d.gates.gate(row.profileId)
    // Not picked again while this poll is in flight (kept in memory, no write); the answer sets
    // the real next time.
    this.pollingRows.add(row.id)
    this.pollsInFlight++
    g.inFlight++
    this.d.track(
      this.poll(row).finally(() => {
        this.pollingRows.delete(row.id)
        this.pollsInFlight--
        g.inFlight--
      }),
    )
  }

  /** When the job deadline of a row passes (it counts from when the server accepted the file). */
  private deadline(row: Upload): number {
    return (row.acceptedAt ?? row.createdAt) + this.d.opts.jobTimeoutMs
  }

  /**
   * Asks the API about a row's job. Past the job deadline the API is still asked once: only its
   * answer (not finished, or a refusal) gives the job up, never the lack of one (offline).
   */
  private async poll(row: Upload): Promise<void> {
    const now = () => this.d.opts.now()
    const late = now() >= this.deadline(row)
    let job: JobRead
    const req = this.request()
    try {
      const client = await this.d.client(row.profileId)
      job = await client.getJob(row.jobReference!, { signal: req.signal })
    } catch (e) {
      req.done()
      if (req.signal.aborted) return // stopped: asked again at the next start
      const f = asFailure(e)
      const o =
        late && !f.connection && f.errorCode !== 'no_key'
          ? jobTimedOut(row, this.d.opts.jobTimeoutMs)
          : afterPollFailure(row, f, this.d.opts, this.d.gates, now())
      this.d.guarded(() => this.apply(row, 'processing', o))
      return
    }
    req.done()
    this.d.gates.connectionOk(row.profileId)
    const answer = afterJobAnswer(row, job, this.d.opts)
    const o = late && answer.kind === 'follow' ? jobTimedOut(row, this.d.opts.jobTimeoutMs) : answer
    this.d.guarded(() => this.apply(row, 'processing', o))
  }

  private complete(
    row: Upload,
    recordUuid: string | null,
    recordType: string | null,
    from: 'uploading' | 'processing',
    note: CompletionNote | null = null,
    recordUuids: string[] = recordUuid ? [recordUuid] : [],
  ): void {
    const now = this.d.opts.now()
    const made = recordUuid && !recordUuids.includes(recordUuid) ? [recordUuid, ...recordUuids] : recordUuids
    const keep = made.length > 0 ? this.d.hooks.keepRecords : undefined
    const patch = {
      recordUuid,
      recordType,
      completedAt: now,
      nextAttemptAt: null,
      lastError: note?.lastError ?? null,
      errorCode: note?.errorCode ?? null,
      httpStatus: note?.httpStatus ?? null,
    }
    const done = keep
      ? this.d.store.transaction(() => {
          const r = this.d.store.transition(row, from, 'completed', patch, now)
          if (r) keep(r, made)
          return r
        })
      : this.d.store.transition(row, from, 'completed', patch, now)
    if (!done) return // cancelled meanwhile
    this.emitUpload(done, from)
    this.d.track(this.d.hooks.afterRecord(done))
    if (made.length > 0 && this.d.hooks.recordsMade) {
      const read = this.d.hooks.recordsMade
      this.d.track(
        this.d.client(done.profileId).then(
          (client) => read(done, made, client),
          () => read(done, made, null),
        ),
      )
    }
  }

  private emitUpload(upload: Upload, previous: Upload['status'] | null): void {
    this.d.events.emit('upload', { upload, previous })
  }
}
