/**
 * The native folder watcher (watch/native-folders.ts) on real temp folders: one fs.watch per
 * folder, the names it reports, folders that come and go below the root, ignored folders and links
 * left alone, and a folder full of receipts that it does not read again on every event (what made
 * chokidar's watcher fall behind in the soak).
 */
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises'
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { NativeFolders } from '../../src-main/core/watch/native-folders'

const open: NativeFolders[] = []
const dirs: string[] = []

afterEach(async () => {
  await Promise.all(open.splice(0).map((w) => w.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

async function tempDir(): Promise<string> {
  const d = fs.realpathSync(await mkdtemp(path.join(tmpdir(), 'bookdrop-native-')))
  dirs.push(d)
  return d
}

function watcher(root: string, recursive = true, ignored: (p: string) => boolean = () => false) {
  const w = new NativeFolders(root, { recursive, isIgnored: ignored })
  open.push(w)
  const raw: string[] = []
  const added: string[] = []
  const removed: string[] = []
  const errors: unknown[] = []
  w.on('raw', (_event: string, name: string, d: { watchedPath: string }) => raw.push(path.join(d.watchedPath, name)))
  w.on('addDir', (p: string) => added.push(p))
  w.on('unlinkDir', (p: string) => removed.push(p))
  w.on('error', (e: unknown) => errors.push(e))
  const ready = new Promise<void>((r) => w.once('ready', r))
  return { w, raw, added, removed, errors, ready }
}

async function until(cond: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('the native folder watcher', () => {
  it('names each file written in the folder or a folder below, including one made after it started', async () => {
    const root = await tempDir()
    await mkdir(path.join(root, 'march'))
    const t = watcher(root)
    await t.ready
    expect(t.w.folders).toBe(2)
    await writeFile(path.join(root, 'a.pdf'), 'x')
    await writeFile(path.join(root, 'march', 'b.pdf'), 'x')
    await until(() => t.raw.includes(path.join(root, 'a.pdf')) && t.raw.includes(path.join(root, 'march', 'b.pdf')), 'a.pdf and march/b.pdf')
    // A folder moved in with a folder inside it: both watched, then told (the engine walks it).
    const outside = await tempDir()
    await mkdir(path.join(outside, 'april', 'week1'), { recursive: true })
    await rename(path.join(outside, 'april'), path.join(root, 'april'))
    await until(() => t.added.includes(path.join(root, 'april')), 'april added')
    expect(t.w.folders).toBe(4)
    await writeFile(path.join(root, 'april', 'week1', 'c.pdf'), 'x')
    await until(() => t.raw.includes(path.join(root, 'april', 'week1', 'c.pdf')), 'april/week1/c.pdf')
    expect(t.errors).toEqual([])
  })

  it('tells when a folder below goes, and stops watching it and what was inside it', async () => {
    const root = await tempDir()
    await mkdir(path.join(root, 'old', 'deeper'), { recursive: true })
    const t = watcher(root)
    await t.ready
    expect(t.w.folders).toBe(3)
    await rm(path.join(root, 'old'), { recursive: true })
    await until(() => t.removed.includes(path.join(root, 'old')), 'old removed')
    await until(() => t.w.folders === 1, 'one folder left')
  })

  it('watches a folder deleted and made again at once under its name (the old watch saw the old folder)', async () => {
    const root = await tempDir()
    await mkdir(path.join(root, 'scans'))
    const t = watcher(root)
    await t.ready
    await rm(path.join(root, 'scans'), { recursive: true })
    await mkdir(path.join(root, 'scans'))
    await until(() => t.added.includes(path.join(root, 'scans')), 'scans watched again')
    await writeFile(path.join(root, 'scans', 'new.pdf'), 'x')
    await until(() => t.raw.includes(path.join(root, 'scans', 'new.pdf')), 'scans/new.pdf')
    expect(t.w.folders).toBe(2)
  })

  it('watches the folder alone when not recursive, and never an ignored folder or a link to a folder', async () => {
    const root = await tempDir()
    const elsewhere = await tempDir()
    await mkdir(path.join(root, 'sub'))
    await mkdir(path.join(root, 'node_modules'))
    await symlink(elsewhere, path.join(root, 'link'))
    const flat = watcher(root, false)
    await flat.ready
    expect(flat.w.folders).toBe(1)
    const deep = watcher(root, true, (p) => path.basename(p) === 'node_modules')
    await deep.ready
    expect(deep.w.folders).toBe(2) // the root and sub: not node_modules, not the link
    await writeFile(path.join(elsewhere, 'outside.pdf'), 'x')
    await writeFile(path.join(root, 'sub', 'in.pdf'), 'x')
    await until(() => deep.raw.includes(path.join(root, 'sub', 'in.pdf')), 'sub/in.pdf')
    expect(deep.raw.some((p) => p.endsWith('outside.pdf'))).toBe(false)
  })

  it('says why when the folder cannot be watched', async () => {
    const root = await tempDir()
    const t = watcher(path.join(root, 'missing'))
    await until(() => t.errors.length === 1, 'an error')
    expect((t.errors[0] as NodeJS.ErrnoException).code).toBe('ENOENT')
  })

  it('does not read a folder of 3,000 receipts again for each new one', async () => {
    const root = await tempDir()
    for (let i = 0; i < 3000; i++) await writeFile(path.join(root, `r${i}.pdf`), 'x')
    const t = watcher(root)
    await t.ready
    // Every lstat and readdir of the process, counted while 50 more files arrive.
    const calls = { lstat: 0, readdir: 0 }
    const promises = fs.promises as unknown as Record<'lstat' | 'readdir', (...a: unknown[]) => unknown>
    const orig = { lstat: promises.lstat, readdir: promises.readdir }
    try {
      for (const k of ['lstat', 'readdir'] as const) {
        promises[k] = (...a: unknown[]) => {
          calls[k]++
          return orig[k].apply(fs.promises, a)
        }
      }
      syncBuiltinESMExports() // the watcher's `import { lstat } from 'node:fs/promises'` sees the counters
      for (let i = 0; i < 50; i++) {
        await writeFile(path.join(root, `new${i}.pdf`), 'x')
        await new Promise((r) => setTimeout(r, 5))
      }
      await until(() => t.raw.includes(path.join(root, 'new49.pdf')), 'new49.pdf')
    } finally {
      promises.lstat = orig.lstat
      promises.readdir = orig.readdir
      syncBuiltinESMExports()
    }
    // At most one lstat per reported name (to learn whether it is a folder), no readdir at all.
    expect(calls.readdir).toBe(0)
    expect(calls.lstat).toBeLessThanOrEqual(50 * 2)
  })
})
