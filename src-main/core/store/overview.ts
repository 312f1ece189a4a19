/**
 * The overview screen's figures, answered by SQLite in main (never by counting history rows in the
 * renderer): a business profile's month of uploads, day by day, and a partner profile's grants.
 *
 * The API has no route that lists seat or credit grants, so the grants this app made are remembered
 * here (table `grants`, created on first use) from the answers of add-seats and add-credits.
 */
import { AI_CREDITS_PER_CREATE } from '../../../schemas/assumptions'
import type { Db } from './db'
import type { UploadStatus } from './uploads'
import type { DayFigures, Grant, GrantMonth, UploadMonth } from '../../../contract/types'

export type { DayFigures, Grant, GrantMonth, UploadMonth }

/** Statuses a person has to look at (the capture screen's "Needs attention"). */
export const ATTENTION_STATUSES: readonly UploadStatus[] = ['failed', 'skipped', 'duplicate']

/** A local calendar month: 'YYYY-MM', its bounds and the start of each of its days (epoch ms). */
export interface Month {
  month: string
  from: number
  to: number
  /** Start of day 1, 2, … of the month (local time: a DST day is 23 or 25 hours long). */
  days: number[]
}

const pad = (n: number) => String(n).padStart(2, '0')

/** The local month named 'YYYY-MM', or the one `now` is in. */
export function monthOf(name: string | undefined, now = new Date()): Month {
  const m = name ? /^(\d{4})-(\d{2})$/.exec(name) : null
  const year = m ? Number(m[1]) : now.getFullYear()
  const index = m ? Number(m[2]) - 1 : now.getMonth()
  const count = new Date(year, index + 1, 0).getDate()
  const days = Array.from({ length: count }, (_, d) => new Date(year, index, d + 1).getTime())
  return {
    month: `${year}-${pad(index + 1)}`,
    from: days[0]!,
    to: new Date(year, index + 1, 1).getTime(),
    days,
  }
}

/** One month of a profile's uploads, by the day each file was added, from the history index. */
export function uploadMonth(db: Db, profileId: string, m: Month): UploadMonth {
  const sql = `SELECT COUNT(*) AS added,
      COALESCE(SUM(job_reference IS NOT NULL OR record_uuid IS NOT NULL), 0) AS sent,
      COALESCE(SUM(status = 'completed'), 0) AS completed,
      COALESCE(SUM(status = 'failed'), 0) AS failed
    FROM uploads WHERE profile_id = ? AND created_at >= ? AND created_at < ?`
  const out: UploadMonth = {
    filesAdded: 0,
    filesSent: 0,
    recordsCreated: 0,
    failed: 0,
    creditsUsed: 0,
    days: [],
  }
  m.days.forEach((start, i) => {
    const end = m.days[i + 1] ?? m.to
    const r = db.get<{ added: number; sent: number; completed: number; failed: number }>(
      sql,
      profileId,
      start,
      end,
    )
    const d = new Date(start)
    out.days.push({
      day: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
      sent: r?.sent ?? 0,
      completed: r?.completed ?? 0,
      failed: r?.failed ?? 0,
    })
    out.filesAdded += r?.added ?? 0
    out.filesSent += r?.sent ?? 0
    out.recordsCreated += r?.completed ?? 0
    out.failed += r?.failed ?? 0
  })
  out.creditsUsed = out.filesSent * AI_CREDITS_PER_CREATE
  return out
}

/** Whether any file of this profile ever reached the server (the app then opens on the overview). */
export function hasSent(db: Db, profileId: string): boolean {
  return !!db.get(
    `SELECT 1 AS x FROM uploads WHERE profile_id = ? AND (job_reference IS NOT NULL OR record_uuid IS NOT NULL) LIMIT 1`,
    profileId,
  )
}

// ---------------------------------------------------------------------------------------------
// Grants a partner profile made from this app
// ---------------------------------------------------------------------------------------------

export type NewGrant = Omit<Grant, 'id' | 'at'>

interface GrantRow {
  id: number
  profile_id: string
  business_uuid: string
  kind: string
  seats: number
  months: number
  credits: number
  holding_charged: number
  holding_after: number | null
  prorated: number
  created_at: number
}

function grantOf(r: GrantRow): Grant {
  return {
    id: r.id,
    profileId: r.profile_id,
    businessUuid: r.business_uuid,
    kind: r.kind === 'credits' ? 'credits' : 'seats',
    seats: r.seats,
    months: r.months,
    credits: r.credits,
    holdingCharged: r.holding_charged,
    holdingAfter: r.holding_after,
    prorated: r.prorated === 1,
    at: r.created_at,
  }
}

/** Grants a partner profile made from this app, remembered from the server's answers. */
export class GrantStore {
  constructor(private readonly db: Db) {
    // Its own table, made on first use: it shares nothing with the upload queue.
    db.raw.exec(`CREATE TABLE IF NOT EXISTS grants (
      id INTEGER PRIMARY KEY,
      profile_id TEXT NOT NULL,
      business_uuid TEXT NOT NULL,
      kind TEXT NOT NULL,
      seats INTEGER NOT NULL DEFAULT 0,
      months INTEGER NOT NULL DEFAULT 0,
      credits REAL NOT NULL DEFAULT 0,
      holding_charged REAL NOT NULL DEFAULT 0,
      holding_after REAL,
      prorated INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS grants_profile_created ON grants(profile_id, created_at)`)
  }

  record(g: NewGrant, now = Date.now()): Grant {
    // run(), not get() with RETURNING: libsql's get() does not surface a failed commit.
    const r = this.db.run(
      `INSERT INTO grants (profile_id, business_uuid, kind, seats, months, credits, holding_charged,
         holding_after, prorated, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      g.profileId,
      g.businessUuid,
      g.kind,
      g.seats,
      g.months,
      g.credits,
      g.holdingCharged,
      g.holdingAfter,
      g.prorated ? 1 : 0,
      now,
    )
    return { ...g, id: r.lastInsertRowid, at: now }
  }

  month(profileId: string, m: Pick<Month, 'from' | 'to'>): GrantMonth {
    const grants = this.db
      .all<GrantRow>(
        'SELECT * FROM grants WHERE profile_id = ? AND created_at >= ? AND created_at < ? ORDER BY created_at DESC, id DESC',
        profileId,
        m.from,
        m.to,
      )
      .map(grantOf)
    const last = this.db.get<GrantRow>(
      'SELECT * FROM grants WHERE profile_id = ? AND holding_after IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1',
      profileId,
    )
    const seats = grants.filter((g) => g.kind === 'seats')
    const credits = grants.filter((g) => g.kind === 'credits')
    const sum = (gs: Grant[], f: (g: Grant) => number) =>
      Math.round(gs.reduce((n, g) => n + f(g), 0) * 100) / 100
    return {
      seatsGranted: sum(seats, (g) => g.seats),
      seatGrants: seats.length,
      creditsGranted: sum(credits, (g) => g.credits),
      creditGrants: credits.length,
      holdingCharged: sum(grants, (g) => g.holdingCharged),
      grants,
      holding: last?.holding_after != null ? { balance: last.holding_after, at: last.created_at } : null,
    }
  }
}

/** Client health of one profile: its last completed upload, and jobs processing since before `stuckBefore`. */
export function healthFigures(
  db: Db,
  profileId: string,
  stuckBefore: number,
): { lastSuccessAt: number | null; stuckJobs: number } {
  const last = db.get<{ t: number | null }>(
    `SELECT MAX(completed_at) AS t FROM uploads WHERE profile_id = ? AND status = 'completed'`,
    profileId,
  )
  const stuck = db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM uploads WHERE profile_id = ? AND status = 'processing' AND created_at < ?`,
    profileId,
    stuckBefore,
  )
  return { lastSuccessAt: last?.t ?? null, stuckJobs: stuck?.n ?? 0 }
}
