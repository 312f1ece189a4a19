/**
 * Issue 21, "a real folder": folders as people have them (a scanner's output folder, a synced
 * folder reached through a link, many files of one name), through the real engine, real files,
 * links and child processes, and the emulator. Each case of the issue is a describe block below.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readdir, rename, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Db } from '../../src-main/core/store/db'
import { UploadStore } from '../../src-main/core/store/uploads'
import { documentBytes, paddedPdf, pdfBytes } from './documents'
import { PROFILE, createdBySha, creates, receipt, useRigs, waitFor } from './helpers'

const rig = useRigs()
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

const extra: string[] = []
afterEach(async () => {
  for (const d of extra.splice(0)) await rm(d, { recursive: true, force: true })
})
async function outsideDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'bookdrop-outside-'))
  extra.push(d)
  return d
}

async function watching(r: Awaited<ReturnType<typeof rig>>, id?: string): Promise<void> {
  await waitFor('watching', () => r.engine.listFolders().find((f) => (!id || f.id === id) && f.state === 'watching'))
}

/** Adds the rig's inbox as a folder sending expenses, and waits until it is watched; the rig. */
async function watchInbox(r: Awaited<ReturnType<typeof rig>>): Promise<typeof r> {
  await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
  await watching(r)
  return r
}

/** Watches the rig's inbox with uploads paused and puts receipt `name` there: its row waits, queued. */
async function queuedReceipt(r: Awaited<ReturnType<typeof rig>>, name: string) {
  await watchInbox(r)
  r.engine.pause(PROFILE)
  const f = await receipt(r.inbox, name)
  const row = await waitFor('queued', () => r.engine.history().rows.find((x) => x.status === 'queued'))
  return { f, row }
}

describe('1. only what the user put there: links out of the folder are never read', () => {
  it('a link to a file outside the folder, there at start or made while watching, gets a row with the reason and is never sent', async () => {
    const r = await rig()
    const outside = await outsideDir()
    const key = pdfBytes('-----BEGIN OPENSSH PRIVATE KEY----- not a receipt')
    const notes = Buffer.from('my private notes\n')
    await writeFile(join(outside, 'id_rsa.pdf'), key)
    await writeFile(join(outside, 'notes.txt'), notes)
    await symlink(join(outside, 'id_rsa.pdf'), join(r.inbox, 'id_rsa.pdf'))
    // A link that stays inside the folder is fine.
    await mkdir(join(r.inbox, 'sub'))
    const inside = await receipt(join(r.inbox, 'sub'), 'real.pdf')
    await symlink(join(r.inbox, 'sub', 'real.pdf'), join(r.inbox, 'alias.pdf'))

    await watchInbox(r)
    await symlink(join(outside, 'notes.txt'), join(r.inbox, 'notes.txt'))
    await waitFor('both links recorded', () => r.engine.history().rows.filter((x) => x.reason === 'outside_folder').length === 2)
    await r.engine.whenIdle()

    const rows = r.engine.history().rows
    for (const name of ['id_rsa.pdf', 'notes.txt']) {
      const row = rows.find((x) => x.name === name)
      expect(row, name).toMatchObject({ status: 'skipped', reason: 'outside_folder' })
      expect(row!.lastError).toMatch(/^A link to a file outside the watched folder .*; not sent\./)
      expect(row!.sha256).toBeNull() // never read
    }
    const made = await createdBySha(r.sb)
    expect(made.get(sha(key))).toBeUndefined()
    expect(made.get(sha(notes))).toBeUndefined()
    // The file inside was sent once (through its own name or the link to it, not twice).
    expect(made.get(inside.sha256)).toBe(1)
    // The files outside are still there, untouched.
    expect(await readFile(join(outside, 'id_rsa.pdf'))).toEqual(key)
  })

  it('checked where the file is opened: a queued file replaced by a link out of the folder is not sent', async () => {
    const r = await rig()
    const outside = await outsideDir()
    const { f, row } = await queuedReceipt(r, 'a.pdf')
    // The very same file moved out of the folder, and a link to it left in its place: same bytes,
    // same size and mtime, but its real path is outside now.
    await rename(f.path, join(outside, 'a.pdf'))
    await symlink(join(outside, 'a.pdf'), f.path)
    r.engine.resume(PROFILE)
    await waitFor('skipped', () => r.engine.uploads.get(row.id)?.status === 'skipped')
    await r.engine.whenIdle()
    expect(r.engine.uploads.get(row.id)).toMatchObject({ status: 'skipped', reason: 'outside_folder' })
    expect(await creates(r.sb)).toEqual([])
  })
})

describe('2. a move never replaces a file', () => {
  it('42 files named scan.pdf in sub-folders, finishing at once, with after-upload move: every original survives, each row names its own destination', async () => {
    const N = 42
    const r = await rig({ fixtures: undefined })
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses', recursive: true, afterUpload: 'move' })
    await watching(r)
    const contents = new Map<string, Buffer>()
    for (let i = 0; i < N; i++) await mkdir(join(r.inbox, `batch-${i}`))
    // All at once.
    await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const body = documentBytes('scan.pdf', `Scan ${i} of a receipt batch\nTotal: ${i}.00`)
        contents.set(sha(body), body)
        await writeFile(join(r.inbox, `batch-${i}`, 'scan.pdf'), body)
      }),
    )
    await waitFor(
      'all moved',
      () => {
        const rows = r.engine.history({ limit: 1000 }).rows
        return rows.length === N && rows.every((x) => x.status === 'completed' && x.movedTo !== null)
      },
      60_000,
    )
    const rows = r.engine.history({ limit: 1000 }).rows
    const dests = rows.map((x) => x.movedTo!)
    expect(new Set(dests).size).toBe(N) // no two rows name one destination
    const uploaded = await readdir(join(r.inbox, 'Uploaded'))
    expect(uploaded).toHaveLength(N) // every original survived
    for (const row of rows) {
      // Each destination holds the very content its row sent.
      expect(sha(await readFile(row.movedTo!)), row.movedTo!).toBe(row.sha256)
    }
    expect(new Set(rows.map((x) => x.sha256))).toEqual(new Set(contents.keys()))
    const made = await createdBySha(r.sb)
    expect([...contents.keys()].map((k) => made.get(k))).toEqual(Array(N).fill(1))
  }, 90_000)

  it("8. Uploaded/ is left out only where files are moved to: with 'leave', a person's own Uploaded folder is watched", async () => {
    const r = await rig()
    await mkdir(join(r.inbox, 'Uploaded'))
    const f = await receipt(join(r.inbox, 'Uploaded'), 'mine.pdf')
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses', recursive: true, afterUpload: 'leave' })
    await waitFor('sent', () => r.engine.history().rows.find((x) => x.name === 'mine.pdf' && x.status === 'completed'))
    expect((await createdBySha(r.sb)).get(f.sha256)).toBe(1)
  })
})

describe('3. a renamed receipt follows its row', () => {
  it('renamed while it waits: the queued row takes the new name and is sent once; nothing is called a duplicate', async () => {
    const r = await rig()
    const { f, row } = await queuedReceipt(r, 'scan-0001.pdf')
    await rename(f.path, join(r.inbox, 'Lunch at Mama Put.pdf'))
    await waitFor('the row follows the file', () => r.engine.uploads.get(row.id)?.name === 'Lunch at Mama Put.pdf')
    r.engine.resume(PROFILE)
    await waitFor('completed', () => r.engine.uploads.get(row.id)?.status === 'completed')
    await r.engine.whenIdle()
    const rows = r.engine.history().rows
    expect(rows, JSON.stringify(rows.map((x) => [x.id, x.name, x.status, x.reason, x.lastError]))).toHaveLength(1)
    expect(rows[0]).toMatchObject({ id: row.id, status: 'completed', path: join(r.inbox, 'Lunch at Mama Put.pdf') })
    expect((await createdBySha(r.sb)).get(f.sha256)).toBe(1)
  })

  it('renamed while the app was stopped: after a restart the row follows the file and it is sent once', async () => {
    const r = await rig()
    const { f, row } = await queuedReceipt(r, 'scan-0002.pdf')
    await r.engine.close()
    await rename(f.path, join(r.inbox, 'renamed.pdf'))
    await r.reopen()
    await waitFor('completed', () => r.engine.uploads.get(row.id)?.status === 'completed', 20_000)
    await r.engine.whenIdle()
    expect(r.engine.history().rows.map((x) => [x.id, x.name, x.status])).toEqual([[row.id, 'renamed.pdf', 'completed']])
    expect((await createdBySha(r.sb)).get(f.sha256)).toBe(1)
  })

  it('a duplicate left by an earlier run whose original never got sent is queued in its place at the next start', async () => {
    const r = await rig()
    const f = await receipt(r.inbox, 'renamed.pdf')
    const st = await stat(f.path)
    await r.engine.close()
    // What the old rule left behind: the original ended "vanished" unsent, the renamed file a duplicate of it.
    const db = new Db(join(r.dataDir, 'bookdrop.db'))
    const store = new UploadStore(db)
    const base = { profileId: PROFILE, target: 'expenses' as const, source: 'watch' as const, prompt: 'Record an expense', sha256: f.sha256 }
    const original = store.insert({ ...base, path: join(r.inbox, 'scan.pdf'), name: 'scan.pdf', status: 'queued', size: st.size, mtimeMs: Math.floor(st.mtimeMs) })
    store.transition(original, 'queued', 'uploading', { attempts: 1 })
    store.transition(original.id, 'uploading', 'skipped', { reason: 'vanished', lastError: 'gone' })
    const dup = store.insert({
      ...base,
      path: f.path,
      name: 'renamed.pdf',
      status: 'duplicate',
      size: st.size,
      mtimeMs: Math.floor(st.mtimeMs),
      duplicateOf: original.id,
      lastError: 'Same content as scan.pdf, already sent',
    })
    db.close()
    await r.reopen()
    await waitFor('sent in its place', () => r.engine.uploads.get(dup.id)?.status === 'completed', 20_000)
    expect(r.engine.uploads.get(dup.id)!.note).toMatch(/^Sent in place of scan\.pdf \(upload #\d+\), which was not sent\.$/)
    expect((await createdBySha(r.sb)).get(f.sha256)).toBe(1)
  })

  it('a copy of content still on its way is not sent twice, and goes in its place when the first is not sent', async () => {
    const r = await rig()
    const body = documentBytes('a.pdf', 'One receipt, two copies')
    r.engine.pause(PROFILE)
    await writeFile(join(r.inbox, 'a.pdf'), body)
    await writeFile(join(r.inbox, 'b.pdf'), body)
    const [a] = await r.engine.addFiles([join(r.inbox, 'a.pdf')], { profileId: PROFILE, target: 'expenses' })
    const [b] = await r.engine.addFiles([join(r.inbox, 'b.pdf')], { profileId: PROFILE, target: 'expenses' })
    expect(a?.kind).toBe('queued')
    expect(b?.kind).toBe('duplicate')
    if (b?.kind !== 'duplicate') return
    expect(b.upload.lastError).toMatch(/on its way/)
    expect(b.upload.lastError).not.toMatch(/already sent/)
    // The first one's file is deleted before it is sent: it ends skipped, and the copy goes instead.
    await unlink(join(r.inbox, 'a.pdf'))
    r.engine.resume(PROFILE)
    await waitFor('the copy completed', () => r.engine.uploads.get(b.upload.id)?.status === 'completed')
    await r.engine.whenIdle()
    expect((await createdBySha(r.sb)).get(sha(body))).toBe(1)
  })
})

/** Runs the scanner child process (scripts/bench/page-writer.mjs) and resolves when it exits. */
function scanner(path: string, mode: 'keep-open' | 'append', pauses: number[]): Promise<string> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [resolve(import.meta.dirname, '../../scripts/bench/page-writer.mjs'), path, mode, pauses.join(',')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    p.stdout.on('data', (d: Buffer) => (out += d.toString()))
    p.on('exit', (code) => (code === 0 ? res(out) : rej(new Error(`page-writer exited ${code}: ${out}`))))
  })
}

describe('4. finished means finished: a scan written page by page is sent once', () => {
  it.runIf(process.platform === 'linux')(
    'kept open between pages (each page ending in %%EOF), with pauses up to 2 s: exactly one create, of the whole file',
    async () => {
      const r = await watchInbox(await rig())
      const path = join(r.inbox, 'scan.pdf')
      const out = await scanner(path, 'keep-open', [1000, 2000, 1500])
      expect(out).toContain('page 4')
      await waitFor('completed', () => r.engine.history().rows.find((x) => x.status === 'completed'))
      await r.engine.whenIdle()
      const whole = await readFile(path)
      const made = await createdBySha(r.sb)
      expect([...made.entries()]).toEqual([[sha(whole), 1]])
      expect(r.engine.history().rows.map((x) => [x.status, x.size])).toEqual([['completed', whole.length]])
    },
    30_000,
  )

  it('closed between pages, %%EOF only after the last one, pauses up to 2 s: exactly one create, of the whole file', async () => {
    const r = await watchInbox(await rig())
    const path = join(r.inbox, 'scan.pdf')
    await scanner(path, 'append', [2000, 1200, 800])
    await waitFor('completed', () => r.engine.history().rows.find((x) => x.status === 'completed'))
    await r.engine.whenIdle()
    const whole = await readFile(path)
    expect([...(await createdBySha(r.sb)).entries()]).toEqual([[sha(whole), 1]])
    expect(r.engine.history().total).toBe(1)
  }, 30_000)

  it('a PDF that never gets its end marker is sent once it stopped changing for long, with a note on its row', async () => {
    const r = await watchInbox(await rig({ engine: { watch: { unfinishedQuietMs: 1500 } } }))
    const cut = paddedPdf(30_000).subarray(0, 20_000) // a scan cut short: no %%EOF
    const t0 = Date.now()
    await writeFile(join(r.inbox, 'cut.pdf'), cut)
    const row = await waitFor('completed', () => r.engine.history().rows.find((x) => x.status === 'completed'), 15_000)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1400)
    expect(row.note).toMatch(/^Sent although it looked unfinished \(the %%EOF end marker was missing\): it had not changed for \d+ s\.$/)
    expect((await createdBySha(r.sb)).get(sha(cut))).toBe(1)
  })
})

describe('5. the bytes are what the name says', () => {
  it('a .pdf holding a ZIP archive or a program is skipped with the reason, sent only on "Send anyway"', async () => {
    const r = await rig()
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]), Buffer.alloc(200, 1)])
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(200, 0)])
    await writeFile(join(r.inbox, 'invoice.pdf'), zip)
    await writeFile(join(r.inbox, 'receipt.pdf'), exe)
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await waitFor('both skipped', () => r.engine.history().rows.filter((x) => x.status === 'skipped').length === 2)
    await r.engine.whenIdle()
    const rows = new Map(r.engine.history().rows.map((x) => [x.name, x]))
    expect(rows.get('invoice.pdf')).toMatchObject({ reason: 'mismatch' })
    expect(rows.get('invoice.pdf')!.lastError).toBe(
      'The file is named .pdf but holds a ZIP archive: it was not sent. Check the file, or choose "Send anyway".',
    )
    expect(rows.get('receipt.pdf')!.lastError).toMatch(/named \.pdf but holds a Windows program/)
    expect(await creates(r.sb)).toEqual([])
    // "Send anyway": the person's word overrides the check.
    await r.engine.retry(rows.get('invoice.pdf')!.id)
    await waitFor('sent anyway', () => r.engine.uploads.get(rows.get('invoice.pdf')!.id)?.status === 'completed')
    expect((await createdBySha(r.sb)).get(sha(zip))).toBe(1)
    expect(existsSync(join(r.inbox, 'receipt.pdf'))).toBe(true) // left where it was
  })
})

describe('6. every name the file system can hold', () => {
  it.runIf(process.platform === 'linux')(
    'a Latin-1 name (not UTF-8) is found, shown with its byte escaped, and sent',
    async () => {
      const r = await watchInbox(await rig())
      const body = documentBytes('q.pdf', 'Quittung Müller GmbH\nSumme: 12,40 EUR')
      // "Quittung-Müller.pdf" as an old Latin-1 share writes it: ü is the single byte 0xFC.
      const name = Buffer.concat([Buffer.from('Quittung-M'), Buffer.from([0xfc]), Buffer.from('ller.pdf')])
      await writeFile(Buffer.concat([Buffer.from(r.inbox + '/'), name]), body)
      const row = await waitFor('completed', () => r.engine.history().rows.find((x) => x.status === 'completed'))
      expect(row.name).toBe('Quittung-M\\xFCller.pdf')
      expect((await createdBySha(r.sb)).get(sha(body))).toBe(1)
      // The same at the next start: found by the initial scan as handled, not sent again.
      await r.reopen()
      await r.engine.rescan()
      await r.engine.whenIdle()
      expect(r.engine.history().total).toBe(1)
      expect((await createdBySha(r.sb)).get(sha(body))).toBe(1)
    },
  )
})

describe('7. a watched folder given as a link is watched live', () => {
  it('a folder reached through a symbolic link gets live events (no wait for the periodic rescan)', async () => {
    const r = await rig({ engine: { watch: { rescanIntervalMs: 120_000 } } })
    const synced = await outsideDir()
    const link = join(r.dir, 'Receipts')
    await symlink(synced, link)
    await r.engine.addFolder({ profileId: PROFILE, path: link, target: 'expenses' })
    await watching(r)
    const f = await receipt(synced, 'taxi.pdf')
    const row = await waitFor('sent', () => r.engine.history().rows.find((x) => x.status === 'completed'), 8_000)
    expect(row.name).toBe('taxi.pdf')
    expect((await createdBySha(r.sb)).get(f.sha256)).toBe(1)
  })
})
