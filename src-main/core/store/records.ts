/**
 * The records table's one door (issue 32; the table: ./records-schema.ts): what each completed
 * upload became, Review's lists and counts, the duplicate lookup and the month's money. Every
 * question is answered from an index (records-schema.ts names them).
 */
import type { RecordSummary, ReviewCounts, ReviewFilter } from '../../../contract/review'
import type { RecordSummaryRead } from '../../../schemas/read/summary'
import type { Db } from './db'

/** What a read of a record needs to know of it. */
export type ToRead = Pick<StoredRecord, 'uuid' | 'kind' | 'profileId' | 'uploadId'>

/** A record row with what Review shows of its upload. */
export interface StoredRecord extends RecordSummary {
  id: number
  uploadId: number
  profileId: string
  position: number
  /** Not read yet (null), or when it was last read. */
  fetchedAt: number | null
  readError: string | null
  fields: Record<string, unknown> | null
  completedAt: number
  /** How many records its upload made. */
  recordCount: number
  /** The upload's file name, source and creation time. */
  name: string
  source: string
  createdAt: number
}

interface Row {
  id: number
  upload_id: number
  profile_id: string
  position: number
  uuid: string
  kind: string
  vendor: string | null
  date: string | null
  total: string | null
  currency: string | null
  narration: string | null
  fields: string | null
  reviewed_at: number | null
  deleted_on_server: number
  fetched_at: number | null
  read_error: string | null
  completed_at: number
  name: string
  source: string
  created_at: number
  record_count: number
}

/** What flags depend on besides the record: the business's currency and today's date (local). */
export interface FlagContext {
  currency: string | null
  /** YYYY-MM-DD, local. */
  today: string
}

/** Kinds a receipt becomes, which Review flags (a contact or an account has no total to miss). */
export const FLAGGED_KINDS = ['expense', 'bill', 'invoice', 'income', 'purchase_order'] as const

const KINDS_SQL = FLAGGED_KINDS.map((k) => `'${k}'`).join(', ')
const SELECT = `SELECT r.*, u.name AS name, u.source AS source, u.created_at AS created_at,
  (SELECT count(*) FROM records c WHERE c.upload_id = r.upload_id) AS record_count
  FROM records r JOIN uploads u ON u.id = r.upload_id`
/** Another record with the same vendor, date and total, from another upload. */
const SAME_RECORD = `EXISTS (SELECT 1 FROM records o WHERE o.profile_id = r.profile_id AND o.vendor_key = r.vendor_key
  AND o.date = r.date AND o.total = r.total AND o.upload_id != r.upload_id AND o.deleted_on_server = 0
  AND o.fetched_at IS NOT NULL)`
/** The flags of ../review/flags.ts in SQL (parameters: today, currency, currency). */
const FLAGGED = `(r.fetched_at IS NOT NULL AND r.deleted_on_server = 0 AND r.kind IN (${KINDS_SQL}) AND (
  r.total IS NULL OR CAST(r.total AS REAL) = 0 OR r.vendor IS NULL OR trim(r.vendor) = '' OR r.date > ?
  OR (? IS NOT NULL AND r.currency IS NOT NULL AND r.currency != ?) OR ${SAME_RECORD}))`
const TO_REVIEW = 'r.reviewed_at IS NULL AND r.deleted_on_server = 0'

function fromRow(r: Row): StoredRecord {
  let fields: Record<string, unknown> | null = null
  try {
    fields = r.fields ? (JSON.parse(r.fields) as Record<string, unknown>) : null
  } catch {
    fields = null
  }
  return {
    id: r.id,
    uploadId: r.upload_id,
    profileId: r.profile_id,
    position: r.position,
    uuid: r.uuid,
    kind: r.kind,
    vendor: r.vendor,
    date: r.date,
    total: r.total,
    currency: r.currency,
    narration: r.narration,
    reviewedAt: r.reviewed_at,
    deletedOnServer: r.deleted_on_server === 1,
    fetchedAt: r.fetched_at,
    readError: r.read_error,
    fields,
    completedAt: r.completed_at,
    recordCount: r.record_count,
    name: r.name,
    source: r.source,
    createdAt: r.created_at,
  }
}

const SUMMARY_KEYS = ['uuid', 'kind', 'vendor', 'date', 'total', 'currency', 'narration', 'reviewedAt', 'deletedOnServer'] as const

/** The summary part of a stored record, as the contract shows it. */
export function summaryOf(r: StoredRecord): RecordSummary {
  return Object.fromEntries(SUMMARY_KEYS.map((k) => [k, r[k]])) as unknown as RecordSummary
}

export class RecordStore {
  constructor(private readonly db: Db) {}

  /**
   * Rows waiting to be read for the records an upload made (kept if they exist). Run inside the
   * transaction that completes the upload (queue/sender.ts).
   */
  made(
    upload: { id: number; profileId: string },
    uuids: readonly string[],
    kind: string,
    completedAt: number,
  ): void {
    uuids.forEach((uuid, position) =>
      this.db.run(
        `INSERT OR IGNORE INTO records (upload_id, profile_id, position, uuid, kind, completed_at) VALUES (?, ?, ?, ?, ?, ?)`,
        upload.id,
        upload.profileId,
        position,
        uuid,
        kind,
        completedAt,
      ),
    )
  }

  /** An upload's records not read yet, with only what a read needs. */
  toRead(uploadId: number): ToRead[] {
    return this.db.all<ToRead>(
      `SELECT uuid, kind, profile_id AS profileId, upload_id AS uploadId FROM records
       WHERE upload_id = ? AND fetched_at IS NULL ORDER BY position`,
      uploadId,
    )
  }



  /** What the server said of a record: every row of that uuid follows it. */
  stored(uuid: string, read: RecordSummaryRead, now: number, kind?: string): void {
    this.db.run(
      `UPDATE records SET vendor = ?, vendor_key = ?, date = ?, total = ?, currency = ?, narration = ?, fields = ?,
        kind = COALESCE(?, kind), deleted_on_server = 0, fetched_at = ?, read_error = NULL WHERE uuid = ?`,
      read.vendor,
      read.vendor ? read.vendor.trim().toLowerCase() : null,
      read.date,
      read.total,
      read.currency,
      read.narration,
      JSON.stringify(read.fields),
      kind ?? null,
      now,
      uuid,
    )
  }

  /**
   * A record changed elsewhere (the Expenses screen's update answer): the fields it names follow,
   * the others stay. Returns whether Bookdrop keeps that record.
   */
  follow(uuid: string, changed: { vendor?: string | null; date?: string | null; total?: string | null; currency?: string | null; narration?: string | null }): boolean {
    const sets: string[] = []
    const params: unknown[] = []
    for (const [k, v] of Object.entries(changed)) {
      if (v === undefined || !['vendor', 'date', 'total', 'currency', 'narration'].includes(k)) continue
      sets.push(`${k} = ?`)
      params.push(v)
      if (k === 'vendor') {
        sets.push('vendor_key = ?')
        params.push(typeof v === 'string' ? v.trim().toLowerCase() : null)
      }
    }
    if (sets.length === 0) return this.db.get('SELECT 1 AS x FROM records WHERE uuid = ?', uuid) !== undefined
    return this.db.run(`UPDATE records SET ${sets.join(', ')} WHERE uuid = ?`, ...params, uuid).changes > 0
  }

  /** The read failed (offline, a refusal): the row stays unread, with why. */
  readFailed(uuid: string, why: string): void {
    this.db.run('UPDATE records SET read_error = ? WHERE uuid = ? AND fetched_at IS NULL', why.slice(0, 500), uuid)
  }

  /** The server answered 404: the record is gone there. */
  deletedOnServer(uuid: string, now: number): void {
    this.db.run('UPDATE records SET deleted_on_server = 1, fetched_at = COALESCE(fetched_at, ?) WHERE uuid = ?', now, uuid)
  }

  setReviewed(uuid: string, at: number | null): void {
    this.db.run('UPDATE records SET reviewed_at = ? WHERE uuid = ?', at, uuid)
  }

  /** Records not read yet, of the given uploads (or of any), oldest first. */
  unread(uploadIds: readonly number[] | null, limit: number): StoredRecord[] {
    if (uploadIds && uploadIds.length === 0) return []
    const where = uploadIds ? `AND r.upload_id IN (${uploadIds.map(() => '?').join(', ')})` : ''
    return this.db
      .all<Row>(`${SELECT} WHERE r.fetched_at IS NULL ${where} ORDER BY r.upload_id, r.position LIMIT ?`, ...(uploadIds ?? []), limit)
      .map(fromRow)
  }

  /** Each upload's first record (null while not read) and how many it made. */
  forUploads(uploadIds: readonly number[]): Map<number, { record: RecordSummary | null; recordCount: number }> {
    const out = new Map<number, { record: RecordSummary | null; recordCount: number }>()
    if (uploadIds.length === 0) return out
    const rows = this.db.all<Row>(
      `${SELECT} WHERE r.upload_id IN (${uploadIds.map(() => '?').join(', ')}) AND r.position = 0`,
      ...uploadIds,
    )
    // Not read yet: no summary (null), only how many records the upload made.
    for (const r of rows) {
      out.set(r.upload_id, { record: r.fetched_at === null ? null : summaryOf(fromRow(r)), recordCount: r.record_count })
    }
    return out
  }

  byUuid(uuid: string, profileId?: string): StoredRecord | null {
    const row = profileId
      ? this.db.get<Row>(`${SELECT} WHERE r.uuid = ? AND r.profile_id = ? ORDER BY r.id LIMIT 1`, uuid, profileId)
      : this.db.get<Row>(`${SELECT} WHERE r.uuid = ? ORDER BY r.id LIMIT 1`, uuid)
    return row ? fromRow(row) : null
  }

  /** The profile's records matching a filter, newest first, and how many match. */
  list(profileId: string, filter: ReviewFilter, offset: number, limit: number, ctx: FlagContext): { rows: StoredRecord[]; total: number } {
    const [where, params] = this.where(filter, ctx)
    const rows = this.db
      .all<Row>(`${SELECT} WHERE r.profile_id = ? AND ${where} ORDER BY r.completed_at DESC, r.id DESC LIMIT ? OFFSET ?`, profileId, ...params, limit, offset)
      .map(fromRow)
    const total = this.db.get<{ n: number }>(`SELECT count(*) AS n FROM records r WHERE r.profile_id = ? AND ${where}`, profileId, ...params)?.n ?? 0
    return { rows, total }
  }

  counts(profileId: string, ctx: FlagContext): ReviewCounts {
    const n = (filter: ReviewFilter) => {
      const [where, params] = this.where(filter, ctx)
      return this.db.get<{ n: number }>(`SELECT count(*) AS n FROM records r WHERE r.profile_id = ? AND ${where}`, profileId, ...params)?.n ?? 0
    }
    return { toReview: n('to_review'), flagged: n('flagged'), all: n('all') }
  }

  /** The other records with the same vendor, date and total (another upload), first kept first. */
  sameRecord(r: StoredRecord): StoredRecord[] {
    if (!r.vendor || !r.date || !r.total) return []
    return this.db
      .all<Row>(
        `${SELECT} WHERE r.profile_id = ? AND r.vendor_key = ? AND r.date = ? AND r.total = ? AND r.upload_id != ?
          AND r.deleted_on_server = 0 AND r.fetched_at IS NOT NULL ORDER BY r.id LIMIT 5`,
        r.profileId,
        r.vendor.trim().toLowerCase(),
        r.date,
        r.total,
        r.uploadId,
      )
      .map(fromRow)
  }

  /** Expenses and bills of a profile dated within [from, to] (YYYY-MM-DD), still on the server. */
  spending(profileId: string, from: string, to: string): StoredRecord[] {
    return this.db
      .all<Row>(
        `${SELECT} WHERE r.profile_id = ? AND r.kind IN ('expense', 'bill') AND r.date >= ? AND r.date <= ?
          AND r.deleted_on_server = 0 AND r.fetched_at IS NOT NULL`,
        profileId,
        from,
        to,
      )
      .map(fromRow)
  }

  private where(filter: ReviewFilter, ctx: FlagContext): [string, unknown[]] {
    if (filter === 'to_review') return [TO_REVIEW, []]
    if (filter === 'flagged') return [FLAGGED, [ctx.today, ctx.currency, ctx.currency]]
    return ['1 = 1', []]
  }
}
