/**
 * The receipt's life under the things that go wrong, each with real parts (the emulator over HTTP,
 * real files, SQLite, a real full file system): a file overwritten while it waits, a job that never
 * finishes, malformed and missing poll answers, a disk that fills, a clock that goes back, a file
 * that is empty at first and one that is too large at first.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, openSync, writeSync } from 'node:fs'
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { wordCoded } from '../../contract/i18n/all'
import type { Coded } from '../../contract/message'
import { COMPLETION_NOT_REPORTED_CODE } from '../../schemas'
import { jobTimedOut } from '../../src-main/core/queue/outcomes'
import { PROFILE, type Rig, createdBySha, receipt, rig, waitFor } from './helpers'

let r: Rig | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
})

const drop = (paths: string[]) => r!.engine.addFiles(paths, { profileId: PROFILE, target: 'expenses' })
const rowsOf = (name: string) => r!.engine.history({ search: name, order: 'asc' }).rows.filter((u) => u.name === name)
const sha = (s: string) => execFileSync('sha256sum', { input: s }).toString().split(' ')[0]!

describe('a file that changes before it is sent', () => {
  it('same size and mtime, other bytes: superseded, the new content created once, the first never', async () => {
    r = await rig()
    const first = 'Receipt\nVendor: Flour Mills\nTotal: NGN 1200.00\n'
    const second = 'Receipt\nVendor: Sugar Depot\nTotal: NGN 3400.00\n'
    expect(first.length).toBe(second.length)
    const path = join(r.inbox, 'overwritten.txt')
    await writeFile(path, first)
    r.engine.pause(PROFILE) // it waits in the queue
    expect((await drop([path]))[0]!.kind).toBe('queued')
    const before = await stat(path)
    await writeFile(path, second)
    await utimes(path, before.atime, before.mtime) // the size and mtime say nothing changed
    r.engine.resume(PROFILE)
    await waitFor('two rows, one completed', () => rowsOf('overwritten.txt').some((u) => u.status === 'completed'))
    await r.engine.whenIdle()
    const rows = rowsOf('overwritten.txt')
    expect(rows.map((u) => u.status)).toEqual(['superseded', 'completed'])
    expect(rows[0]!.lastError).toBe('Changed on disk before it was sent; the new version is queued.')
    expect(rows[1]!.sha256).toBe(sha(second))
    const made = await createdBySha(r.sb)
    expect(made.get(sha(second))).toBe(1)
    expect(made.get(sha(first))).toBeUndefined()
  })

  it('another size: superseded before anything is sent, and the new version goes on', async () => {
    r = await rig()
    const path = join(r.inbox, 'grown.txt')
    await writeFile(path, 'Receipt\nTotal: NGN 100.00\n')
    r.engine.pause(PROFILE)
    await drop([path])
    await new Promise((s) => setTimeout(s, 20))
    await writeFile(path, 'Receipt\nVendor: Bakery Supplies\nTotal: NGN 1000.00\nPaid with card\n')
    const requestsBefore = r.sb.state.requests
    r.engine.resume(PROFILE)
    await waitFor('the new version completed', () => rowsOf('grown.txt').some((u) => u.status === 'completed'))
    await r.engine.whenIdle()
    expect(rowsOf('grown.txt').map((u) => u.status)).toEqual(['superseded', 'completed'])
    const made = await createdBySha(r.sb)
    expect([...made.values()]).toEqual([1])
    // One create of the new version and its polls; the superseded row sent nothing.
    const creates = r.seen.filter((s) => s.method === 'POST')
    expect(creates).toHaveLength(1)
    expect(r.sb.state.requests - requestsBefore).toBe(r.seen.length)
  })
})

describe('jobs', () => {
  it('a job that never finishes is given up after the deadline, with a reason naming the wait', async () => {
    r = await rig({ engine: { queue: { jobTimeoutMs: 1500 } } })
    r.sb.setFaults({ stall_jobs: true })
    const f = await receipt(r.inbox, 'stuck.txt')
    await drop([f.path])
    await r.engine.whenIdle() // returns: the deadline ends the wait
    const [row] = rowsOf('stuck.txt')
    expect(row).toMatchObject({ status: 'failed', errorCode: 'job_timeout' })
    expect(row!.lastError).toMatch(/had not finished job job_\S+ after 2 seconds \(Settings, "Give up on a job after"\)/)

    // Stored with its code (read back from the database): the reason reads in German, naming the
    // job and the wait; a deadline in hours words its hours.
    expect(row!.lastErrorCoded).toMatchObject({ code: 'errors.job_timeout', params: { job: row!.jobReference, seconds: 2 } })
    expect(wordCoded(row!.lastErrorCoded!, 'de')).toBe(
      `Der Server hatte Auftrag ${row!.jobReference} nach 2 Sekunden noch nicht abgeschlossen (Einstellungen, „Auftrag aufgeben nach“), ` +
        'daher wartet Bookdrop nicht länger. Der Datensatz kann noch auf dem Server erscheinen; „Erneut versuchen“ verfolgt den Auftrag wieder.',
    )
    const patch = (jobTimedOut(row!, 3 * 3_600_000) as { patch: { lastError: Coded } }).patch
    expect(patch.lastError.text).toMatch(/ after 3 hours \(Settings/)
    expect(wordCoded(patch.lastError, 'de')).toMatch(/ nach 3 Stunden noch nicht abgeschlossen/)
  })

  it('a malformed 200 answer to a poll does not fail the file: it is asked again', async () => {
    r = await rig()
    r.sb.setFaults({ paths: ['/jobs/'], malformed_next: 2 })
    const f = await receipt(r.inbox, 'odd-answer.txt')
    await drop([f.path])
    await r.engine.whenIdle()
    expect(rowsOf('odd-answer.txt')[0]).toMatchObject({ status: 'completed' })
    expect(r.sb.state.faults.malformed_next).toBe(0) // both malformed answers were really given
    expect((await createdBySha(r.sb)).get(f.sha256)).toBe(1)
  })

  it('5xx and dropped polls are asked again; a 404 for a job younger than a minute too', async () => {
    r = await rig()
    r.sb.setFaults({ paths: ['/jobs/'], fail_next: 2, drop_next: 1, not_found_next: 2 })
    const f = await receipt(r.inbox, 'patient.txt')
    await drop([f.path])
    await r.engine.whenIdle()
    expect(rowsOf('patient.txt')[0]).toMatchObject({ status: 'completed' })
    expect(r.sb.state.faults).toMatchObject({ fail_next: 0, drop_next: 0, not_found_next: 0 })
  })

  it('a 404 for a job past its grace period: sent, the server did not report completion, naming the job (never a second create)', async () => {
    r = await rig({ engine: { queue: { jobNotFoundGraceMs: 0 } } })
    r.sb.setFaults({ paths: ['/jobs/'], not_found_next: 1 })
    const f = await receipt(r.inbox, 'unknown-job.txt')
    await drop([f.path])
    await r.engine.whenIdle()
    expect(rowsOf('unknown-job.txt')[0]).toMatchObject({
      status: 'completed',
      recordUuid: null,
      errorCode: COMPLETION_NOT_REPORTED_CODE,
      httpStatus: 404,
    })
    expect(rowsOf('unknown-job.txt')[0]!.lastError).toMatch(/^Sent; the server did not report completion.*does not know job job_/)
    await waitFor('the record on the server', async () => (await createdBySha(r!.sb)).get(f.sha256) === 1)
  })
})

describe('the clock', () => {
  it('going back an hour does not leave a waiting retry waiting an hour', async () => {
    let offset = 0
    r = await rig({ engine: { queue: { now: () => Date.now() + offset, retry: { baseMs: 500, capMs: 500 } } } })
    r.sb.setFaults({ paths: ['/expenses'], fail_next: 1 })
    const f = await receipt(r.inbox, 'clock.txt')
    await drop([f.path])
    await waitFor('waiting to retry', () => rowsOf('clock.txt')[0]?.status === 'waiting_retry')
    offset = -60 * 60_000
    r.engine.kick()
    await waitFor('completed', () => rowsOf('clock.txt')[0]?.status === 'completed', 10_000)
  })
})

describe('files skipped at first', () => {
  it('empty past the stability window, then written: one row, which goes on and completes', async () => {
    r = await rig()
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    const path = join(r.inbox, 'late.txt')
    await writeFile(path, '')
    await waitFor('skipped as empty', () => rowsOf('late.txt')[0]?.reason === 'empty')
    await writeFile(path, 'Receipt\nVendor: Late Bakery\nTotal: NGN 900.00\n')
    await waitFor('completed', () => rowsOf('late.txt')[0]?.status === 'completed')
    expect(rowsOf('late.txt')).toHaveLength(1)
  })

  it('too large for the limit, then the limit raised: the next rescan sends it, as the same row', async () => {
    r = await rig({ engine: { queue: { maxFileBytes: 64 } } })
    const folder = await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await receipt(r.inbox, 'big.txt', `Receipt\nVendor: Big Mill\nTotal: NGN 5000.00\n${'x'.repeat(200)}\n`)
    await waitFor('skipped as too large', () => rowsOf('big.txt')[0]?.reason === 'too_large')
    r.engine.applyQueueSettings({ maxFileBytes: 10_000 }) // what Settings does
    await r.engine.rescan()
    await waitFor('completed', () => rowsOf('big.txt')[0]?.status === 'completed')
    expect(rowsOf('big.txt')).toHaveLength(1)
    expect(folder.id).toBeTruthy()
  })
})

/** A real, tiny file system: tmpfs, which root can mount here. */
async function tinyDisk(bytes: number): Promise<{ path: string; fill(): void; free(): Promise<void>; unmount(): void } | null> {
  const path = await mkdtemp(join(tmpdir(), 'bookdrop-tinydisk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', path], { stdio: 'ignore' })
  } catch {
    await rm(path, { recursive: true, force: true })
    return null
  }
  const filler = join(path, 'filler')
  return {
    path,
    fill() {
      const fd = openSync(filler, 'w')
      const block = Buffer.alloc(4096, 1)
      try {
        for (;;) writeSync(fd, block)
      } catch {
        // ENOSPC: full
      } finally {
        closeSync(fd)
      }
    },
    async free() {
      await rm(filler, { force: true })
    },
    unmount() {
      execFileSync('umount', ['-l', path], { stdio: 'ignore' })
      execFileSync('rm', ['-rf', path])
    },
  }
}

describe('a disk that fills', () => {
  it('pauses every upload with the reason, marks nothing sent that was not, and resumes once a write succeeds', async () => {
    const disk = await tinyDisk(8 * 1024 * 1024)
    if (!disk) {
      if (process.env.CI === 'true') throw new Error('tmpfs could not be mounted: the disk-full test needs root (CI runs as root)')
      console.warn('disk-full test skipped: tmpfs cannot be mounted here (needs root)')
      return
    }
    try {
      const inbox = await mkdtemp(join(tmpdir(), 'bookdrop-fullin-'))
      const files = await Promise.all(Array.from({ length: 12 }, (_, i) => receipt(inbox, `f${i}.txt`)))
      r = await rig({ dataDir: join(disk.path, 'data') })
      const engine = r.engine
      const problems = r.events.storage.map((s) => s.problem)
      engine.events.on('storage', (s) => problems.push(s.problem))
      engine.pause(PROFILE)
      await engine.addFiles(files.map((f) => f.path), { profileId: PROFILE, target: 'expenses' })
      disk.fill()
      engine.resume(PROFILE)
      await waitFor('the queue pauses on the full disk', () => problems.length > 0, 15_000)
      expect(problems[0]).toMatch(/The disk is full|cannot write to its data folder/)
      expect(engine.storageProblem()).toBe(problems[0])
      await disk.free()
      await waitFor('uploads resume', () => problems.at(-1) === null, 40_000)
      await engine.whenIdle()
      const rows = engine.history({ limit: 100 }).rows
      expect(rows.filter((u) => u.status === 'completed')).toHaveLength(12)
      const made = await createdBySha(r.sb)
      for (const f of files) expect(made.get(f.sha256), f.path).toBe(1)
      await rm(inbox, { recursive: true, force: true })
    } finally {
      await r?.close().catch(() => undefined)
      r = undefined
      disk.unmount()
    }
  }, 90_000)
})

describe('two processes, one data folder', () => {
  it('the second engine on the same folder is refused, naming the first one', async () => {
    r = await rig()
    const { Engine } = await import('../../src-main/core/engine')
    const { providerFor } = await import('./helpers')
    await expect(Engine.open({ dataDir: r.dataDir, clients: providerFor(r.sb) })).rejects.toMatchObject({
      name: 'AlreadyRunningError',
      pid: process.pid,
    })
  })
})
