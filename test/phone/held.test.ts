/**
 * Issue 33 from a phone, over real HTTP to the listener: a receipt photo, then the same photo as a
 * messenger re-compressed it (JPEG quality 70): the second is held on the computer as a possible
 * duplicate (one create at the emulator), and the phone is told so in words.
 */
import { describe, expect, it } from 'vitest'
import type { PhonePhotoProgress } from '../../contract/phone'
import { creates } from '../engine/helpers'
import { receipt, receiptPhoto, reencode } from '../fingerprint/receipts'
import { openPaired, usePhoneRig } from './rig'

const rig = usePhoneRig()

describe('a possible duplicate sent from a phone', () => {
  it('a re-compressed photo of a receipt already sent is held, once, and the phone says so', async () => {
    const r = await openPaired(await rig())
    const photo = await receiptPhoto(receipt(1, 91), { width: 2000, height: 1500 })
    const first = await r.phone.upload(photo, { id: 'held-photo-0001', name: 'receipt.jpg' })
    expect(first.json).toMatchObject({ status: 'sent' })
    await r.host.service.engine.whenIdle()
    const again = await r.phone.upload(await reencode(photo, 70), { id: 'held-photo-0002', name: 'receipt-2.jpg' })
    expect(again.json).toMatchObject({
      status: 'duplicate',
      message: expect.stringMatching(/^Possible duplicate of receipt\.jpg, sent on .+ \(same picture\)\. It waits on the computer\.$/),
    })
    await r.host.service.engine.whenIdle()
    const progress = ((await r.phone.send('GET', '/photos')).json as { photos: PhonePhotoProgress[] }).photos
    expect(progress.find((p) => p.id === 'held-photo-0002')).toMatchObject({ state: 'duplicate', message: expect.stringMatching(/held on the computer/) })
    expect(await creates(r.sb)).toHaveLength(1)
  }, 60_000)
})
