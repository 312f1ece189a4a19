/**
 * What each receipt became (issue 32): once a row completes, the records its job made are read
 * (`GET /{resource}/{uuid}`, schemas/assumptions.ts RECORD_READ_RESOURCES) and kept in the records
 * table (store/records.ts), so History, Review, the Overview and the headless line show them
 * offline.
 *
 * A failed read never fails the receipt: the row stays completed and its record waits, unread, to be
 * read when it is next shown (`readSoon`, a few at a time), which is also how rows completed before
 * this table existed get theirs. A 404 right after completion is taken as "not visible yet" (read
 * again later); a 404 on a later read means the record is gone ("deleted on the server").
 */
import { RECORD_READ_RESOURCES } from '../../../schemas/assumptions'
import type { RecordSummaryRead } from '../../../schemas/read/summary'
import { decimalText } from '../../../schemas/read/decimal'
import type { RecordRead } from '../../../schemas/read/records'
import type { ReviewCounts } from '../../../contract/review'
import type { EngineEmitter } from '../events'
import { type UploadClient, asFailure } from '../queue/types'
import type { Db } from '../store/db'
import { localDay } from '../review/flags'
import { RecordStore, type StoredRecord, type ToRead } from '../store/records'
import type { Upload, UploadStore } from '../store/uploads'

/** Records read at once when rows are shown (the rest wait for the next showing). */
export const LAZY_READS_PER_SHOWING = 6
/** At most one `review` event per this many ms. */
export const REVIEW_EVENT_MS = 250
/** Reads in flight at once for rows shown. */
const LAZY_CONCURRENCY = 2

/** The singular kind of a target or resource type ("expenses" → "expense", "Bank Transaction" → "bank_transaction"). */
export function kindOf(recordType: string | null, target: string): string {
  const named = recordType?.trim().toLowerCase().replace(/[\s-]+/g, '_')
  if (named) return named
  // The target is the resource the create posted to: the kind read there (RECORD_READ_RESOURCES).
  const fromTarget = Object.entries(RECORD_READ_RESOURCES).find(([, resource]) => resource === target)?.[0]
  return fromTarget ?? target
}

export interface RecordKeeperDeps {
  db: Db
  uploads: UploadStore
  events: EngineEmitter
  clientOf(profileId: string): Promise<UploadClient>
  /** Runs a request within the profile's rate budget (UploadQueue.paced); null: not now. */
  paced<T>(profileId: string, fn: () => Promise<T>): Promise<T | null>
  now(): number
}

export class RecordKeeper {
  readonly store: RecordStore
  /** Records being read now (by uuid): not read twice at once. */
  private readonly reading = new Set<string>()
  private lazyInFlight = 0
  private readonly lazyQueue: StoredRecord[] = []
  private readonly work = new Set<Promise<void>>()
  private closed = false
  private changed: { profileId: string | null; uuids: Set<string>; uploadIds: Set<number> } = {
    profileId: null,
    uuids: new Set(),
    uploadIds: new Set(),
  }
  private reviewTimer: NodeJS.Timeout | null = null
  private lastReviewAt = 0

  constructor(private readonly d: RecordKeeperDeps) {
    this.store = new RecordStore(d.db)
  }

  /**
   * The queue's hook, inside the transaction that completes the row: its records, waiting to be
   * read (kept if they exist).
   */
  keepMade(row: Upload, uuids: string[]): void {
    this.store.made(row, uuids, kindOf(row.recordType, row.target), row.completedAt ?? this.d.now())
  }

  /** The queue's hook once the row completed with these records: read them with the queue's client. */
  async made(row: Upload, uuids: string[], client: UploadClient | null): Promise<void> {
    try {
      const pending = client ? this.store.toRead(row.id) : []
      for (const r of pending) await this.readOne(r, client!, true)
    } catch {
      // Storage trouble: the row stays completed; what it became is read when it is next shown.
    }
    // Always told (read or not), so a line waiting for it (headless) is printed.
    this.announce(row.id, uuids)
  }

  /** The rows with what they became (first record and count) joined in. */
  withRecords<T extends Upload>(rows: readonly T[]): T[] {
    const completed = rows.filter((r) => r.status === 'completed' && r.recordUuid !== null).map((r) => r.id)
    const found = completed.length ? this.store.forUploads(completed) : new Map()
    return rows.map((r) => {
      const f = found.get(r.id)
      return f ? { ...r, record: f.record, recordCount: f.recordCount } : r
    })
  }

  /** One upload's record and count (an event's row). */
  recordsOf(uploadId: number): { record: Upload['record']; recordCount: number } {
    const f = this.store.forUploads([uploadId]).get(uploadId)
    return f ?? { record: null, recordCount: 0 }
  }

  /**
   * Rows are being shown: their records not read yet are read in the background, a few at a time
   * (LAZY_READS_PER_SHOWING); each read announces itself (`upload` and `review` events).
   */
  readSoon(uploadIds: readonly number[] | null): void {
    if (this.closed) return
    let unread: StoredRecord[]
    try {
      unread = this.store.unread(uploadIds, LAZY_READS_PER_SHOWING)
    } catch {
      return
    }
    for (const r of unread) {
      if (!this.reading.has(r.uuid) && !this.lazyQueue.some((q) => q.uuid === r.uuid)) this.lazyQueue.push(r)
    }
    this.pump()
  }

  /**
   * Reads one record now (Review opens it, or after a save) and keeps what the server says.
   * Resolves with the stored record; throws the client's failure when no answer came.
   */
  async readNow(r: StoredRecord): Promise<StoredRecord | null> {
    const client = await this.d.clientOf(r.profileId)
    const failure = await this.readOne(r, client, false)
    this.announce(r.uploadId, [r.uuid])
    if (failure) throw failure
    return this.store.byUuid(r.uuid, r.profileId)
  }

  /** Keeps what the server answered for a record (a save's answer, read again). */
  keep(uuid: string, read: RecordSummaryRead, uploadId: number): void {
    this.store.stored(uuid, read, this.d.now(), read.kind ?? undefined)
    this.announce(uploadId, [uuid])
  }

  /**
   * A record was changed elsewhere (the Expenses or Bills screen): what the update's answer names
   * follows (2.10 promises uuid and narration; other fields only when the server sent them).
   */
  followUpdate(uuid: string, answer: Partial<RecordRead> & { narration: string | null }): void {
    const kept = this.store.byUuid(uuid)
    if (!kept) return
    const total = answer.amount !== undefined && answer.amount !== null ? decimalText(answer.amount) : undefined
    this.store.follow(kept.uuid, {
      narration: answer.narration ?? undefined,
      vendor: answer.contact ?? undefined,
      date: answer.date ?? undefined,
      total: total ?? undefined,
      currency: answer.currency ?? undefined,
    })
    this.announce(kept.uploadId, [kept.uuid])
  }

  setReviewed(r: StoredRecord, reviewed: boolean): void {
    this.store.setReviewed(r.uuid, reviewed ? this.d.now() : null)
    this.announce(r.uploadId, [r.uuid])
  }

  /** Resolves once no read is in flight (tests, close). */
  async settled(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work])
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.reviewTimer) clearTimeout(this.reviewTimer)
    this.reviewTimer = null
    this.lazyQueue.length = 0
    await this.settled()
  }

  /** Counts without the business's currency (the app counts again with it). */
  counts(profileId: string, today: string): ReviewCounts {
    return this.store.counts(profileId, { currency: null, today })
  }

  private pump(): void {
    while (!this.closed && this.lazyInFlight < LAZY_CONCURRENCY && this.lazyQueue.length > 0) {
      const r = this.lazyQueue.shift()!
      this.lazyInFlight++
      const p = this.d
        .clientOf(r.profileId)
        .then(async (client) => {
          await this.readOne(r, client, false)
          this.announce(r.uploadId, [r.uuid])
        })
        .catch(() => undefined)
        .finally(() => {
          this.lazyInFlight--
          this.work.delete(p)
          this.pump()
        })
      this.work.add(p)
    }
  }

  /**
   * GET the record and keep it. Returns the failure when no usable answer came (kept on the row as
   * why it is unread), null when the row now says what the server said (or that it is gone).
   */
  private async readOne(r: ToRead, client: UploadClient, justMade: boolean): Promise<Error | null> {
    if (!client.getRecordSummary) return null // a client that cannot read records: left unread
    const resource = RECORD_READ_RESOURCES[r.kind]
    if (!resource) {
      // A kind Bookdrop does not read: kept with its kind only.
      this.store.stored(r.uuid, { uuid: r.uuid, kind: null, vendor: null, date: null, total: null, currency: null, narration: null, fields: {} }, this.d.now())
      return null
    }
    if (this.reading.has(r.uuid)) return null
    this.reading.add(r.uuid)
    try {
      const get = client.getRecordSummary.bind(client)
      const read = await this.d.paced(r.profileId, () => get(resource, r.uuid))
      if (read === null) {
        this.store.readFailed(r.uuid, 'the profile is paused or waiting for its connection')
        return new Error('The record was not read: the profile is paused or waiting for its connection.')
      }
      this.store.stored(r.uuid, read, this.d.now(), read.kind ?? undefined)
      return null
    } catch (e) {
      const f = asFailure(e)
      if (f.status === 404 && !f.connection && !justMade) {
        this.store.deletedOnServer(r.uuid, this.d.now())
        return null
      }
      try {
        this.store.readFailed(r.uuid, f.message)
      } catch {
        // storage trouble: the row simply stays unread
      }
      return e instanceof Error ? e : new Error(f.message)
    } finally {
      this.reading.delete(r.uuid)
    }
  }

  /** The row (with its record) and the review counts changed. */
  private announce(uploadId: number, uuids: string[]): void {
    if (this.closed) return
    try {
      this.tell(uploadId, uuids)
    } catch {
      // Storage trouble: nothing to tell now.
    }
  }

  private tell(uploadId: number, uuids: string[]): void {
    const row = this.d.uploads.get(uploadId)
    if (row) {
      const [withRecord] = this.withRecords([row])
      this.d.events.emit('upload', { upload: withRecord!, previous: row.status })
    }
    const profileId = row?.profileId
    if (!profileId) return
    for (const u of uuids) this.changed.uuids.add(u)
    this.changed.uploadIds.add(uploadId)
    this.changed.profileId = profileId
    this.scheduleReview()
  }

  /**
   * One `review` event per REVIEW_EVENT_MS at most (the first at once): a drop of a thousand
   * receipts reads a thousand records, and each count walks the profile's records.
   */
  private scheduleReview(): void {
    if (this.reviewTimer || this.closed) return
    const wait = this.lastReviewAt + REVIEW_EVENT_MS - this.d.now()
    if (wait <= 0) return this.emitReview()
    this.reviewTimer = setTimeout(() => {
      this.reviewTimer = null
      try {
        this.emitReview()
      } catch {
        // Storage trouble: the next change tells again.
      }
    }, wait)
    this.reviewTimer.unref?.()
  }

  private emitReview(): void {
    const { profileId, uuids, uploadIds } = this.changed
    if (!profileId || this.closed) return
    this.changed = { profileId: null, uuids: new Set(), uploadIds: new Set() }
    this.lastReviewAt = this.d.now()
    const counts = this.counts(profileId, localDay(this.d.now()))
    this.d.events.emit('review', { counts, uuids: [...uuids], uploadIds: [...uploadIds] })
  }
}
