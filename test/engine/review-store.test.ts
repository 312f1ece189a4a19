/**
 * The records table (issue 32) on real SQLite: migration 9 lists every upload an earlier version
 * completed with a record (to be read when first shown), and Review's questions seek an index with
 * no sort, so a list of 10,000 records stays quick.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Db } from '../../src-main/core/store/db'
import { RecordStore } from '../../src-main/core/store/records'
import { UploadStore } from '../../src-main/core/store/uploads'

let dir: string | null = null
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = null
})

async function openDb(): Promise<Db> {
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-records-'))
  return new Db(join(dir, 'bookdrop.db'))
}

/** The query plans (one text) of every statement `call` prepares, each parameter as a literal. */
function plansOf(db: Db, call: () => unknown): string {
  const sqls: string[] = []
  const original = db.prepare
  db.prepare = (sql: string) => {
    sqls.push(sql)
    return original.call(db, sql)
  }
  try {
    call()
  } finally {
    db.prepare = original
  }
  const explain = (sql: string) =>
    db.raw.prepare(`EXPLAIN QUERY PLAN ${sql.replaceAll('?', "'x'")}`).all() as { detail: string }[]
  return sqls.map((sql) => explain(sql).map((row) => row.detail).join(' | ')).join(' | ')
}

describe('the records table', () => {
  it('migration 9 lists the uploads an earlier version completed, unread, with their kind', async () => {
    dir = await mkdtemp(join(tmpdir(), 'bookdrop-records-'))
    const file = join(dir, 'bookdrop.db')
    let db = new Db(file)
    const uploads = new UploadStore(db)
    const row = uploads.insert({ profileId: 'p1', target: 'bills', source: 'watch', path: '/in/a.pdf', name: 'a.pdf', prompt: '', status: 'queued' })
    db.run(`UPDATE uploads SET status = 'completed', record_uuid = 'rec-1', record_type = NULL, completed_at = 5 WHERE id = ?`, row.id)
    uploads.insert({ profileId: 'p1', target: 'expenses', source: 'drop', path: '/in/b.pdf', name: 'b.pdf', prompt: '', status: 'queued' })
    // As a version before this table (migration 9) left the file: without what 9, 10 and 11 add.
    db.raw.exec(`DROP TABLE records; DROP INDEX uploads_near; ALTER TABLE uploads DROP COLUMN near_of;
      ALTER TABLE uploads DROP COLUMN near_basis; ALTER TABLE uploads DROP COLUMN last_error_coded;
      UPDATE schema_version SET version = 8`)
    db.close()
    db = new Db(file)
    const store = new RecordStore(db)
    const unread = store.unread(null, 10)
    expect(unread.map((r) => [r.uuid, r.kind, r.uploadId, r.fetchedAt, r.name, r.source])).toEqual([
      ['rec-1', 'bill', row.id, null, 'a.pdf', 'watch'],
    ])
    db.close()
  })

  it("Review's lists, counts, duplicate lookup and month sums seek an index, unsorted", async () => {
    const db = await openDb()
    const store = new RecordStore(db)
    const planOf = (call: () => unknown) => plansOf(db, call)
    const ctx = { currency: 'NGN', today: '2026-03-10' }
    const rec = {
      uuid: 'u', profileId: 'p1', uploadId: 1, vendor: 'Flour Mills', date: '2026-03-03', total: '1.00',
    } as Parameters<RecordStore['sameRecord']>[0]
    const cases: [string, string, RegExp][] = [
      ['list(all)', planOf(() => store.list('p1', 'all', 0, 100, ctx)), /INDEX records_list \(profile_id=\?/],
      ['list(to_review)', planOf(() => store.list('p1', 'to_review', 0, 100, ctx)), /INDEX records_to_review \(profile_id=\?/],
      ['sameRecord', planOf(() => store.sameRecord(rec)), /INDEX records_same \(profile_id=\? AND vendor_key=\? AND date=\? AND total=\?/],
      ['spending', planOf(() => store.spending('p1', '2026-03-01', '2026-03-31')), /INDEX records_month \(profile_id=\? AND kind=\? AND date>\? AND date<\?\)/],
      // A few rows of the uploads shown: sorted, but found through the index.
      ['unread', planOf(() => store.unread([1, 2], 6)), /INDEX records_unread/],
      ['byUuid', planOf(() => store.byUuid('u', 'p1')), /INDEX records_uuid \(uuid=\?/],
    ]
    db.close()
    const wrong = cases
      .filter(([name, plan, want]) => !want.test(plan) || (name !== 'unread' && /TEMP B-TREE FOR ORDER/.test(plan)))
      .map(([name, plan]) => `${name}: ${plan}`)
    expect(wrong).toEqual([])
  })
})
