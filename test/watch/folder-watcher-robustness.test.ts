/**
 * FolderWatcher robustness: a folder removed and recreated, a folder missing at start, symlink
 * loops, unreadable files, watcher errors (EMFILE → polling, EACCES), listeners that throw, and a
 * clean stop (no events, timers or watchers left; the process exits).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import {
  SETTLE_MS,
  cleanup,
  isRoot,
  leakableResources,
  makeWatcher,
  sleep,
  tempDir,
  watchedWith,
} from './helpers'
import type { WatchCandidate, WatchStatus } from '../../src-main/core/watch'
import { commandWorks } from '../commands'

afterEach(cleanup)

/** tsx's loader by absolute path: the child processes run from the temp folder. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

const canDropPrivileges = commandWorks('setpriv', ['--version'])

function run(cmd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: os.tmpdir() })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    child.on('error', reject)
    child.on('exit', (c) => {
      clearTimeout(killer)
      resolve({ code: c, out })
    })
  })
}

function errno(code: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code, ...extra })
}

describe('FolderWatcher: robustness', () => {
  it('reports a removed folder in plain words, and picks it up again when it is recreated', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir, { recursive: true })
    await w.start()
    await fs.writeFile(path.join(dir, 'before.pdf'), 'x')
    await rec.waitFor(() => rec.candidates.length === 1, 'before.pdf')

    await fs.rm(dir, { recursive: true })
    await rec.waitFor(() => rec.state === 'error', 'error status')
    expect(rec.statuses.at(-1)?.message).toBe(
      `Folder not found: ${dir} (removed or unmounted). Bookdrop will pick it up again when it comes back.`,
    )
    expect(w.status.state).toBe('error')

    await fs.mkdir(dir)
    await rec.waitFor(() => rec.state === 'watching', 'watching again')
    await fs.writeFile(path.join(dir, 'after.pdf'), 'y')
    await rec.waitFor(() => rec.named('after.pdf').length === 1, 'after.pdf')
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['after.pdf', 'before.pdf'])
  })

  it('finds files put in a recreated folder before the watcher came back (recovery rescan)', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir, { recoverInitialMs: 300, recoverMaxMs: 300 })
    await w.start()
    await fs.rm(dir, { recursive: true })
    await rec.waitFor(() => rec.state === 'error', 'error status')
    await fs.mkdir(dir)
    await fs.writeFile(path.join(dir, 'early.pdf'), 'x')
    await rec.waitFor(() => rec.named('early.pdf').length === 1, 'early.pdf')
    expect(rec.state).toBe('watching')
    expect(rec.candidates[0]?.source).toBe('scan')
  })

  it('starts on a missing folder without throwing, and watches it once it exists', async () => {
    const parent = await tempDir()
    const dir = path.join(parent, 'not-yet')
    const { w, rec } = makeWatcher(dir)
    await w.start()
    expect(rec.state).toBe('error')
    expect(w.status.message).toContain(`Folder not found: ${dir}`)
    await fs.mkdir(dir)
    await fs.writeFile(path.join(dir, 'first.pdf'), 'x')
    await rec.waitFor(() => rec.named('first.pdf').length === 1, 'first.pdf')
    expect(rec.state).toBe('watching')
  })

  it('treats a file where the folder should be as an error, not a crash', async () => {
    const parent = await tempDir()
    const dir = path.join(parent, 'is-a-file')
    await fs.writeFile(dir, 'not a folder')
    const { w, rec } = makeWatcher(dir)
    await w.start()
    expect(rec.state).toBe('error')
    expect(w.status.message).toBe(
      `${dir} is no longer a folder. Bookdrop will pick it up again when a folder is back at this path.`,
    )
  })

  it('does not hang or crash on symlink loops', async () => {
    const dir = await tempDir()
    await fs.mkdir(path.join(dir, 'sub'))
    await fs.symlink('.', path.join(dir, 'self'))
    await fs.symlink('..', path.join(dir, 'sub', 'up'))
    await fs.symlink(path.join(dir, 'b.pdf'), path.join(dir, 'a.pdf')) // a → b → a
    await fs.symlink(path.join(dir, 'a.pdf'), path.join(dir, 'b.pdf'))
    await fs.writeFile(path.join(dir, 'sub', 'target.pdf'), 'x')
    await fs.symlink(path.join(dir, 'sub', 'target.pdf'), path.join(dir, 'link-to-file.pdf'))
    const { w, rec } = makeWatcher(dir, { recursive: true })
    const started = Date.now()
    await w.start()
    expect(Date.now() - started).toBeLessThan(3_000)
    await w.rescan()
    await fs.writeFile(path.join(dir, 'sub', 'real.pdf'), 'y')
    await rec.waitFor(() => rec.named('real.pdf').length === 1, 'real.pdf')
    await w.rescan()
    await sleep(SETTLE_MS)
    // Loops are not files; a link to a file is reported at the link's path; nothing is doubled.
    expect(rec.names()).toEqual(['link-to-file.pdf', 'real.pdf', 'target.pdf'])
    expect(rec.state).toBe('watching')
  })

  // Root reads a chmod 000 file anyway, so as root this case is skipped; the next test re-runs it
  // as an unprivileged user when setpriv is available, and the injected-failure tests cover the rest.
  it.skipIf(isRoot)(
    'reports a file it cannot read (chmod 000) as unreadable, with the reason (skipped as root)',
    async () => {
      const dir = await tempDir()
      const file = path.join(dir, 'locked.pdf')
      await fs.writeFile(file, 'secret')
      await fs.chmod(file, 0o000)
      const { w, rec } = makeWatcher(dir)
      await w.start()
      await rec.waitFor(() => rec.candidates.length === 1, 'locked.pdf')
      expect(rec.candidates[0]).toMatchObject({ name: 'locked.pdf', unreadable: true, size: 6 })
      expect(rec.candidates[0]?.unreadableReason).toMatch(/Permission denied \(EACCES\)/)
    },
  )

  it.runIf(isRoot && canDropPrivileges)(
    'reports a chmod 000 file and an unreadable sub-folder, run as an unprivileged user (setpriv)',
    async () => {
      const script = fileURLToPath(new URL('./fixtures/unreadable.ts', import.meta.url))
      const { code, out } = await run('setpriv', [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        '--import',
        TSX_LOADER,
        script,
      ])
      expect(code, out).toBe(0)
      const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
        uid: number
        candidates: WatchCandidate[]
        statuses: WatchStatus[]
      }
      expect(result.uid).toBe(65534)
      const byName = Object.fromEntries(result.candidates.map((c) => [c.name, c]))
      expect(Object.keys(byName).sort()).toEqual(['locked.pdf', 'open.pdf'])
      expect(byName['locked.pdf']).toMatchObject({ unreadable: true, size: 6 })
      expect(byName['locked.pdf']?.unreadableReason).toMatch(/^Permission denied \(EACCES\)/)
      expect(byName['open.pdf']?.unreadable).toBe(false)
      expect(result.statuses.map((s) => s.message ?? '')).toContainEqual(
        expect.stringMatching(/^Permission denied \(EACCES\) reading .*private: /),
      )
    },
  )

  it('reports a file whose read access is refused as unreadable, with the reason (injected EACCES)', async () => {
    const dir = await tempDir()
    const locked = path.join(dir, 'locked.pdf')
    let refuse = true
    const { w, rec } = makeWatcher(
      dir,
      {},
      {
        fs: {
          access: async (p, mode) => {
            if (refuse && p === locked) throw errno('EACCES', `permission denied, access '${p}'`)
            return fs.access(p, mode)
          },
        },
      },
    )
    await fs.writeFile(locked, 'secret')
    await fs.writeFile(path.join(dir, 'fine.pdf'), 'ok')
    await w.start()
    await rec.waitFor(() => rec.candidates.length === 2, 'two candidates')
    expect(rec.named('fine.pdf')[0]?.unreadable).toBe(false)
    const c = rec.named('locked.pdf')[0]
    expect(c).toMatchObject({ unreadable: true, size: 6 })
    expect(c?.unreadableReason).toBe(
      "Permission denied (EACCES): Bookdrop can't read this file. Give your user read access and it will be picked up.",
    )
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.candidates).toHaveLength(2) // not reported again while still unreadable
    refuse = false // access granted: the same version is reported again, now readable
    await w.rescan()
    await rec.waitFor(() => rec.named('locked.pdf').length === 2, 'locked.pdf, readable now')
    expect(rec.named('locked.pdf')[1]?.unreadable).toBe(false)
  })

  it('reports a file that cannot even be stat-ed as unreadable (injected EACCES on stat)', async () => {
    const dir = await tempDir()
    const hidden = path.join(dir, 'nostat.pdf')
    const { w, rec } = makeWatcher(
      dir,
      {},
      {
        fs: {
          stat: async (p) => {
            if (p === hidden) throw errno('EACCES', `permission denied, stat '${p}'`)
            return fs.stat(p)
          },
        },
      },
    )
    await w.start()
    await fs.writeFile(hidden, 'x')
    await rec.waitFor(() => rec.candidates.length === 1, 'nostat.pdf')
    expect(rec.candidates[0]).toMatchObject({ name: 'nostat.pdf', unreadable: true, size: 0, mtimeMs: 0 })
    expect(rec.candidates[0]?.unreadableReason).toMatch(/^Permission denied \(EACCES\)/)
    await w.rescan()
    await sleep(SETTLE_MS)
    expect(rec.candidates).toHaveLength(1)
  })

  it('falls back to polling on EMFILE, says so, and keeps detecting files', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir, { pollIntervalMs: 100 })
    await w.start()
    expect(w.testHooks.isPolling()).toBe(false)
    w.testHooks.injectWatcherError(errno('EMFILE', 'too many open files, watch'))
    await rec.waitFor(() => rec.state === 'polling', 'polling status')
    expect(rec.statuses.at(-1)?.message).toBe('Too many open files (EMFILE): switched to polling.')
    expect(w.testHooks.isPolling()).toBe(true)
    await fs.writeFile(path.join(dir, 'after-fallback.pdf'), 'x')
    await rec.waitFor(() => rec.candidates.length === 1, 'after-fallback.pdf')
  })

  it('falls back to polling on ENOSPC (inotify watch limit)', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir, { pollIntervalMs: 100 })
    await w.start()
    w.testHooks.injectWatcherError(errno('ENOSPC', 'System limit for number of file watchers reached'))
    await rec.waitFor(() => rec.state === 'polling', 'polling status')
    expect(w.status.message).toBe(
      'The system limit on watched files was reached (ENOSPC): switched to polling.',
    )
  })

  it('shows a permission error on a sub-folder as error status, and clears it once a rescan is clean', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir, { recursive: true })
    await w.start()
    const sub = path.join(dir, 'private')
    w.testHooks.injectWatcherError(errno('EACCES', `permission denied, scandir '${sub}'`, { path: sub }))
    await rec.waitFor(() => rec.state === 'error', 'error status')
    expect(w.status.message).toBe(
      `Permission denied (EACCES) reading ${sub}: files there can't be seen until you give access. The rest of the folder is watched.`,
    )
    await fs.writeFile(path.join(dir, 'still-watched.pdf'), 'x') // the rest is still watched
    await rec.waitFor(() => rec.candidates.length === 1, 'still-watched.pdf')
    await w.rescan()
    expect(rec.state).toBe('watching')
  })

  it('reports an unreadable sub-folder found by a rescan (injected readdir EACCES)', async () => {
    const dir = await tempDir()
    const sub = path.join(dir, 'private')
    await fs.mkdir(sub)
    await fs.writeFile(path.join(sub, 'inside.pdf'), 'x')
    await fs.writeFile(path.join(dir, 'outside.pdf'), 'x')
    const { w, rec } = makeWatcher(
      dir,
      { recursive: true },
      {
        fs: {
          readdir: async (p) => {
            if (p === sub) throw errno('EACCES', `permission denied, scandir '${p}'`)
            return fs.readdir(p, { withFileTypes: true })
          },
        },
      },
    )
    await w.start()
    expect(rec.state).toBe('error')
    expect(w.status.message).toMatch(/^Permission denied \(EACCES\) reading .*private: /)
    await rec.waitFor(() => rec.named('outside.pdf').length === 1, 'outside.pdf')
  })

  it('keeps going when a listener throws', async () => {
    const dir = await tempDir()
    const { w, rec } = makeWatcher(dir)
    const warnings: string[] = []
    const onWarning = (wr: Error): void => void warnings.push(wr.message)
    process.on('warning', onWarning)
    try {
      let first = true
      w.on('candidate', () => {
        if (first) {
          first = false
          throw new Error('listener bug')
        }
      })
      await w.start()
      await fs.writeFile(path.join(dir, 'one.pdf'), 'x')
      await rec.waitFor(() => rec.candidates.length === 1, 'one.pdf')
      await fs.writeFile(path.join(dir, 'two.pdf'), 'x')
      await rec.waitFor(() => rec.candidates.length === 2, 'two.pdf')
      await rec.waitFor(() => warnings.some((m) => m.includes('listener bug')), 'a process warning')
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('stop() emits no events afterwards and leaves no timers or watchers behind', async () => {
    const dir = await tempDir()
    await fs.mkdir(path.join(dir, 'sub'))
    const before = leakableResources()
    const { w, rec } = makeWatcher(dir, { recursive: true, rescanIntervalMs: 100 })
    await w.start()
    await fs.writeFile(path.join(dir, 'sub', 'pending.pdf'), 'x') // pending (timers) when we stop
    await sleep(40)
    await w.stop()
    expect(rec.state).toBe('stopped')
    const count = rec.log.length
    await fs.writeFile(path.join(dir, 'after-stop.pdf'), 'x')
    await sleep(SETTLE_MS)
    expect(rec.log.length).toBe(count)
    expect(w.testHooks.counts()).toEqual({ pending: 0, emitted: expect.any(Number) as number, checking: 0 })
    // fs.watch handles close asynchronously: give them a moment.
    await rec.waitFor(
      () => {
        const now = leakableResources()
        return Object.keys(before).every((k) => (now[k] ?? 0) <= (before[k] ?? 0))
      },
      `no leaked resources (before ${JSON.stringify(before)}, now ${JSON.stringify(leakableResources())})`,
    )
    await w.stop() // idempotent
    await w.rescan() // a no-op once stopped
  })

  it('can be started again after stop() and does not repeat what it reported', async () => {
    const { dir, w, rec } = await watchedWith({ 'a.pdf': 'x' })
    await w.stop()
    await w.start()
    await fs.writeFile(path.join(dir, 'b.pdf'), 'y')
    await rec.waitFor(() => rec.candidates.length === 2, 'b.pdf')
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['a.pdf', 'b.pdf'])
  })

  it('stopped while its folder was missing, starts again cleanly once the folder is back', async () => {
    const parent = await tempDir()
    const dir = path.join(parent, 'later')
    const before = leakableResources()
    const { w, rec } = makeWatcher(dir, { recoverInitialMs: 5_000, recoverMaxMs: 5_000 })
    await w.start()
    expect(rec.state).toBe('error')
    await w.stop()
    expect(rec.state).toBe('stopped')
    await fs.mkdir(dir)
    await fs.writeFile(path.join(dir, 'there.pdf'), 'x')
    await w.start() // the old "lost" state must not outlive the stop (no recovery wait of 5 s)
    expect(rec.state).toBe('watching')
    await rec.waitFor(() => rec.named('there.pdf').length === 1, 'there.pdf', 2_000)
    await fs.writeFile(path.join(dir, 'live.pdf'), 'y')
    await rec.waitFor(() => rec.named('live.pdf').length === 1, 'live.pdf', 2_000)
    await sleep(SETTLE_MS)
    expect(rec.names()).toEqual(['live.pdf', 'there.pdf'])
    // One chokidar watcher was opened for the second run, and stop() closes it: none is left over.
    await w.stop()
    await rec.waitFor(
      () => Object.keys(before).every((k) => (leakableResources()[k] ?? 0) <= (before[k] ?? 0)),
      `no watcher left open (before ${JSON.stringify(before)}, now ${JSON.stringify(leakableResources())})`,
    )
  })

  it('stop() ends a walk held back by a slow consumer, and no file of it is reported later', async () => {
    const dir = await tempDir()
    for (let i = 0; i < 300; i++) await fs.writeFile(path.join(dir, `r${i}.pdf`), 'x')
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    let gateCalls = 0
    // The consumer takes one batch, then holds the walk back until released.
    const { w, rec } = makeWatcher(dir, { scanGate: () => (++gateCalls > 1 ? gate : undefined) })
    const started = w.start()
    await rec.waitFor(() => gateCalls > 1, 'the walk waiting at the gate')
    const stopped = Date.now()
    await w.stop()
    expect(Date.now() - stopped).toBeLessThan(2_000)
    const seen = rec.candidates.length
    expect(seen).toBeLessThanOrEqual(64)
    release()
    await started
    await sleep(SETTLE_MS)
    expect(rec.candidates.length).toBe(seen)
    expect(w.busy()).toBe(false)
  })

  it('lets the process exit after stop() (nothing keeps the event loop alive)', async () => {
    const dir = await tempDir()
    const script = fileURLToPath(new URL('./fixtures/start-stop.ts', import.meta.url))
    const started = Date.now()
    const { code, out } = await run(process.execPath, ['--import', TSX_LOADER, script, dir])
    expect(out).toContain('stopped')
    expect(code).toBe(0)
    expect(Date.now() - started).toBeLessThan(15_000)
  })
})
