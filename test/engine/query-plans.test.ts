/**
 * The queries intake and the scheduler run once per file (or per pump) must seek the rows of that
 * one file (or the due rows) through an index, with no sort: otherwise taking a folder of N files
 * costs N² row visits (an initial scan of 20,000 files went from 13 s to 412 s when the per-file
 * lookup searched all of a profile's rows and sorted them). Real SQLite: each statement the store
 * prepares for these calls is asked for its query plan.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Db } from '../../src-main/core/store/db'
import { UploadStore } from '../../src-main/core/store/uploads'

let dir: string | null = null
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = null
})

describe('per-file queries seek an index', () => {
  it('intake, duplicate detection and the scheduler: the plan narrows to the file or the due rows, unsorted', async () => {
    dir = await mkdtemp(join(tmpdir(), 'bookdrop-plans-'))
    const db = new Db(join(dir, 'bookdrop.db'))
    const store = new UploadStore(db)
    let seen: string[] = []
    const prepare = db.prepare.bind(db)
    db.prepare = (sql: string) => {
      seen.push(sql)
      return prepare(sql)
    }
    /** The plan of every statement `call` prepared, as one text. */
    const planOf = (call: () => unknown): string => {
      seen = []
      call()
      return seen
        .flatMap((sql) =>
          // Each parameter as a literal: the plan does not depend on the values.
          (db.raw.prepare(`EXPLAIN QUERY PLAN ${sql.replace(/\?/g, "'x'")}`).all() as { detail: string }[]).map(
            (r) => r.detail,
          ),
        )
        .join(' | ')
    }

    const cases: [string, string, RegExp][] = [
      ['fileState', planOf(() => store.fileState('p1', 'expenses', '/in/a.pdf', 10, 1)), /INDEX \w+ \(path=\?/],
      ['findRetakeable', planOf(() => store.findRetakeable('p1', 'expenses', '/in/a.pdf')), /INDEX \w+ \(path=\?/],
      ['findContent', planOf(() => store.findContent('p1', 'expenses', 'abc')), /sha256=\?/],
      ['findUnsent', planOf(() => store.findUnsent('p1', 'expenses', 'abc')), /sha256=\?/],
      ['orphanedDuplicates(id)', planOf(() => store.orphanedDuplicates(7)), /INDEX uploads_duplicates \(duplicate_of=\?/],
      ['nextToSend', planOf(() => store.nextToSend(null)), /INDEX uploads_send\b/],
      ['nextToSend(profiles)', planOf(() => store.nextToSend(['p1'])), /INDEX uploads_send/],
      ['nextToPoll', planOf(() => store.nextToPoll(null, [])), /INDEX uploads_poll\b/],
    ]
    db.close()
    const wrong = cases
      .filter(([, plan, want]) => !want.test(plan) || /TEMP B-TREE|^SCAN uploads$/.test(plan))
      .map(([name, plan]) => `${name}: ${plan}`)
    expect(wrong).toEqual([])
  })
})
