/**
 * What a phone learns after it sent a photo (issue 31, item 14), over real HTTP to the listener:
 * GET /photos follows each of its photos to the record the server made (or why not), for its own
 * session only and without a path or a key; a phone whose pairing ended is told so in a sentence.
 */
import { describe, expect, it } from 'vitest'
import { PHONE_NOT_PAIRED, type PhonePhotoProgress } from '../../contract/phone'
import { phoneJpeg, receiptPdf } from '../prepare/photos'
import { KEY, PHONE_UA, Phone, openPaired, pairAndAllow, usePhoneRig } from './rig'

const rig = usePhoneRig()

async function progress(phone: Phone): Promise<PhonePhotoProgress[]> {
  const r = await phone.send('GET', '/photos')
  expect(r.status).toBe(200)
  return (r.json as { photos: PhonePhotoProgress[] }).photos
}

describe('following a photo after it was sent', () => {
  it('tells the phone what became of each of its photos (the record made, or why not), and nothing of another phone', async () => {
    const r = await openPaired(await rig())
    const other = new Phone(r.phone.base, PHONE_UA.replace('Pixel 8', 'Pixel 9'))
    await pairAndAllow(r, other)

    const photo = await phoneJpeg({ width: 900, height: 1200, label: 'FOLLOW' })
    const up = await r.phone.upload(photo, { id: 'follow-photo-001', name: 'follow.jpg', target: 'bills' })
    expect(up.json).toMatchObject({ status: 'sent', upload: expect.any(Number) })
    await r.host.service.engine.whenIdle()
    // The same content again, once the first was sent: a duplicate, final at once.
    await r.phone.upload(photo, { id: 'follow-photo-002', name: 'again.jpg', target: 'bills' })
    // Not a photo Bookdrop can prepare (a JPEG's first bytes, then nothing of a picture): skipped, with the reason.
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)])
    await r.phone.upload(broken, { id: 'follow-photo-003', name: 'broken.jpg' })
    await other.upload(await receiptPdf('Other phone'), { id: 'other-photo-0001', name: 'other.pdf' })

    await r.host.service.engine.whenIdle()
    const mine = await progress(r.phone)
    expect(mine).toEqual([
      { id: 'follow-photo-001', state: 'done', record: 'bill', final: true, message: 'Done: the server made a record of it (bill).' },
      { id: 'follow-photo-002', state: 'duplicate', record: null, final: true, message: 'Already sent before: not sent again.' },
      { id: 'follow-photo-003', state: 'skipped', record: null, final: true, message: expect.stringMatching(/^Skipped: .+\.$/) },
    ])
    const theirs = await progress(other)
    expect(theirs.map((p) => p.id)).toEqual(['other-photo-0001'])
    // Never a path, a key or an upload of another phone.
    const text = JSON.stringify(mine) + JSON.stringify(theirs)
    expect(text).not.toContain(r.dataDir)
    expect(text).not.toContain(KEY)
  })

  it('says the pairing ended in a sentence, and its polls do not keep a pairing alive', async () => {
    const r = await openPaired(await rig())
    // Polls for half an hour, nothing else: the pairing still ends after 30 idle minutes.
    for (let i = 0; i < 6; i++) {
      r.clock.now += 5 * 60_000 - 1
      expect((await r.phone.send('GET', '/photos')).status).toBe(200)
    }
    r.clock.now += 10
    const idle = await r.phone.send('GET', '/photos')
    expect(idle.status).toBe(403)
    expect(idle.json).toEqual({ error: PHONE_NOT_PAIRED, kind: 'session' })

    await pairAndAllow(r)
    const [paired] = (await r.host.service.getPhone({})).paired
    await r.host.service.endPhone({ id: paired!.id })
    for (const [method, path] of [['GET', '/photos'], ['GET', '/state'], ['POST', '/upload?id=after-end-000001&target=expenses&name=a.jpg']] as const) {
      const res = await r.phone.send(method, path, method === 'POST' ? { body: Buffer.from([0xff, 0xd8, 0xff]), headers: { 'Content-Type': 'image/jpeg' } } : {})
      expect([path, res.status, res.json]).toEqual([path, 403, { error: PHONE_NOT_PAIRED, kind: 'session' }])
    }
    // The page itself still loads, and says it (tested in a browser in test/e2e/phone-follow.test.ts).
    expect((await r.phone.send('GET', '/')).status).toBe(200)
  })
})
