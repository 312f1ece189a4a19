/**
 * Watched folders through the engine: real temp folders, real chokidar, real SQLite, the emulator.
 */
import { existsSync } from 'node:fs'
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { wordCoded } from '../../contract/i18n/all'
import { PROFILE, createdBySha, receipt, useRigs, waitFor } from './helpers'
import { paddedPdf } from './documents'

const rig = useRigs()

describe('watched folders', () => {
  it('a receipt saved into a watched folder is uploaded once, then moved into Uploaded/', async () => {
    const r = await rig()
    const folder = await r.engine.addFolder({
      profileId: PROFILE,
      path: r.inbox,
      target: 'expenses',
      afterUpload: 'move',
    })
    await waitFor('watching', () =>
      r.engine.listFolders().find((f) => f.id === folder.id && f.state === 'watching'),
    )
    const f = await receipt(r.inbox, 'lunch.txt')
    const row = await waitFor('completed and moved', () => {
      const x = r.engine.history().rows[0]
      return x && x.status === 'completed' && x.movedTo ? x : undefined
    })
    expect(row.movedTo).toBe(join(r.inbox, 'Uploaded', 'lunch.txt'))
    expect(existsSync(f.path)).toBe(false)
    expect(existsSync(row.movedTo!)).toBe(true)
    expect(row.prompt).toContain('lunch.txt')
    expect(row.folderId).toBe(folder.id)
    // The moved file is not picked up again from Uploaded/.
    await r.engine.rescan()
    await r.engine.whenIdle()
    expect(r.engine.history().total).toBe(1)
    expect((await createdBySha(r.sb)).get(f.sha256)).toBe(1)
  })

  it('files already there are taken on first add only when asked; files added while closed are picked up after a restart', async () => {
    const r = await rig()
    await receipt(r.inbox, 'old.txt')
    // mtime in the past, so "already there" is unambiguous
    await new Promise((s) => setTimeout(s, 20))
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses', takeExisting: false })
    await r.engine.whenIdle()
    expect(r.engine.history().total).toBe(0)

    await r.engine.close()
    const added = await receipt(r.inbox, 'while-closed.txt')
    await r.reopen()
    await waitFor('the file added while closed', () =>
      r.engine.history().rows.find((x) => x.name === 'while-closed.txt' && x.status === 'completed'),
    )
    await r.engine.whenIdle()
    expect(r.engine.history().rows.map((x) => x.name)).toEqual(['while-closed.txt'])
    expect((await createdBySha(r.sb)).get(added.sha256)).toBe(1)
  })

  it('after a restart nothing already handled is uploaded again (left in place)', async () => {
    const r = await rig()
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    const files = await Promise.all(['a.txt', 'b.txt'].map((n) => receipt(r.inbox, n)))
    await waitFor('two completed', () => r.engine.uploads.countByStatus().completed === 2)
    await r.reopen()
    await r.engine.rescan()
    await r.engine.whenIdle()
    expect(r.engine.history().total).toBe(2)
    const made = await createdBySha(r.sb)
    for (const f of files) expect(made.get(f.sha256)).toBe(1)
  })

  it('renames and atomic saves upload once (same content is a duplicate, not a second create)', async () => {
    const r = await rig()
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await waitFor('watching', () => r.engine.listFolders()[0]?.state === 'watching')
    // Atomic save: write a temp file, rename into place.
    const tmp = join(r.inbox, '.~invoice.txt.tmp')
    await writeFile(tmp, 'Invoice total 700.00\n')
    await rename(tmp, join(r.inbox, 'invoice.txt'))
    await waitFor('uploaded', () => r.engine.uploads.countByStatus().completed === 1)
    // Rename the uploaded file: same bytes, new path.
    await rename(join(r.inbox, 'invoice.txt'), join(r.inbox, 'invoice-renamed.txt'))
    await waitFor('seen as duplicate', () => r.engine.uploads.countByStatus().duplicate === 1)
    await r.engine.whenIdle()
    const made = await createdBySha(r.sb)
    expect([...made.values()]).toEqual([1])
  })

  it('a watched folder removed and recreated shows an error, then watches again and picks up new files', async () => {
    const r = await rig({ engine: { watch: { recoverInitialMs: 100, recoverMaxMs: 300 } } })
    const folder = await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await waitFor('watching', () => r.engine.listFolders()[0]?.state === 'watching')
    await rm(r.inbox, { recursive: true, force: true })
    const err = await waitFor('error status', () =>
      r.events.folder.find((e) => e.folderId === folder.id && e.state === 'error'),
    )
    expect(err.message).toMatch(/not found|removed|unmounted/i)
    // The state carries its code (issue 34): the Folders screen words it in German.
    expect(err.messageCoded).toMatchObject({ code: 'folders.state.not_found', params: { path: r.inbox } })
    expect(r.engine.listFolders()[0]?.messageCoded?.code).toBe('folders.state.not_found')
    expect(wordCoded(err.messageCoded!, 'de')).toBe(
      `Ordner nicht gefunden: ${r.inbox} (entfernt oder nicht eingebunden). Bookdrop überwacht ihn wieder, sobald er zurück ist.`,
    )
    await mkdir(r.inbox)
    await waitFor('watching again', () => r.engine.listFolders()[0]?.state === 'watching', 10_000)
    await receipt(r.inbox, 'after.txt')
    await waitFor('new file uploaded', () =>
      r.engine.history().rows.find((x) => x.name === 'after.txt' && x.status === 'completed'),
    )
  })

  it('a file written slowly is uploaded once, only after it is complete', async () => {
    // Writes 100 ms apart: a window of 600 ms keeps a loaded CI machine's late timer from looking
    // like a finished file (the default test window, 120 ms, left 20 ms of margin).
    const r = await rig({ engine: { watch: { stabilityMs: 600 } } })
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await waitFor('watching', () => r.engine.listFolders()[0]?.state === 'watching')
    const path = join(r.inbox, 'scan.pdf')
    const { open } = await import('node:fs/promises')
    const fh = await open(path, 'w')
    const parts: Buffer[] = []
    // A PDF (so the content check takes it) whose end marker comes with the last part.
    const whole = paddedPdf(100_000, 0x41)
    for (let i = 0; i < 10; i++) {
      const part = whole.subarray(i * 10_000, (i + 1) * 10_000)
      parts.push(part)
      await fh.write(part)
      await new Promise((s) => setTimeout(s, 100))
    }
    await fh.close()
    const row = await waitFor('completed', () =>
      r.engine.history().rows.find((x) => x.status === 'completed'),
    )
    expect(row.size).toBe(100_000)
    await r.engine.whenIdle()
    expect(r.engine.history().total).toBe(1)
    const { createHash } = await import('node:crypto')
    const sha = createHash('sha256').update(Buffer.concat(parts)).digest('hex')
    expect(row.sha256).toBe(sha)
    expect([...(await createdBySha(r.sb)).entries()]).toEqual([[sha, 1]])
  })

  it('ignores hidden and temporary files', async () => {
    const r = await rig()
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await waitFor('watching', () => r.engine.listFolders()[0]?.state === 'watching')
    for (const n of [
      '.DS_Store',
      '~$draft.xlsx',
      'x.tmp',
      'y.pdf.part',
      'z.pdf.crdownload',
      '.receipt.txt.swp',
    ]) {
      await writeFile(join(r.inbox, n), 'junk')
    }
    await receipt(r.inbox, 'real.txt')
    await waitFor('real uploaded', () => r.engine.uploads.countByStatus().completed === 1)
    await r.engine.rescan()
    await r.engine.whenIdle()
    expect(r.engine.history().rows.map((x) => x.name)).toEqual(['real.txt'])
    expect((await readdir(r.inbox)).length).toBe(7)
  })

  it("a folder's initial scan is not held up for good by a big drop going through intake at the same time", async () => {
    const r = await rig()
    r.engine.pause(PROFILE) // this is about intake: files are queued, not sent
    const dropDir = join(r.dir, 'dropped')
    await mkdir(dropDir)
    const dropped: string[] = []
    for (let i = 0; i < 120; i++) dropped.push((await receipt(dropDir, `drop-${i}.txt`)).path)
    for (let i = 0; i < 120; i++) await receipt(r.inbox, `there-${i}.txt`)
    // The drop fills the hashing queue well past what a scan lets wait, then the folder is added.
    const drop = r.engine.addFiles(dropped, { profileId: PROFILE, target: 'expenses' })
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses', takeExisting: true })
    await drop
    await waitFor(
      'every file of the folder queued',
      () => r.engine.history({ folderId: r.engine.listFolders()[0]!.id }).total === 120,
      20_000,
    )
    expect(r.engine.history().total).toBe(240)
  })
})
