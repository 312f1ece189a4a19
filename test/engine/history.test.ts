/**
 * Upload history: filters, search, paging and CSV export over a real SQLite file.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Db } from '../../src-main/core/store/db'
import { UploadStore } from '../../src-main/core/store/uploads'
import { PROFILE, receipt, useRigs } from './helpers'

const rig = useRigs()

describe('history', () => {
  it('filters by status and target, searches file names, pages, and counts every match', async () => {
    const r = await rig()
    const names = ['alpha-1.txt', 'alpha-2.txt', 'beta.txt', 'gamma.exe', 'statement.csv']
    for (const n of names.slice(0, 4)) await receipt(r.inbox, n)
    const csv = await receipt(r.inbox, 'statement.csv', 'Date,Description,Amount\n2026-01-05,Flour,-12.50\n')
    await r.engine.addFiles(
      names.slice(0, 4).map((n) => join(r.inbox, n)),
      { profileId: PROFILE, target: 'expenses' },
    )
    await r.engine.addFiles([csv.path], {
      profileId: PROFILE,
      target: 'bank-transactions',
      prompt: 'January statement',
    })
    await r.engine.whenIdle()

    expect(r.engine.history().total).toBe(5)
    expect(r.engine.history({ statuses: ['skipped'] }).rows.map((x) => x.name)).toEqual(['gamma.exe'])
    expect(r.engine.history({ targets: ['bank-transactions'] }).rows.map((x) => x.name)).toEqual([
      'statement.csv',
    ])
    expect(
      r.engine
        .history({ search: 'ALPHA' })
        .rows.map((x) => x.name)
        .sort(),
    ).toEqual(['alpha-1.txt', 'alpha-2.txt'])
    // LIKE wildcards in a search are literal.
    expect(r.engine.history({ search: '%' }).total).toBe(0)
    expect(r.engine.history({ search: '_' }).total).toBe(0)
    const page1 = r.engine.history({ limit: 2, offset: 0 })
    const page2 = r.engine.history({ limit: 2, offset: 2 })
    expect(page1.total).toBe(5)
    expect(page1.rows).toHaveLength(2)
    expect(new Set([...page1.rows, ...page2.rows].map((x) => x.id)).size).toBe(4)
    const future = Date.now() + 60_000
    expect(r.engine.history({ from: future }).total).toBe(0)
    expect(r.engine.history({ to: future }).total).toBe(5)
    // The bank statement's prompt was the one given.
    expect(r.engine.history({ targets: ['bank-transactions'] }).rows[0]!.prompt).toBe('January statement')
  })

  it('exports CSV with a header, one line per row, quoting, and formula-safe cells', async () => {
    const r = await rig()
    const a = await receipt(r.inbox, '=HYPERLINK("x").txt')
    const b = await receipt(r.inbox, 'comma, "quoted".txt')
    await r.engine.addFiles([a.path, b.path], { profileId: PROFILE, target: 'expenses' })
    await r.engine.whenIdle()
    const out = join(r.dir, 'history.csv')
    const n = await r.engine.exportCsv({}, out)
    expect(n).toBe(2)
    const text = await readFile(out, 'utf8')
    const lines = text.trimEnd().split('\r\n')
    expect(lines[0]).toMatch(/^id,created_at,file,path,/)
    expect(lines).toHaveLength(3)
    expect(text).toContain(`"'=HYPERLINK(""x"").txt"`)
    expect(text).toContain('"comma, ""quoted"".txt"')
    expect(text).toContain(',completed,')
  })
})

describe('history counts', () => {
  it('stay right as uploads change, including rows written by another process on the same file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-counts-'))
    const db = new Db(join(dir, 'bookdrop.db'))
    const other = new Db(join(dir, 'bookdrop.db'))
    try {
      const store = new UploadStore(db)
      const row = (name: string) =>
        ({
          profileId: 'p1',
          target: 'expenses',
          source: 'drop',
          path: `/in/${name}`,
          name,
          prompt: 'x',
          status: 'queued',
        }) as const
      const a = store.insert(row('a.pdf'))
      store.insert(row('b.pdf'))
      expect(store.countByStatus('p1')).toMatchObject({ queued: 2, completed: 0 })
      expect(store.query({ profileId: 'p1' }).total).toBe(2)
      // Asked again with nothing changed: the same answer (remembered).
      expect(store.countByStatus('p1')).toMatchObject({ queued: 2, completed: 0 })

      store.transition(a.id, 'queued', 'uploading')
      store.transition(a.id, 'uploading', 'completed')
      expect(store.countByStatus('p1')).toMatchObject({ queued: 1, completed: 1 })
      expect(store.query({ profileId: 'p1', statuses: ['completed'] }).total).toBe(1)

      // A headless run on the same data folder writes through its own connection.
      new UploadStore(other).insert(row('c.pdf'))
      expect(store.countByStatus('p1')).toMatchObject({ queued: 2, completed: 1 })
      expect(store.query({ profileId: 'p1' }).total).toBe(3)
    } finally {
      other.close()
      db.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
