/**
 * 100,000 rows of upload history, written straight into a data folder's SQLite (the history screen
 * and its bench need a long past, not a long test): repeatable from the emulator's seeded PRNG.
 */
import { createHash, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { seededRandom } from '../../sandbox/state'
import type { AiTarget } from '../../schemas'
import { coded } from '../../contract/coded'
import { MAIN_ERRORS as E } from '../../contract/main-messages'
import type { Coded } from '../../contract/message'
import { Db } from '../../src-main/core/store/db'
import type { UploadStatus } from '../../src-main/core/store/uploads'
import { lastErrorColumns } from '../../src-main/core/store/uploads/rows'

// ---------------------------------------------------------------------------------------------
// 100,000 rows of upload history
// ---------------------------------------------------------------------------------------------

/** The emulator's seeded PRNG (mulberry32), so every run seeds the same history. */
const prng = seededRandom

function pick<T>(rand: () => number, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((n, [, w]) => n + w, 0)
  let x = rand() * total
  for (const [v, w] of weighted) {
    x -= w
    if (x < 0) return v
  }
  return weighted[weighted.length - 1]![0]
}

/** Only settled statuses: the engine must not start sending seeded rows. */
const SEED_STATUSES = [
  ['completed', 82],
  ['failed', 6],
  ['duplicate', 5],
  ['skipped', 4],
  ['cancelled', 3],
] as const satisfies readonly (readonly [UploadStatus, number])[]

const SEED_TARGETS = [
  ['expenses', 58],
  ['bills', 15],
  ['invoices', 10],
  ['bank-transactions', 9],
  ['income', 8],
] as const satisfies readonly (readonly [AiTarget, number])[]

const RECORD_TYPE: Partial<Record<AiTarget, string>> = {
  expenses: 'expense',
  bills: 'bill',
  invoices: 'invoice',
  'bank-transactions': 'bank_transaction',
  income: 'income',
}

const VENDORS = [
  'shoprite',
  'total-energies',
  'ikeja-electric',
  'flour-mills',
  'mtn',
  'uber',
  'jumia',
  'konga',
  'chicken-republic',
  'dangote',
]

/**
 * What the server wrote in the seeded validation failures: stored, as the engine stores a refusal,
 * as "The server said: {message}" with its words as it wrote them (shown untranslated, issue 34).
 */
export const SEEDED_SERVER_WORDS = ['items.0.quantity: quantity must be greater than 0'] as const

/**
 * A failed row's stored reason as the engine stores it now (src-main/core/queue/outcomes.ts and
 * api/errors.ts): a catalogue id with parameters, and its English text. Rows stored before codes
 * keep their text only; that migration case has its own tests (store/uploads), not this history.
 */
const SEEDED_FAILURES: readonly Coded[] = [
  coded(E.jobFailed),
  { ...coded(E.gaveUp, { attempts: 5 }), text: 'Gave up after 5 attempts. Last error: injected fault: 503' },
  { ...coded(E.serverSaid, { message: SEEDED_SERVER_WORDS[0] }), text: SEEDED_SERVER_WORDS[0] },
]

export interface SeededRow {
  name: string
  status: UploadStatus
  target: AiTarget
  createdAt: number
}

/** The columns seeded; the rest keep their defaults (or null). */
const SEED_COLUMNS = [
  'profile_id',
  'target',
  'source',
  'path',
  'name',
  'size',
  'mtime_ms',
  'sha256',
  'prompt',
  'status',
  'reason',
  'attempts',
  'last_error',
  'last_error_coded',
  'error_code',
  'http_status',
  'idempotency_key',
  'job_reference',
  'record_uuid',
  'record_type',
  'duplicate_of',
  'created_at',
  'updated_at',
  'completed_at',
] as const
type SeedColumn = (typeof SEED_COLUMNS)[number]

/**
 * Writes `count` uploads of one profile straight into <dataDir>/bookdrop.db (opened through Db, so
 * the schema is migrated), in one transaction with one prepared INSERT, before the host opens the
 * database: about 1.5 s for 100,000 rows, where UploadStore.insert (RETURNING every row) takes 8.
 * Oldest first: rows[0] is the oldest, so it is the LAST row of the history table (newest first).
 * A realistic mix of statuses, targets and file names, a few minutes apart over the last years.
 */
export function seedHistory(
  dataDir: string,
  profileId: string,
  count = 100_000,
  now = Date.now(),
): SeededRow[] {
  const db = new Db(join(dataDir, 'bookdrop.db'))
  const insert = db.prepare(
    `INSERT INTO uploads (${SEED_COLUMNS.join(', ')}) VALUES (${SEED_COLUMNS.map(() => '?').join(', ')})`,
  )
  const rand = prng(20260101)
  const step = 7 * 60_000
  const start = now - count * step
  const rows: SeededRow[] = []
  try {
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const createdAt = start + i * step
        const ymd = new Date(createdAt).toISOString().slice(0, 10)
        const target = pick(rand, SEED_TARGETS)
        const status: UploadStatus = pick(rand, SEED_STATUSES)
        const vendor = VENDORS[Math.floor(rand() * VENDORS.length)]!
        const n = String(i).padStart(6, '0')
        const name =
          target === 'bank-transactions'
            ? `statement-${vendor}-${ymd.slice(0, 7)}-${n}.csv`
            : target === 'invoices'
              ? `invoice-INV-${n}.pdf`
              : rand() < 0.3
                ? `IMG_${ymd.replace(/-/g, '')}_${n}.jpg`
                : `receipt-${vendor}-${ymd}-${n}.pdf`
        const v: Partial<Record<SeedColumn, string | number | null>> = {
          profile_id: profileId,
          target,
          source: rand() < 0.6 ? 'watch' : 'drop',
          path: `/home/ada/Receipts/${ymd.slice(0, 4)}/${name}`,
          name,
          size: 20_000 + Math.floor(rand() * 3_000_000),
          mtime_ms: createdAt - 5_000,
          sha256: createHash('sha256').update(`${i}`).digest('hex'),
          prompt: '',
          status,
          attempts: status === 'skipped' ? 0 : 1,
          idempotency_key: randomUUID(),
          created_at: createdAt,
          updated_at: createdAt + 4_000,
        }
        if (status === 'completed') {
          const uuid = createHash('md5').update(`record-${i}`).digest('hex')
          v.record_uuid = uuid
          v.record_type = RECORD_TYPE[target] ?? null
          v.job_reference = `job_${uuid}`
          v.completed_at = createdAt + 4_000
        } else if (status === 'failed') {
          const r = rand()
          Object.assign(v, lastErrorColumns(SEEDED_FAILURES[r < 0.5 ? 0 : r < 0.8 ? 1 : 2]))
          v.error_code = r < 0.5 ? 'job_failed' : r < 0.8 ? 'server_error' : 'validation_error'
          v.http_status = r < 0.5 ? null : r < 0.8 ? 503 : 400
        } else if (status === 'skipped') {
          v.reason = pick(rand, [
            ['unsupported_kind', 2],
            ['too_large', 1],
            ['empty', 1],
          ] as const)
        } else if (status === 'duplicate') {
          v.duplicate_of = Math.max(1, Math.floor(rand() * (i + 1)))
        }
        insert.run(...SEED_COLUMNS.map((c) => v[c] ?? null))
        rows.push({ name, status, target, createdAt })
      }
    })
  } finally {
    db.close()
  }
  return rows
}

// ---------------------------------------------------------------------------------------------
// Fitting a laptop screen
// ---------------------------------------------------------------------------------------------
