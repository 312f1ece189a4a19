/**
 * FolderWatcher detection, against real temp folders and real chokidar: stability, ignore rules,
 * recursion, kinds, the "already there" cut-off, atomic saves, renames, moves, vanished files,
 * rescans and odd names.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SETTLE_MS, cleanup, makeWatcher, sleep, tempDir, watchedWith, writeSlowly } from './helpers'

afterEach(cleanup)

describe('FolderWatcher: detection', () => {
  it('reports files already there once, after start() (initial scan)', async () => {
    const dir = await tempDir()
    await fs.writeFile(path.join(dir, 'a.pdf'), 'aaa')
    await fs.writeFile(path.join(dir, 'b.jpg'), 'bbbb')
    const { w, rec } = makeWatcher(dir)
    await w.start()
    expect(rec.statuses.map((s) => s.state)).toEqual(['starting', 'watching'])
    await rec.waitFor(() => rec.candidates.length === 2, 'two candidates')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['a.pdf', 'b.jpg'])
    const a = rec.named('a.pdf')[0]
    expect(a).toMatchObject({
      folderId: 'folder-1',
      path: path.join(dir, 'a.pdf'),
      size: 3,
      kind: 'pdf',
      accepted: true,
      unreadable: false,
      source: 'scan',
    })
    expect(a?.detectedAt).toBeLessThanOrEqual(a?.stableAt ?? 0)
  })

  it('reports a file written slowly over ~1 s once, only when complete, with its final size', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir)
    await w.start()
    const file = path.join(dir, 'slow.pdf')
    // 20 chunks of 1 KiB, one every 50 ms: never still for a whole 150 ms stability window.
    const closedAt = await writeSlowly(file, 20, 1024, 50)
    await rec.waitFor(() => rec.candidates.length === 1, 'the slow file')
    await sleep(SETTLE_MS)
    expect(rec.candidates).toHaveLength(1)
    const c = rec.candidates[0]
    expect(c?.size).toBe(20 * 1024)
    expect(c?.stableAt).toBeGreaterThanOrEqual(closedAt)
    expect(c?.source).toBe('watcher')
    expect(rec.vanished).toHaveLength(0)
  })

  it('never reports hidden, temporary or system files, live or at the initial scan', async () => {
    const dir = await tempDir()
    const ignored = [
      '.DS_Store',
      '~$report.docx',
      'scan.tmp',
      'statement.pdf.part',
      'statement.pdf.crdownload',
      'statement.pdf.download',
      '.receipt.pdf.swp',
      'receipt.pdf.swo',
      'receipt.pdf~',
      '#receipt.pdf#',
      'Thumbs.db',
      'desktop.ini',
    ]
    await fs.writeFile(path.join(dir, ignored[0] as string), 'x')
    await fs.mkdir(path.join(dir, '.hidden'))
    await fs.writeFile(path.join(dir, '.hidden', 'inside.pdf'), 'x')
    const { w, rec } = makeWatcher(dir, { recursive: true })
    await w.start()
    for (const name of ignored.slice(1)) await fs.writeFile(path.join(dir, name), 'x')
    await fs.writeFile(path.join(dir, '.hidden', 'later.pdf'), 'x')
    await fs.writeFile(path.join(dir, 'real.pdf'), 'x')
    await rec.waitFor(() => rec.candidates.length >= 1, 'real.pdf')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['real.pdf'])
    expect(rec.vanished).toHaveLength(0)
  })

  it('does not look into sub-folders when not recursive', async () => {
    const dir = await tempDir()
    await fs.mkdir(path.join(dir, 'sub', 'deep'), { recursive: true })
    await fs.writeFile(path.join(dir, 'sub', 'old.pdf'), 'x')
    const { w, rec } = makeWatcher(dir, { recursive: false })
    await w.start()
    await fs.writeFile(path.join(dir, 'sub', 'new.pdf'), 'x')
    await fs.writeFile(path.join(dir, 'sub', 'deep', 'deeper.pdf'), 'x')
    await fs.writeFile(path.join(dir, 'top.pdf'), 'x')
    await rec.waitFor(() => rec.candidates.length >= 1, 'top.pdf')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['top.pdf'])
  })

  it('reports files in sub-folders at any depth when recursive, except excluded folders', async () => {
    const dir = await tempDir()
    await fs.mkdir(path.join(dir, 'sub', 'deep'), { recursive: true })
    await fs.mkdir(path.join(dir, 'Uploaded'))
    await fs.mkdir(path.join(dir, 'archive'))
    await fs.writeFile(path.join(dir, 'sub', 'old.pdf'), 'x')
    await fs.writeFile(path.join(dir, 'Uploaded', 'done-before.pdf'), 'x')
    const { w, rec } = makeWatcher(dir, {
      recursive: true,
      excludeDirs: [path.join(dir, 'Uploaded'), path.join(dir, 'archive')],
    })
    await w.start()
    await fs.writeFile(path.join(dir, 'sub', 'deep', 'deeper.pdf'), 'x')
    await fs.mkdir(path.join(dir, 'sub', 'new-folder'))
    await fs.writeFile(path.join(dir, 'sub', 'new-folder', 'in-new.pdf'), 'x')
    await fs.writeFile(path.join(dir, 'Uploaded', 'moved-by-engine.pdf'), 'x')
    await fs.writeFile(path.join(dir, 'archive', 'archived.pdf'), 'x')
    await fs.writeFile(path.join(dir, 'top.pdf'), 'x')
    await rec.waitFor(() => rec.candidates.length >= 4, 'four candidates')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['deeper.pdf', 'in-new.pdf', 'old.pdf', 'top.pdf'])
    expect(rec.named('deeper.pdf')[0]?.path).toBe(path.join(dir, 'sub', 'deep', 'deeper.pdf'))
  })

  it('reports the files of a folder moved in, and again when the folder is moved out and back', async () => {
    const dir = await tempDir()
    const outside = await tempDir()
    await fs.mkdir(path.join(outside, 'batch', 'inner'), { recursive: true })
    await fs.writeFile(path.join(outside, 'batch', 'one.pdf'), '1')
    await fs.writeFile(path.join(outside, 'batch', 'inner', 'two.pdf'), '22')
    const { w, rec } = makeWatcher(dir, { recursive: true })
    await w.start()
    await fs.rename(path.join(outside, 'batch'), path.join(dir, 'batch'))
    await rec.waitFor(() => rec.candidates.length === 2, 'the two files of the folder moved in')
    expect(rec.named('two.pdf')[0]?.path).toBe(path.join(dir, 'batch', 'inner', 'two.pdf'))
    await fs.rename(path.join(dir, 'batch'), path.join(outside, 'batch'))
    await sleep(SETTLE_MS)
    await fs.rename(path.join(outside, 'batch'), path.join(dir, 'batch'))
    await rec.waitFor(() => rec.candidates.length === 4, 'the same two files, second appearance')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['one.pdf', 'one.pdf', 'two.pdf', 'two.pdf'])
  })

  it('flags kinds that are not accepted instead of dropping them', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir, { acceptedKinds: ['pdf', 'csv'] })
    await w.start()
    for (const name of ['a.pdf', 'B.PDF', 'c.docx', 'noext', 'd.csv'])
      await fs.writeFile(path.join(dir, name), 'x')
    await rec.waitFor(() => rec.candidates.length === 5, 'five candidates')
    const byName = Object.fromEntries(rec.candidates.map((c) => [c.name, [c.kind, c.accepted]]))
    expect(byName).toEqual({
      'a.pdf': ['pdf', true],
      'B.PDF': ['pdf', true],
      'c.docx': ['docx', false],
      noext: ['', false],
      'd.csv': ['csv', true],
    })
  })

  it('ignores files already there whose mtime is older than ignoreOlderThanMs, takes new ones', async () => {
    const dir = await tempDir()
    const old = path.join(dir, 'old.pdf')
    await fs.writeFile(old, 'old')
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000)
    await fs.utimes(old, twoDaysAgo, twoDaysAgo)
    await fs.writeFile(path.join(dir, 'recent.pdf'), 'recent')
    const { w, rec } = makeWatcher(dir, { ignoreOlderThanMs: 86_400_000 })
    await w.start()
    await fs.writeFile(path.join(dir, 'new.pdf'), 'new')
    await rec.waitFor(() => rec.candidates.length >= 2, 'recent.pdf and new.pdf')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['new.pdf', 'recent.pdf'])
    // Editing the old file makes it a new version: it is taken then.
    await fs.appendFile(old, ' edited')
    await rec.waitFor(() => rec.named('old.pdf').length === 1, 'old.pdf after an edit')
  })

  it('accepts an epoch time as ignoreOlderThanMs ("modified before the folder was added")', async () => {
    const dir = await tempDir()
    const old = path.join(dir, 'before.pdf')
    await fs.writeFile(old, 'old')
    const hourAgo = new Date(Date.now() - 3_600_000)
    await fs.utimes(old, hourAgo, hourAgo)
    await fs.writeFile(path.join(dir, 'after.pdf'), 'new')
    const { w, rec } = makeWatcher(dir, { ignoreOlderThanMs: Date.now() - 60_000 })
    await w.start()
    await rec.waitFor(() => rec.candidates.length >= 1, 'after.pdf')
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['after.pdf'])
  })

  it('reports an atomic save (write a temp file, rename into place) once, at the final path', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir)
    await w.start()
    const final = path.join(dir, 'report.pdf')
    const tmp = path.join(dir, 'report.pdf.tmp')
    await writeSlowly(tmp, 5, 2048, 30)
    await fs.rename(tmp, final)
    await rec.waitFor(() => rec.candidates.length === 1, 'report.pdf')
    expect(rec.candidates[0]).toMatchObject({ path: final, size: 5 * 2048 })

    // Saving again atomically with new content: one more candidate, for the new version.
    await fs.writeFile(tmp, 'version two')
    await fs.rename(tmp, final)
    await rec.waitFor(() => rec.candidates.length === 2, 'the second version')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.candidates.map((c) => [c.name, c.size])).toEqual([
      ['report.pdf', 5 * 2048],
      ['report.pdf', 'version two'.length],
    ])
    expect(rec.vanished).toHaveLength(0)
  })

  it('reports a changed file again (a new version), and an unchanged one never', async () => {
    const { dir, w, rec } = await watchedWith({ 'a.csv': 'one' })
    const file = path.join(dir, 'a.csv')
    await fs.chmod(file, 0o600) // metadata only: not a new version
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.candidates).toHaveLength(1)
    await fs.appendFile(file, ',two')
    await rec.waitFor(() => rec.candidates.length === 2, 'second version')
    expect(rec.candidates[1]?.size).toBe('one,two'.length)
  })

  it('reports a renamed file at its new path, and not again at the old one', async () => {
    const { dir, w, rec } = await watchedWith({ 'a.pdf': 'content' })
    const a = path.join(dir, 'a.pdf')
    await fs.rename(a, path.join(dir, 'b.pdf'))
    await rec.waitFor(() => rec.candidates.length === 2, 'b.pdf')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.candidates.map((c) => c.name)).toEqual(['a.pdf', 'b.pdf'])
    expect(rec.candidates[1]?.path).toBe(path.join(dir, 'b.pdf'))
    expect(rec.vanished).toHaveLength(0) // a.pdf was stable, not pending
  })

  it('reports a file moved out and back once per appearance', async () => {
    const dir = await tempDir()
    const outside = await tempDir()
    const inside = path.join(dir, 'a.pdf')
    const away = path.join(outside, 'a.pdf')
    await fs.writeFile(inside, 'content')
    const { w, rec } = makeWatcher(dir)
    await w.start()
    await rec.waitFor(() => rec.candidates.length === 1, 'first appearance')
    await fs.rename(inside, away)
    await sleep(SETTLE_MS)
    await fs.rename(away, inside)
    await rec.waitFor(() => rec.candidates.length === 2, 'second appearance')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.candidates).toHaveLength(2)
    const [first, second] = rec.candidates
    expect(second?.path).toBe(first?.path)
    expect(second?.mtimeMs).toBe(first?.mtimeMs) // the same version, a new appearance
  })

  it("reports 'vanished' for a file deleted before it became stable", async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir, { stabilityMs: 600 })
    await w.start()
    const file = path.join(dir, 'brief.pdf')
    await fs.writeFile(file, 'here for a moment')
    await sleep(150)
    await fs.rm(file)
    await rec.waitFor(() => rec.vanished.length === 1, 'vanished')
    await sleep(700)
    expect(rec.vanished[0]).toMatchObject({
      folderId: 'folder-1',
      path: file,
      name: 'brief.pdf',
      accepted: true,
    })
    expect(rec.candidates).toHaveLength(0)
  })

  it('rescan finds a file the watcher was not told about, without duplicates', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir)
    await w.start()
    w.testHooks.dropEvents(true)
    await fs.writeFile(path.join(dir, 'missed.pdf'), 'x')
    await sleep(SETTLE_MS)
    expect(rec.candidates).toHaveLength(0)
    await w.rescan()
    await rec.waitFor(() => rec.candidates.length === 1, 'missed.pdf via rescan')
    expect(rec.candidates[0]).toMatchObject({ name: 'missed.pdf', source: 'scan' })
    w.testHooks.dropEvents(false)
    await Promise.all([w.rescan(), w.rescan(), w.rescan()])
    await fs.writeFile(path.join(dir, 'seen.pdf'), 'y')
    await rec.waitFor(() => rec.candidates.length === 2, 'seen.pdf')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['missed.pdf', 'seen.pdf'])
  })

  it('the periodic (jittered) rescan finds missed files on its own', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir, { rescanIntervalMs: 200 })
    await w.start()
    w.testHooks.dropEvents(true)
    await fs.writeFile(path.join(dir, 'missed.pdf'), 'x')
    await rec.waitFor(() => rec.candidates.length === 1, 'missed.pdf via the periodic rescan')
    await sleep(600) // a few more rescans: still one candidate
    expect(rec.candidates).toHaveLength(1)
  })

  it('handles Unicode and very long names', async () => {
    const dir = await tempDir()
    const unicode = 'Reçu café ☕ 東京 №1 — Ünïcödé.pdf'
    const long = `${'receipt-'.repeat(30)}end.pdf` // 247 characters
    expect(long.length).toBeGreaterThan(200)
    await fs.writeFile(path.join(dir, unicode), 'u')
    const { w, rec } = makeWatcher(dir, { recursive: true })
    await w.start()
    await fs.writeFile(path.join(dir, long), 'l')
    await fs.mkdir(path.join(dir, 'dossier été'))
    await fs.writeFile(path.join(dir, 'dossier été', 'facture n°2.pdf'), 'f')
    await rec.waitFor(() => rec.candidates.length === 3, 'three candidates')
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual([unicode, 'facture n°2.pdf', long].sort())
    expect(rec.named(long)[0]?.path).toBe(path.join(dir, long))
  })

  it('busy() is true while a file waits to become stable, false once it is reported', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir)
    expect(w.busy()).toBe(false)
    await w.start()
    await rec.waitFor(() => !w.busy(), 'idle after start')
    await fs.writeFile(path.join(dir, 'a.pdf'), 'x')
    await rec.waitFor(() => w.busy(), 'busy')
    await rec.waitFor(() => rec.candidates.length === 1, 'a.pdf')
    await rec.waitFor(() => !w.busy(), 'idle again')
  })

  it('works in polling mode (network drives)', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir, { usePolling: true, pollIntervalMs: 100, recursive: true })
    await w.start()
    expect(rec.state).toBe('polling')
    await fs.mkdir(path.join(dir, 'sub'))
    await fs.writeFile(path.join(dir, 'sub', 'polled.pdf'), 'x')
    await rec.waitFor(() => rec.candidates.length === 1, 'polled.pdf')
    expect(rec.candidates[0]?.source).toBe('watcher')
  })
})

describe('FolderWatcher: folders with many files already in them', () => {
  /** Writes `n` small files into `dir`, last modified an hour ago (files that were there before). */
  async function oldFiles(dir: string, n: number): Promise<void> {
    const hourAgo = new Date(Date.now() - 3_600_000)
    for (let i = 0; i < n; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, n - i) }, async (_, j) => {
          const f = path.join(dir, `r-${i + j}.pdf`)
          await fs.writeFile(f, `receipt ${i + j}`)
          await fs.utimes(f, hourAgo, hourAgo)
        }),
      )
    }
  }

  it('an initial scan of 2,000 files reports each once while holding only a few pending at a time', async () => {
    const dir = await tempDir()
    await oldFiles(dir, 2_000)
    const { w, rec } = makeWatcher(dir)
    let mostPending = 0
    const sampler = setInterval(() => {
      mostPending = Math.max(mostPending, w.testHooks.counts().pending)
    }, 1)
    try {
      await w.start()
      await rec.waitFor(() => rec.candidates.length >= 2_000, '2,000 candidates', 20_000)
    } finally {
      clearInterval(sampler)
    }
    await sleep(SETTLE_MS)
    expect(new Set(rec.candidates.map((c) => c.name)).size).toBe(2_000)
    expect(rec.candidates).toHaveLength(2_000)
    // Memory follows the pending set, not the folder: a bounded window walks through the files.
    expect(mostPending).toBeGreaterThan(0)
    expect(mostPending).toBeLessThanOrEqual(200)
  })

  it("a scan goes no faster than the consumer's scanGate lets it, and finishes once it opens", async () => {
    const dir = await tempDir()
    await oldFiles(dir, 300)
    let open = false
    let release: () => void = () => undefined
    const gate = (): Promise<void> | undefined =>
      open ? undefined : new Promise<void>((resolve) => (release = resolve))
    const { w, rec } = makeWatcher(dir, { scanGate: gate })
    const started = w.start()
    await sleep(SETTLE_MS * 2)
    expect(rec.candidates).toHaveLength(0)
    expect(w.busy()).toBe(true) // the folder is still being taken in
    open = true
    release()
    await started
    await rec.waitFor(() => rec.candidates.length === 300, '300 candidates')
    await rec.waitFor(() => !w.busy(), 'idle')
  })

  it('takes old files found by a scan without a stability wait; fresh ones, and polled ones, still wait', async () => {
    const stabilityMs = 1_000
    const dir = await tempDir()
    await oldFiles(dir, 1)
    await fs.writeFile(path.join(dir, 'fresh.pdf'), 'just written')
    const { w, rec } = makeWatcher(dir, { stabilityMs })
    await w.start()
    await rec.waitFor(() => rec.candidates.length === 2, 'both files')
    const waited = (name: string) => {
      const c = rec.named(name)[0]
      return (c?.stableAt ?? NaN) - (c?.detectedAt ?? NaN)
    }
    expect(waited('r-0.pdf')).toBeLessThan(stabilityMs / 2)
    expect(waited('fresh.pdf')).toBeGreaterThanOrEqual(stabilityMs - 1)

    // Network shares may report cached attributes: when polling, an old mtime proves nothing.
    const polled = await tempDir()
    await oldFiles(polled, 1)
    const p = makeWatcher(polled, { stabilityMs, usePolling: true, pollIntervalMs: 100 })
    await p.w.start()
    await p.rec.waitFor(() => p.rec.candidates.length === 1, 'the polled file')
    const c = p.rec.candidates[0]
    expect((c?.stableAt ?? NaN) - (c?.detectedAt ?? NaN)).toBeGreaterThanOrEqual(stabilityMs - 1)
  })
})
