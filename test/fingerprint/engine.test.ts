/**
 * Fingerprints through the whole engine (issue 33): the real emulator over HTTP, real files, the
 * real fingerprint worker and SQLite. Intake fingerprints every receipt (a photo as prepared) and
 * keeps it with its row; `engine.fingerprints.lookupNear(row)` names the receipt a row looks like,
 * which the holding flow (i33-hold) acts on.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROFILE, useRigs } from '../engine/helpers'
import { otherTotal, receipt, receiptPdf, receiptPhoto, reencode, rescale } from './receipts'

const rig = useRigs()

async function put(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, bytes)
  return path
}

describe('fingerprints in the engine', () => {
  it('knows a re-downloaded invoice and a re-encoded or scaled photo as the receipt sent, and no look-alike', async () => {
    const r = await rig()
    const rc = receipt(2, 9)
    const photo = await receiptPhoto(rc, { width: 4000, height: 3000 })
    const first = await r.engine.addFiles(
      [await put(r.inbox, 'invoice.pdf', await receiptPdf(rc, 0)), await put(r.inbox, 'IMG_1.jpg', photo)],
      { profileId: PROFILE, target: 'expenses' },
    )
    expect(first.map((x) => x.kind)).toEqual(['queued', 'queued'])
    await r.engine.whenIdle()
    const [pdfRow, photoRow] = first.map((x) =>
      x.kind === 'ignored' ? null : r.engine.uploads.get(x.upload.id)!,
    )
    expect([pdfRow?.status, photoRow?.status]).toEqual(['completed', 'completed'])
    expect(r.engine.fingerprints.index.of(pdfRow!.id)?.kind).toBe('text')
    expect(r.engine.fingerprints.index.of(photoRow!.id)?.kind).toBe('picture')

    const lookalike = otherTotal(rc, 1, 4)
    const second = await r.engine.addFiles(
      [
        await put(r.inbox, 'invoice (1).pdf', await receiptPdf(rc, 7)),
        await put(r.inbox, 'IMG_1-whatsapp.jpg', await reencode(photo, 70)),
        await put(r.inbox, 'IMG_1-small.jpg', await rescale(photo, 1600, 1200)),
        await put(r.inbox, 'other-total.pdf', await receiptPdf(lookalike)),
        await put(r.inbox, 'IMG_2.jpg', await receiptPhoto(lookalike, { width: 2000, height: 1500 })),
      ],
      { profileId: PROFILE, target: 'expenses' },
    )
    // Different bytes: none of them is the sha256 rule's duplicate; the three copies are held, the
    // look-alikes sent.
    expect(second.map((x) => x.kind)).toEqual(['held', 'held', 'held', 'queued', 'queued'])
    const near = second.map((x) => (x.kind === 'ignored' ? null : r.engine.fingerprints.lookupNear(x.upload)))
    expect(near.map((n) => n && [n.basis, n.name, n.uploadId])).toEqual([
      ['same_text', 'invoice.pdf', pdfRow!.id],
      ['same_picture', 'IMG_1.jpg', photoRow!.id],
      ['same_picture', 'IMG_1.jpg', photoRow!.id],
      null,
      null,
    ])
    // Sent: the sentence says when (contract/possible-duplicate.ts).
    expect(near[0]!.sentAt).toBeGreaterThan(0)
    expect(near[0]!.recordUuid).toBe(pdfRow!.recordUuid)
    await r.engine.whenIdle()
  }, 120_000)

  it('names a receipt still on its way (no sent date), and never one that was cancelled', async () => {
    const r = await rig()
    const rc = receipt(4, 3)
    r.engine.pause(PROFILE)
    const [a] = await r.engine.addFiles([await put(r.inbox, 'a.pdf', await receiptPdf(rc, 0))], {
      profileId: PROFILE,
      target: 'expenses',
    })
    const [b] = await r.engine.addFiles([await put(r.inbox, 'b.pdf', await receiptPdf(rc, 1))], {
      profileId: PROFILE,
      target: 'expenses',
    })
    // The copy of a receipt still on its way waits for it, held.
    if (a?.kind !== 'queued' || b?.kind !== 'held') throw new Error(`a queued, b held: ${a?.kind}, ${b?.kind}`)
    expect(r.engine.fingerprints.lookupNear(b.upload)).toMatchObject({
      basis: 'same_text',
      uploadId: a.upload.id,
      name: 'a.pdf',
      sentAt: null,
    })
    r.engine.cancel(a.upload.id)
    expect(r.engine.fingerprints.lookupNear(b.upload)).toBeNull()
    // Another profile never matches.
    expect(
      r.engine.fingerprints.nearOf({
        profileId: 'someone-else',
        target: 'expenses',
        fp: r.engine.fingerprints.index.of(b.upload.id)!,
      }),
    ).toBeNull()
  }, 60_000)

  it('sends a PDF the worker cannot read, without a fingerprint, and computes none when turned off', async () => {
    const r = await rig()
    const broken = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage that is no PDF\n%%EOF\n')
    const [x] = await r.engine.addFiles([await put(r.inbox, 'broken.pdf', broken)], {
      profileId: PROFILE,
      target: 'expenses',
    })
    if (x?.kind !== 'queued') throw new Error(`broken.pdf: ${x?.kind}`)
    await r.engine.whenIdle()
    expect(r.engine.uploads.get(x.upload.id)?.status).toBe('completed')
    expect(r.engine.fingerprints.index.of(x.upload.id)).toBeNull()

    await r.reopen({ fingerprints: false })
    const [y] = await r.engine.addFiles([await put(r.inbox, 'fine.pdf', await receiptPdf(receipt(1, 1)))], {
      profileId: PROFILE,
      target: 'expenses',
    })
    if (y?.kind !== 'queued') throw new Error(`fine.pdf: ${y?.kind}`)
    expect(r.engine.fingerprints.index.of(y.upload.id)).toBeNull()
    await r.engine.whenIdle()
  }, 60_000)
})
