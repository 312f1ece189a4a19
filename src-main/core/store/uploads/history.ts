/**
 * Counts and history: rows still on their way, counts by status (remembered until the next write),
 * and the history's filtered, searched and paged query and its export.
 */
import { UPLOAD_STATUSES, type UploadStatus } from '../../lifecycle'
import { type Row, fromRow, notIn } from './rows'
import type { HistoryFilter, Upload, UploadTable } from './types'

export class UploadHistory {
  /** COUNT(*) answers by query, valid while no write happened here or elsewhere (data_version). */
  private readonly counted = new Map<string, { writes: number; dataVersion: number; value: unknown }>()

  constructor(private readonly t: UploadTable) {}

  /** Rows still on their way (queued, sending, waiting, processing), leaving out some profiles. */
  countActive(excludeProfiles: string[]): number {
    return (
      this.t.db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM uploads WHERE status IN ('queued', 'uploading', 'waiting_retry', 'processing') ${notIn(excludeProfiles)}`,
        ...excludeProfiles,
      )?.n ?? 0
    )
  }

  /**
   * A count, remembered until the next write: counting 100,000 rows costs ~10 ms, and the same
   * counts are asked for again and again (every session refresh, every page of the history) while
   * nothing changes. Writes by another connection (PRAGMA data_version) also make it stale.
   */
  private countOnce<T>(key: string, count: () => T): T {
    const dataVersion = this.t.db.get<{ data_version: number }>('PRAGMA data_version')?.data_version ?? -1
    const hit = this.counted.get(key)
    if (hit && hit.writes === this.t.writes && hit.dataVersion === dataVersion) return hit.value as T
    const value = count()
    if (this.counted.size >= 200) this.counted.clear()
    this.counted.set(key, { writes: this.t.writes, dataVersion, value })
    return value
  }

  countByStatus(profileId?: string): Record<UploadStatus, number> {
    return { ...this.countOnce(`status ${profileId ?? '*'}`, () => this.countByStatusNow(profileId)) }
  }

  private countByStatusNow(profileId?: string): Record<UploadStatus, number> {
    const out = Object.fromEntries(UPLOAD_STATUSES.map((s) => [s, 0])) as Record<UploadStatus, number>
    const rows = profileId
      ? this.t.db.all<{ status: UploadStatus; n: number }>(
          'SELECT status, COUNT(*) AS n FROM uploads WHERE profile_id = ? GROUP BY status',
          profileId,
        )
      : this.t.db.all<{ status: UploadStatus; n: number }>(
          'SELECT status, COUNT(*) AS n FROM uploads GROUP BY status',
        )
    for (const r of rows) out[r.status] = r.n
    return out
  }

  private where(f: HistoryFilter): { sql: string; params: unknown[] } {
    const clauses: string[] = []
    const params: unknown[] = []
    if (f.statuses?.length) {
      clauses.push(`status IN (${f.statuses.map(() => '?').join(', ')})`)
      params.push(...f.statuses)
    }
    if (f.targets?.length) {
      clauses.push(`target IN (${f.targets.map(() => '?').join(', ')})`)
      params.push(...f.targets)
    }
    if (f.sources?.length) {
      clauses.push(`source IN (${f.sources.map(() => '?').join(', ')})`)
      params.push(...f.sources)
    }
    if (f.profileId) {
      clauses.push('profile_id = ?')
      params.push(f.profileId)
    }
    if (f.folderId) {
      clauses.push('folder_id = ?')
      params.push(f.folderId)
    }
    if (f.search?.trim()) {
      clauses.push(`name LIKE ? ESCAPE '\\'`)
      params.push(`%${f.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    }
    if (f.from !== undefined) {
      clauses.push('created_at >= ?')
      params.push(f.from)
    }
    if (f.to !== undefined) {
      clauses.push('created_at <= ?')
      params.push(f.to)
    }
    return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params }
  }

  /** History: filtered, searched and paged; `total` counts every match. */
  query(f: HistoryFilter): { rows: Upload[]; total: number } {
    const { sql, params } = this.where(f)
    const order = f.order === 'asc' ? 'ASC' : 'DESC'
    const limit = Math.min(Math.max(f.limit ?? 100, 1), 1000)
    const offset = Math.max(f.offset ?? 0, 0)
    const rows = this.t.db
      .all<Row>(
        `SELECT * FROM uploads ${sql} ORDER BY created_at ${order}, id ${order} LIMIT ? OFFSET ?`,
        ...params,
        limit,
        offset,
      )
      .map(fromRow)
    const total = this.countOnce(
      `total ${sql} ${JSON.stringify(params)}`,
      () => this.t.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM uploads ${sql}`, ...params)?.n ?? 0,
    )
    return { rows, total }
  }

  /** Every matching row, one at a time (CSV export). */
  *iterate(f: HistoryFilter): Generator<Upload> {
    const { sql, params } = this.where(f)
    const order = f.order === 'asc' ? 'ASC' : 'DESC'
    for (const r of this.t.db.iterate<Row>(
      `SELECT * FROM uploads ${sql} ORDER BY created_at ${order}, id ${order}`,
      ...params,
    )) {
      yield fromRow(r)
    }
  }
}
