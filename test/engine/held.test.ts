/**
 * Issue 33, the holding flow, through the real engine: real PDFs and photos made by the test
 * (test/fingerprint/receipts.ts), real folders, real SQLite, the emulator over HTTP. A near match of
 * a receipt already sent is held (never sent until a person says so); creates are counted at the
 * emulator, never in our own tables.
 */
import { describe, expect, it } from 'vitest'
import type { Upload } from '../../src-main/core/store/uploads'
import { PROFILE, creates, useRigs, waitFor, type Rig } from './helpers'
import { otherTotal, receipt, receiptPdf, receiptPhoto, reencode, rescale } from '../fingerprint/receipts'
import { drop, settled, statusOf } from './held-helpers'

const rig = useRigs()

/** With sending paused: a receipt, then its re-download, which is held waiting for it. */
async function heldBehind(r: Rig, rc: ReturnType<typeof receipt>, name: string): Promise<{ original: Upload; copy: Upload }> {
  r.engine.pause(PROFILE)
  const original = await drop(r, `${name}.pdf`, await receiptPdf(rc, 0))
  const copy = await drop(r, `${name} (1).pdf`, await receiptPdf(rc, 1))
  expect(copy.status).toBe('held')
  return { original, copy }
}

/** A receipt sent (its record made), then its re-download dropped: the two rows. */
async function sentThenAgain(r: Rig, rc: ReturnType<typeof receipt>, name: string): Promise<{ first: Upload; again: Upload }> {
  const first = await drop(r, `${name}.pdf`, await receiptPdf(rc, 0))
  await settled(r, first.id)
  return { first, again: await drop(r, `${name} (1).pdf`, await receiptPdf(rc, 1)) }
}

describe('possible duplicates are held before they cost a credit (issue 33)', () => {
  it('a re-downloaded invoice (only /CreationDate, /ModDate, /ID differ) is held; Discard keeps 1 create, Send anyway makes 2', async () => {
    const r = await rig()
    const rc = receipt(0, 1)
    const { first, again } = await sentThenAgain(r, rc, 'invoice')
    const third = await drop(r, 'invoice (2).pdf', await receiptPdf(rc, 2))
    expect(again.status).toBe('held')
    expect(third.status).toBe('held')
    const view = r.engine.uploads.view(r.engine.uploads.get(again.id)!)
    expect(view.possibleDuplicate).toMatchObject({ basis: 'same_text', uploadId: first.id, name: 'invoice.pdf' })
    expect(view.possibleDuplicate?.sentAt).toEqual(expect.any(Number))
    expect(again.lastError).toMatch(/^Possible duplicate of invoice\.pdf, sent on \d{4}-\d{2}-\d{2} \(same text\)/)
    await r.engine.whenIdle()
    expect(await creates(r.sb)).toHaveLength(1)

    r.engine.held.discard(third.id)
    expect(statusOf(r, third.id)).toBe('discarded')
    await r.engine.whenIdle()
    expect(await creates(r.sb)).toHaveLength(1)

    const sent = await r.engine.retry(again.id)
    expect(sent).toMatchObject({ status: 'queued', forced: true, nearOf: first.id, nearBasis: 'same_text' })
    await settled(r, again.id)
    expect(await creates(r.sb)).toHaveLength(2)
    // Sent anyway: the row still says what it looks like.
    expect(r.engine.uploads.view(r.engine.uploads.get(again.id)!).possibleDuplicate?.uploadId).toBe(first.id)
    // A discarded row cannot be sent anyway by mistake through Discard again.
    expect(() => r.engine.held.discard(third.id)).toThrow(/only a held possible duplicate/)
  })

  it('a photo re-encoded at q70 and the same photo resized 4000×3000 → 1600×1200 are held (same picture)', async () => {
    const r = await rig()
    const photo = await receiptPhoto(receipt(2, 5))
    const first = await drop(r, 'IMG_0001.jpg', photo)
    await settled(r, first.id)
    const q70 = await drop(r, 'IMG_0001-whatsapp.jpg', await reencode(photo, 70))
    const small = await drop(r, 'IMG_0001-small.jpg', await rescale(photo, 1600, 1200))
    expect([q70.status, small.status]).toEqual(['held', 'held'])
    expect(q70.nearBasis).toBe('same_picture')
    expect(small.nearOf).toBe(first.id)
    await r.engine.whenIdle()
    expect(await creates(r.sb)).toHaveLength(1)
  }, 60_000)

  it('two different receipts of one shop (same layout, another total) are both sent', async () => {
    const r = await rig()
    const rc = receipt(3, 9)
    const a = await drop(r, 'shop-a.pdf', await receiptPdf(rc))
    await settled(r, a.id)
    const b = await drop(r, 'shop-b.pdf', await receiptPdf(otherTotal(rc, 1, 4)))
    const pa = await drop(r, 'shop-a.jpg', await receiptPhoto(rc))
    await settled(r, pa.id)
    const pb = await drop(r, 'shop-b.jpg', await receiptPhoto(otherTotal(rc, 2, 7)))
    expect([b.status, pb.status]).toEqual(['queued', 'queued'])
    await settled(r, b.id)
    await settled(r, pb.id)
    expect(await creates(r.sb)).toHaveLength(4)
  }, 60_000)

  it('a near match of an original still on its way waits: sent on its own when that one fails, held when it is sent', async () => {
    const r = await rig()
    const { original, copy } = await heldBehind(r, receipt(1, 3), 'bill')
    expect(copy.lastError).toMatch(/Possible duplicate of bill\.pdf \(same text\), which is still on its way/)
    // The original is refused by the API (a definite 404): the copy goes in its place.
    r.sb.setFaults({ paths: ['/expenses'], not_found_next: 1 })
    r.engine.resume(PROFILE)
    await waitFor('original failed', () => statusOf(r, original.id) === 'failed')
    await settled(r, copy.id)
    expect(r.engine.uploads.get(copy.id)).toMatchObject({ nearOf: null, note: expect.stringMatching(/Sent on its own: bill\.pdf/) })
    expect(await creates(r.sb)).toHaveLength(1)

    // Another receipt: its original on its way is sent, so its copy stays held.
    const { original: o2, copy: c2 } = await heldBehind(r, receipt(4, 8), 'fuel')
    r.engine.resume(PROFILE)
    await settled(r, o2.id)
    await r.engine.whenIdle()
    expect(statusOf(r, c2.id)).toBe('held')
    expect(r.engine.uploads.view(r.engine.uploads.get(c2.id)!).possibleDuplicate?.sentAt).toEqual(expect.any(Number))
    expect(await creates(r.sb)).toHaveLength(2)
  }, 60_000)

  it('a near match of an original that a person cancels is sent on its own', async () => {
    const r = await rig()
    const { original, copy } = await heldBehind(r, receipt(5, 2), 'pharma')
    r.engine.cancel(original.id)
    r.engine.resume(PROFILE)
    await settled(r, copy.id)
    expect(await creates(r.sb)).toHaveLength(1)
  }, 30_000)

  it('a held row survives a restart, still unsent, and can be sent anyway after it', async () => {
    const r = await rig()
    const rc = receipt(6, 4)
    const { again } = await sentThenAgain(r, rc, 'bakery')
    expect(again.status).toBe('held')
    await r.reopen()
    await r.engine.whenIdle()
    expect(statusOf(r, again.id)).toBe('held')
    expect(r.engine.held.list(PROFILE).map((u) => u.id)).toEqual([again.id])
    expect(await creates(r.sb)).toHaveLength(1)
    await r.engine.retry(again.id)
    await settled(r, again.id)
    expect(await creates(r.sb)).toHaveLength(2)
  }, 30_000)

  it('the profile setting "send them anyway": a near match is sent, and its row still carries the note', async () => {
    const r = await rig()
    expect(r.engine.held.savedMode(PROFILE)).toBe('hold')
    r.engine.held.setMode(PROFILE, 'send')
    await r.reopen() // persisted
    expect(r.engine.held.mode(PROFILE)).toBe('send')
    const rc = receipt(2, 11)
    const { first, again } = await sentThenAgain(r, rc, 'cafe')
    expect(again).toMatchObject({ status: 'queued', nearOf: first.id, nearBasis: 'same_text' })
    await settled(r, again.id)
    expect(await creates(r.sb)).toHaveLength(2)
    expect(() => r.engine.held.setMode(PROFILE, 'maybe' as 'send')).toThrow(/"hold"|"send"/)
  }, 30_000)
})
