/**
 * Local copies kept only as long as they serve (issue 31): a prepared photo, a mail attachment and
 * a phone's original stay while their row is on its way and for the retention after it ended
 * ("Keep local copies for N days", 30 by default), then the sweep deletes them: at start (with the
 * copies no row refers to, like a photo prepared and then skipped) and every hour. The row stays in
 * the history, and sending it again says the copy is gone.
 */
import { access, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { partDir } from '../../src-main/core/mail/files'
import { PROFILE, useRigs, waitFor } from './helpers'
import { heic, phoneJpeg, receiptPdf } from '../prepare/photos'

const rig = useRigs()
const DAY = 24 * 60 * 60_000
const exists = (p: string) => access(p).then(() => true, () => false)

/** Where the mail runner and the phone inbox keep what they receive, in the data folder. */
async function mailAttachment(dataDir: string, bytes: Buffer): Promise<string> {
  const dir = partDir(dataDir, 'acct-1', '7', 42, '2')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'invoice.pdf'), bytes)
  return join(dir, 'invoice.pdf')
}
async function phonePhoto(dataDir: string, name: string, bytes: Buffer): Promise<string> {
  const dir = join(dataDir, 'phone', '2026-11-27')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, name), bytes)
  return join(dir, name)
}

describe('local copies in the data folder', () => {
  it('of a completed row go once the retention has passed; those of unfinished and recent rows stay; the history keeps the row', async () => {
    const r = await rig()
    const dropped = join(r.inbox, 'IMG_0001.HEIC')
    await writeFile(dropped, heic())
    const mail = await mailAttachment(r.dataDir, await receiptPdf('mail receipt'))
    const phone = await phonePhoto(r.dataDir, 'Photo 10.00.00.jpg', await phoneJpeg({ width: 900, height: 1200, label: 'PHONE' }))
    const results = await r.engine.addFiles([dropped, mail], { profileId: PROFILE, target: 'expenses' })
    results.push(...(await r.engine.addFiles([phone], { profileId: PROFILE, target: 'expenses', source: 'phone' })))
    expect(results.map((x) => x.kind)).toEqual(['queued', 'queued', 'queued'])
    await r.engine.whenIdle()
    const done = r.engine.history().rows
    expect(done.map((u) => u.status)).toEqual(['completed', 'completed', 'completed'])
    const prepared = done.map((u) => u.preparedPath).filter((p): p is string => p !== null)
    expect(prepared).toHaveLength(2) // the HEIC and the phone's JPEG

    // A row still on its way: its phone photo and the photo prepared from it.
    r.engine.pause(PROFILE)
    const waiting = await phonePhoto(r.dataDir, 'Photo 11.00.00.jpg', await phoneJpeg({ width: 900, height: 1200, label: 'WAITING' }))
    const [q] = await r.engine.addFiles([waiting], { profileId: PROFILE, target: 'expenses', source: 'phone' })
    expect(q!.kind).toBe('queued')
    const waitingRow = r.engine.uploads.get(q!.kind === 'queued' ? q!.upload.id : -1)!
    expect(waitingRow.preparedPath).not.toBeNull()

    // Today and 29 days on, everything stays (30 days by default).
    expect(await r.engine.copies.sweep()).toEqual({ files: 0, bytes: 0 })
    expect(await r.engine.copies.sweep({ now: Date.now() + 29 * DAY })).toEqual({ files: 0, bytes: 0 })

    // 31 days on: the completed rows' copies are gone; the waiting row's stay, and so does the
    // photo the person dropped from their own folder.
    const freed = await r.engine.copies.sweep({ now: Date.now() + 31 * DAY })
    expect(freed.files).toBe(4)
    expect(freed.bytes).toBeGreaterThan(0)
    for (const p of [mail, phone, ...prepared]) expect(await exists(p), p).toBe(false)
    for (const p of [waiting, waitingRow.preparedPath!, dropped]) expect(await exists(p), p).toBe(true)
    // The history keeps every row.
    expect(r.engine.history().total).toBe(4)
  })

  it('are swept at start: the retention (0 days: once the record exists), a photo prepared then skipped, a file no row refers to; and every hour', async () => {
    const r = await rig()
    const phoneBytes = await phoneJpeg({ width: 900, height: 1200, label: 'PHONE' })
    const phone = await phonePhoto(r.dataDir, 'Photo 10.00.00.jpg', phoneBytes)
    await r.engine.addFiles([phone], { profileId: PROFILE, target: 'expenses', source: 'phone' })
    await r.engine.whenIdle()
    const [row] = r.engine.history().rows
    expect(row!.status).toBe('completed')

    // A photo prepared, then skipped: its prepared JPEG is over the largest file sent.
    r.engine.saveSettings({ ...r.engine.queueSettings(), maxFileBytes: 1024, keepCopiesDays: 0 })
    const big = join(r.inbox, 'IMG_0002.HEIC')
    await writeFile(big, heic())
    const [skipped] = await r.engine.addFiles([big], { profileId: PROFILE, target: 'expenses' })
    expect(skipped!.kind).toBe('skipped')
    const preparedNow = async () => (await import('node:fs/promises')).readdir(join(r.dataDir, 'prepared'), { recursive: true })
    const orphanPrepared = (await preparedNow()).filter((f) => f.includes('IMG_0002'))
    expect(orphanPrepared).toHaveLength(1)
    // A file no row refers to (a download the app stopped in the middle of).
    const stray = await mailAttachment(r.dataDir, Buffer.from('half a download'))

    await r.reopen()
    expect(await exists(phone)).toBe(false)
    expect(await exists(row!.preparedPath!)).toBe(false)
    expect(await exists(stray)).toBe(false)
    expect((await preparedNow()).filter((f) => f.includes('IMG_0002'))).toEqual([])
    expect(r.engine.history().total).toBe(2)

    // Sending the completed-and-swept row's duplicate again says the copy is gone, and what to do.
    const again = await phonePhoto(r.dataDir, 'Photo 12.00.00.jpg', phoneBytes)
    r.engine.saveSettings({ ...r.engine.queueSettings(), maxFileBytes: 25 * 1024 * 1024, keepCopiesDays: 30 })
    const [dup] = await r.engine.addFiles([again], { profileId: PROFILE, target: 'expenses', source: 'phone' })
    expect(dup!.kind).toBe('duplicate')
    const dupId = dup!.kind === 'duplicate' ? dup!.upload.id : -1

    // Every hour (here: every 50 ms) the retention runs while the app is open.
    r.engine.saveSettings({ ...r.engine.queueSettings(), keepCopiesDays: 0 })
    await r.reopen({ copySweepMs: 50 })
    const later = await phonePhoto(r.dataDir, 'Photo 13.00.00.jpg', await phoneJpeg({ width: 900, height: 1200, label: 'LATER' }))
    await r.engine.addFiles([later], { profileId: PROFILE, target: 'expenses', source: 'phone' })
    await r.engine.whenIdle()
    expect(r.engine.history({ statuses: ['completed'] }).total).toBe(2)
    await waitFor('the hourly sweep deleted the completed photo', async () => !(await exists(later)))
    await expect(r.engine.retry(dupId)).rejects.toThrow(/local copy of this receipt was removed.*take the photo again from the phone/)
  })
})
