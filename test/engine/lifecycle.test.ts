/**
 * The transition table (src-main/core/lifecycle.ts) on a real SQLite store: every allowed move is
 * applied and writes only its fields; every move the table does not list is refused and changes
 * nothing; the SQL guard refuses a row that moved meanwhile; README's table is the table; and no
 * other code writes a status.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  TRANSITIONS,
  TransitionError,
  UPLOAD_STATUSES,
  type UploadStatus,
  lifecycleMarkdown,
  transitionOf,
} from '../../src-main/core/lifecycle'
import { Db } from '../../src-main/core/store/db'
import { UploadStore } from '../../src-main/core/store/uploads'

const ROOT = join(import.meta.dirname, '..', '..')
let dir: string
let db: Db
let store: UploadStore

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-lifecycle-'))
  db = new Db(join(dir, 'bookdrop.db'))
  store = new UploadStore(db)
})
afterAll(async () => {
  db.close()
  await rm(dir, { recursive: true, force: true })
})

/** A row put straight into `status` with SQL: a fixture, as a crash or an old version could leave it. */
function rowIn(status: UploadStatus): number {
  const r = store.insert({ profileId: 'p', target: 'expenses', source: 'drop', path: `/in/${status}-${Math.random()}.pdf`, name: 'x.pdf', prompt: 'p', status: 'queued' })
  db.run('UPDATE uploads SET status = ? WHERE id = ?', status, r.id)
  return r.id
}

describe('the transition table', () => {
  it('applies every move it lists, writing the fields it names', () => {
    for (const t of TRANSITIONS.filter((x) => x.from !== 'new')) {
      const id = rowIn(t.from as UploadStatus)
      const patch = Object.fromEntries(t.writes.filter((f) => f === 'lastError').map((f) => [f, `${t.from}->${t.to}`]))
      const next = store.transition(id, t.from as UploadStatus, t.to, patch)
      expect(next?.status, `${t.from} -> ${t.to}`).toBe(t.to)
      if ('lastError' in patch) expect(next?.lastError).toBe(`${t.from}->${t.to}`)
    }
  })

  it('refuses every move it does not list, and leaves the row as it was', () => {
    let refused = 0
    for (const from of UPLOAD_STATUSES) {
      for (const to of UPLOAD_STATUSES) {
        if (transitionOf(from, to)) continue
        const id = rowIn(from)
        expect(() => store.transition(id, from, to), `${from} -> ${to}`).toThrow(TransitionError)
        expect(store.get(id)?.status).toBe(from)
        refused++
      }
    }
    // 12 statuses, 144 pairs, of which the table allows the listed ones.
    expect(refused).toBe(UPLOAD_STATUSES.length ** 2 - TRANSITIONS.filter((t) => t.from !== 'new').length)
    for (const to of UPLOAD_STATUSES) {
      if (transitionOf('new', to)) continue
      expect(() => store.insert({ profileId: 'p', target: 'expenses', source: 'drop', path: '/x', name: 'x', prompt: 'p', status: to }), `new -> ${to}`).toThrow(TransitionError)
    }
  })

  it('refuses a field the move may not write', () => {
    const id = rowIn('queued')
    expect(() => store.transition(id, 'queued', 'uploading', { recordUuid: 'r1' })).toThrow(/may not write recordUuid/)
    expect(store.get(id)?.status).toBe('queued')
    const done = rowIn('completed')
    expect(() => store.note(done, 'completed', { sha256: 'x' })).toThrow(/may not change sha256/)
    expect(store.note(done, 'completed', { movedTo: '/archive/x.pdf' })?.movedTo).toBe('/archive/x.pdf')
  })

  it('is guarded in SQL: a row that moved meanwhile is left alone', () => {
    const id = rowIn('queued')
    store.transition(id, 'queued', 'cancelled', { lastError: 'Cancelled by you.' })
    // The scheduler still believes it is queued: its move finds nothing to change.
    expect(store.transition(id, 'queued', 'uploading', { attempts: 1 })).toBeUndefined()
    expect(store.get(id)).toMatchObject({ status: 'cancelled', attempts: 0 })
  })

  it("is the docs' life of a receipt (docs/engine.md), word for word", () => {
    const readme = readFileSync(join(ROOT, 'docs', 'engine.md'), 'utf8')
    const start = readme.indexOf('<!-- lifecycle:start -->')
    const end = readme.indexOf('<!-- lifecycle:end -->')
    expect(start).toBeGreaterThan(0)
    expect(readme.slice(start + '<!-- lifecycle:start -->'.length, end).trim()).toBe(lifecycleMarkdown())
  })

  it('is the only writer of a status: no other source file updates the uploads table', () => {
    const offenders: string[] = []
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name)
        if (statSync(p).isDirectory()) walk(p)
        else if (/\.tsx?$/.test(name) && /UPDATE\s+uploads/i.test(readFileSync(p, 'utf8'))) offenders.push(relative(ROOT, p))
      }
    }
    for (const d of ['src-main', 'src-preload', 'src-renderer', 'contract', 'sandbox', 'schemas']) walk(join(ROOT, d))
    expect(offenders).toEqual(['src-main/core/store/uploads.ts'])
  })
})
