/**
 * Opening a file to send it (issue 31, items 4 and 5): an error that passes (too many open files,
 * a read error) makes the row wait and try again, while a lasting one ends it with its reason; and a
 * large file streams from the descriptor that was checked, so a link swapped in after the check is
 * never read. Real emulator over HTTP, real files and links, real SQLite.
 */
import { symlinkSync, unlinkSync } from 'node:fs'
import { type FileHandle, mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises'
import { type Server, type Socket, createServer, connect } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'
import type { InsideFs } from '../../src-main/core/watch/inside'
import { paddedPdf } from './documents'
import { PROFILE, createdBySha, fixtures, providerFor, receipt, useRigs, waitFor } from './helpers'

const rig = useRigs()
const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c()
})

/** An open() that fails with `code` (as the system says it) for the file named `name`, `times` times. */
function failingOpen(name: string, code: string, times = Infinity): InsideFs & { calls: () => number } {
  let calls = 0
  return {
    calls: () => calls,
    open: async (p: string | Buffer, flags: number): Promise<FileHandle> => {
      if (basename(p.toString()) === name && calls++ < times)
        throw Object.assign(new Error(`${code}: the system refused, open '${p.toString()}'`), { code, syscall: 'open' })
      return open(p, flags)
    },
  }
}

/**
 * A receipt the folder's watcher reports exactly once: moved in whole once the folder's first scan
 * has ended. Written in place, it can be reported twice (created, then written; or by the first
 * scan and by the watcher), and a report after a row was skipped as unreadable takes the file again
 * (it may be readable now): here only the fake open() refuses it, so it would be opened once more.
 */
async function reportedOnce(r: Awaited<ReturnType<typeof rig>>, name: string): Promise<void> {
  await r.engine.whenIdle()
  const outside = await receipt(dirname(r.inbox), name)
  await rename(outside.path, join(r.inbox, name))
}

describe('4. an error that passes while opening a file to send makes it wait, not skip', () => {
  it.each(['EMFILE', 'ENFILE', 'EIO'])('%s twice: the row waits, says so, then is sent once', async (code) => {
    const fs = failingOpen('a.pdf', code, 2)
    const r = await rig({ engine: { openForSend: fs } })
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    const f = await receipt(r.inbox, 'a.pdf')
    const done = await waitFor('sent', () => r.engine.history().rows.find((x) => x.status === 'completed'))
    expect(fs.calls()).toBe(3)
    const waits = r.events.upload.filter((e) => e.upload.status === 'waiting_retry').map((e) => e.upload)
    expect(waits).toHaveLength(2)
    expect(waits[0]!.lastError).toMatch(/^a\.pdf could not be opened \(.*\)\. This usually passes: Bookdrop tries again by itself\.$/)
    expect(done.reason).toBeNull()
    expect((await createdBySha(r.sb)).get(f.sha256)).toBe(1)
  })

  it('a read error that lasts ends the row as unreadable once the attempts are used, saying how often it was tried', async () => {
    const fs = failingOpen('a.pdf', 'EIO')
    const r = await rig({ engine: { openForSend: fs, queue: { maxAttempts: 3 } } })
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await reportedOnce(r, 'a.pdf')
    const row = await waitFor('skipped', () => r.engine.history().rows.find((x) => x.status === 'skipped'))
    expect(row.reason).toBe('unreadable')
    expect(row.lastError).toMatch(/^a\.pdf could not be opened \(the disk reported a read error, EIO\)\. Gave up after 3 tries; .* press Send anyway\.$/)
    expect(fs.calls()).toBe(3)
    expect((await createdBySha(r.sb)).size).toBe(0)
  })

  it.each([
    ['ENOENT', 'vanished', /was moved or deleted/],
    ['EACCES', 'unreadable', /could not be opened/],
  ] as const)('%s ends the row at once with its reason (%s)', async (code, reason, message) => {
    const fs = failingOpen('a.pdf', code)
    const r = await rig({ engine: { openForSend: fs } })
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await reportedOnce(r, 'a.pdf')
    const row = await waitFor('skipped', () => r.engine.history().rows.find((x) => x.status === 'skipped'))
    expect(row.reason).toBe(reason)
    expect(row.lastError).toMatch(message)
    expect(fs.calls()).toBe(1)
    expect(r.events.upload.some((e) => e.upload.status === 'waiting_retry')).toBe(false)
    expect((await createdBySha(r.sb)).size).toBe(0)
  })
})

/** A TCP relay in front of the emulator that keeps every byte the app sent it. */
async function recordingDoor(target: Sandbox): Promise<{ url: string; received: () => Buffer[] }> {
  const port = Number(new URL(target.origin).port)
  const streams: Buffer[][] = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const got: Buffer[] = []
    streams.push(got)
    const upstream = connect(port, '127.0.0.1')
    sockets.add(client).add(upstream)
    client.on('data', (d: Buffer) => got.push(Buffer.from(d)))
    client.pipe(upstream).pipe(client)
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
  })
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res))
  cleanup.push(async () => {
    for (const s of sockets) s.destroy()
    await new Promise((res) => server.close(res))
  })
  const { port: own } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${own}/v1`, received: () => streams.map((s) => Buffer.concat(s)) }
}

/** The attachment bytes in each create request that reached the door (as far as each got). */
function attachmentsSent(streams: Buffer[]): Buffer[] {
  const out: Buffer[] = []
  for (const s of streams) {
    const text = s.toString('latin1')
    let at = text.indexOf('"attachments":[')
    while (at >= 0) {
      const start = text.indexOf('"file":"', at) + '"file":"'.length
      const stop = text.indexOf('"', start)
      const b64 = text.slice(start, stop < 0 ? text.length : stop)
      out.push(Buffer.from(b64.slice(0, b64.length - (b64.length % 4)), 'base64'))
      at = text.indexOf('"attachments":[', start)
    }
  }
  return out
}

describe('5. a large file streams from the descriptor that was checked', () => {
  it('its path swapped for a link out of the folder after the check (no /proc): the checked bytes are sent, never the outside file', async () => {
    const sb = await startSandbox({ fixtures: fixtures(), port: 0 })
    cleanup.push(() => sb.stop())
    const door = await recordingDoor(sb)
    const outside = await mkdtemp(join(tmpdir(), 'bookdrop-outside-'))
    cleanup.push(() => rm(outside, { recursive: true, force: true }))
    // Past the in-memory body limit (2 MiB), so it streams. The file outside has the same size.
    const size = 3 * 1024 * 1024
    const mine = paddedPdf(size, 0x20)
    const secret = paddedPdf(size, 0x53)
    await writeFile(join(outside, 'secret.pdf'), secret)
    const r = await rig({
      sandbox: sb,
      clients: providerFor({ ...sb, url: door.url }),
      engine: { openForSend: { procFd: null } },
    })
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    // The first body bytes are on their way: the receipt's name now leads out of the folder.
    let swapped = false
    const path = join(r.inbox, 'big.pdf')
    r.engine.events.on('progress', () => {
      if (swapped) return
      swapped = true
      unlinkSync(path)
      symlinkSync(join(outside, 'secret.pdf'), path)
    })
    const f = await receipt(r.inbox, 'big.pdf', mine)
    const ended = ['completed', 'failed', 'skipped']
    await waitFor('an end', () => r.engine.history().rows.find((x) => x.name === 'big.pdf' && ended.includes(x.status)), 20_000)
    await r.engine.whenIdle()
    expect(swapped).toBe(true)
    const sent = attachmentsSent(door.received())
    expect(sent.length).toBeGreaterThan(0)
    for (const bytes of sent) {
      expect(bytes.length).toBeGreaterThan(0)
      expect(bytes.includes(secret.subarray(1024, 2048)), "the outside file's bytes left").toBe(false)
      expect(bytes.equals(mine.subarray(0, bytes.length)), 'the bytes that left are the checked file').toBe(true)
    }
    const made = await createdBySha(sb)
    expect(made.get(f.sha256)).toBe(1)
    expect(made.size).toBe(1)
    // The row of the checked file is done; the link now in its place is a row of its own, not sent.
    const rows = r.engine.history().rows.filter((x) => x.name === 'big.pdf')
    expect(rows.find((x) => x.status === 'completed')).toMatchObject({ sha256: f.sha256 })
    for (const x of rows.filter((x) => x.status !== 'completed')) expect(x).toMatchObject({ status: 'skipped', reason: 'outside_folder' })
  }, 60_000)
})
