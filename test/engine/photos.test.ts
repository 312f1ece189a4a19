/**
 * Photos prepared before they cost a credit (issue 25), through the whole engine: intake prepares
 * a photo before hashing it, the duplicate rule and the Idempotency-Key apply to the prepared file,
 * the emulator receives the prepared bytes, and the row keeps the original's path and both sizes.
 * For every source: a drop and a watched folder here; the phone in test/phone/.
 */
import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROFILE, creates, useRigs, waitFor } from './helpers'
import { HEIC_SIZE, heic, look, phoneJpeg, receiptPdf } from '../prepare/photos'

const rig = useRigs()
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

describe('photos dropped or found in a folder', () => {
  it('are sent prepared: the HEIC as a JPEG, the rotated photo upright and smaller, the PDF as it is', async () => {
    const r = await rig()
    const heicPath = join(r.inbox, 'IMG_0001.HEIC')
    await writeFile(heicPath, heic())
    const photo = await phoneJpeg({ width: 1800, height: 2400, label: 'DIESEL' })
    const photoPath = join(r.inbox, 'IMG_0002.JPG')
    await writeFile(photoPath, photo)
    const pdf = await receiptPdf()
    const pdfPath = join(r.inbox, 'scan.pdf')
    await writeFile(pdfPath, pdf)
    r.engine.saveSettings({ ...r.engine.queueSettings(), photoMaxEdge: 1200 })

    const results = await r.engine.addFiles([heicPath, photoPath, pdfPath], { profileId: PROFILE, target: 'expenses' })
    expect(results.map((x) => x.kind)).toEqual(['queued', 'queued', 'queued'])
    await r.engine.whenIdle()

    const rows = r.engine.history().rows.sort((a, b) => a.name.localeCompare(b.name))
    expect(rows.map((u) => [u.name, u.status])).toEqual([
      ['IMG_0001.HEIC', 'completed'],
      ['IMG_0002.JPG', 'completed'],
      ['scan.pdf', 'completed'],
    ])
    const [h, p, d] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]]
    // The rows keep the originals, where they were, with their sizes; the prepared file beside.
    expect(h).toMatchObject({ path: heicPath, name: 'IMG_0001.HEIC', size: heic().length })
    expect(p).toMatchObject({ path: photoPath, size: photo.length })
    expect(d).toMatchObject({ path: pdfPath, size: pdf.length, preparedPath: null, preparedSize: null })
    const preparedHeic = await readFile(h.preparedPath!)
    const preparedPhoto = await readFile(p.preparedPath!)
    expect(h.preparedSize).toBe(preparedHeic.length)
    // 1512 × 2016 scaled to the 1200 px long edge set above.
    expect(await look(preparedHeic)).toMatchObject({ format: 'jpeg', width: (HEIC_SIZE.width * 1200) / HEIC_SIZE.height, height: 1200, exif: false })
    expect(await look(preparedPhoto)).toMatchObject({ format: 'jpeg', width: 900, height: 1200, exif: false, gps: false })
    expect(p.preparedSize!).toBeLessThan(photo.length / 4)

    // What was hashed is what the server received.
    const got = await creates(r.sb)
    const byName = new Map(got.map((c) => [c.attachments[0]!.name, c.attachments[0]!.sha256]))
    expect(byName).toEqual(
      new Map([
        ['IMG_0001.jpg', sha(preparedHeic)],
        ['IMG_0002.jpg', sha(preparedPhoto)],
        ['scan.pdf', sha(pdf)],
      ]),
    )
    expect([h.sha256, p.sha256, d.sha256]).toEqual([sha(preparedHeic), sha(preparedPhoto), sha(pdf)])
    // The originals are untouched.
    expect((await readFile(heicPath)).equals(heic())).toBe(true)
  })

  it('the same photo saved again with other tags is a duplicate of the prepared content, not a second credit', async () => {
    const r = await rig()
    // Two files with different bytes (another camera name in the EXIF, the picture's data untouched):
    // prepared, they are the same file.
    const picture = await phoneJpeg({ width: 900, height: 1200, label: 'TWICE' })
    const at = picture.indexOf('Test Phone')
    expect(at).toBeGreaterThan(0)
    const retagged = Buffer.from(picture)
    retagged.write('Best Phone', at, 'latin1')
    const a = join(r.inbox, 'a.jpg')
    const b = join(r.inbox, 'b.jpg')
    await writeFile(a, picture)
    await writeFile(b, retagged)
    expect(sha(picture)).not.toBe(sha(retagged))
    await r.engine.addFiles([a], { profileId: PROFILE, target: 'expenses' })
    await r.engine.whenIdle()
    const [second] = await r.engine.addFiles([b], { profileId: PROFILE, target: 'expenses' })
    expect(second?.kind).toBe('duplicate')
    await r.engine.whenIdle()
    expect(await creates(r.sb)).toHaveLength(1)
  })

  it('a photo written into a watched folder is prepared too', async () => {
    const r = await rig()
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'bills' })
    await new Promise((res) => setTimeout(res, 300))
    await writeFile(join(r.inbox, 'IMG_0100.heic'), heic())
    const row = await waitFor('the folder photo completed', () =>
      r.engine.history().rows.find((u) => u.name === 'IMG_0100.heic' && u.status === 'completed'),
    )
    expect(row.source).toBe('watch')
    expect(row.preparedPath).not.toBeNull()
    const got = await creates(r.sb)
    expect(got.map((c) => c.attachments[0]!.name)).toEqual(['IMG_0100.jpg'])
    expect(got[0]!.attachments[0]!.sha256).toBe(sha(await readFile(row.preparedPath!)))
  })

  it('a photo that cannot be prepared is skipped with its reason, nothing sent; "Send anyway" sends it as it is', async () => {
    const r = await rig()
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 9)])
    const path = join(r.inbox, 'broken.jpg')
    await writeFile(path, broken)
    const [res] = await r.engine.addFiles([path], { profileId: PROFILE, target: 'expenses' })
    expect(res?.kind).toBe('skipped')
    if (res?.kind !== 'skipped') return
    expect(res.upload.reason).toBe('not_prepared')
    expect(res.upload.lastError).toMatch(
      /^Bookdrop could not prepare this photo: the JPEG image could not be read \([^\n]{1,120}\)\. Nothing was sent\. Save it again as a JPEG, or choose "Send anyway" to send it as it is\.$/,
    )
    await r.engine.whenIdle()
    expect(await creates(r.sb)).toHaveLength(0)

    await r.engine.retry(res.upload.id)
    await r.engine.whenIdle()
    const got = await creates(r.sb)
    expect(got.map((c) => [c.attachments[0]!.name, c.attachments[0]!.sha256])).toEqual([['broken.jpg', sha(broken)]])
  })

  it('is on by default and off with the setting: then the photo is sent as it is', async () => {
    const r = await rig()
    const on = join(r.inbox, 'IMG_0001.HEIC')
    await writeFile(on, heic())
    await r.engine.addFiles([on], { profileId: PROFILE, target: 'expenses' })
    await r.engine.whenIdle()
    r.engine.saveSettings({ ...r.engine.queueSettings(), preparePhotos: false })
    const off = join(r.inbox, 'IMG_0002.HEIC')
    await writeFile(off, heic())
    await r.engine.addFiles([off], { profileId: PROFILE, target: 'bills' })
    await r.engine.whenIdle()
    const got = await creates(r.sb)
    expect(got.map((c) => c.attachments[0]!.name)).toEqual(['IMG_0001.jpg', 'IMG_0002.HEIC'])
    expect(got[1]!.attachments[0]!.sha256).toBe(sha(heic()))
  })
})
