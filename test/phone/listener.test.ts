/**
 * "Add from phone" (issue 25), over real HTTP to the phone listener of a running web host: pairing
 * through the one-time link and the desktop's Allow, what a phone may and may not reach, the limits,
 * and photos that go through the one intake as source `phone`. The same flows in a real browser
 * (mobile emulation) are in test/e2e/phone.test.ts.
 */
import { createHash } from 'node:crypto'
import { readFile, readdir, stat } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { heic, look, pdfPages, phoneJpeg, receiptPdf } from '../prepare/photos'
import { PHONE_UA, Phone, openPaired, pairAndAllow, usePhoneRig } from './rig'

const rig = usePhoneRig()
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

async function creates(origin: string): Promise<{ attachments: { name: string; sha256: string }[] }[]> {
  return ((await (await fetch(`${origin}/_sandbox/creates`)).json()) as { data: never[] }).data
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
  } catch {
    return []
  }
}

describe('pairing a phone', () => {
  it('pairs through the link, waits for Allow, then takes photos into the one intake as source phone', async () => {
    const r = await rig()
    const opened = await r.open()
    expect(opened.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(opened.link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#t=[A-Za-z0-9_-]{27}$/) // 160 bits
    expect(opened.link.expiresAt - r.clock.now).toBe(10 * 60_000)
    expect(opened.link.qr.length).toBeGreaterThanOrEqual(21)

    // The page, with its own strict policy.
    const page = await r.phone.send('GET', '/')
    expect(page.status).toBe(200)
    expect(page.text).toContain('capture="environment"')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    const script = /src="(\/assets\/phone-[^"]+\.js)"/.exec(page.text)?.[1]
    expect((await r.phone.send('GET', script!)).status).toBe(200)

    // Opening the link: a pending session, bound to this phone by an HttpOnly, SameSite cookie.
    const paired = await r.phone.pair(opened.link.url)
    expect(paired.status).toBe(200)
    expect(paired.json).toMatchObject({ state: 'pending', device: 'Android phone (Pixel 8) · Chrome', code: expect.stringMatching(/^\d{4}$/) })
    const cookie = String(paired.headers['set-cookie'])
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    const panel = await r.host.service.getPhone({})
    expect(panel.pending).toEqual([expect.objectContaining({ device: 'Android phone (Pixel 8) · Chrome', code: (paired.json as { code: string }).code })])
    expect(panel.link).toBeNull() // spent

    // Before Allow nothing is accepted.
    const early = await r.phone.upload(await phoneJpeg({ width: 600, height: 800 }), { id: 'early-photo-0001' })
    expect(early.status).toBe(403)

    await r.host.service.decidePhone({ id: panel.pending[0]!.id, allow: true })
    const state = await r.phone.send('GET', '/state')
    expect(state.json).toMatchObject({ state: 'allowed', business: 'Phone Foods Ltd', targets: ['expenses', 'bills', 'invoices', 'income'] })

    const photo = await phoneJpeg({ width: 1800, height: 2400, label: 'PHONE' })
    const up = await r.phone.upload(photo, { id: 'photo-0000000001', name: 'IMG_20260115.jpg', target: 'bills', note: 'Paid by card' })
    expect(up.status).toBe(200)
    expect(up.json).toMatchObject({ status: 'sent', message: expect.stringMatching(/^In Bookdrop’s queue as upload #\d+\.$/) })
    await r.host.service.engine.whenIdle()
    const [row] = r.host.service.engine.history().rows
    expect(row).toMatchObject({ source: 'phone', target: 'bills', name: 'IMG_20260115.jpg', size: photo.length, status: 'completed' })
    expect(row!.prompt).toMatch(/Note from the phone: Paid by card$/)
    // The original and the prepared file are kept in the data folder, private.
    expect(row!.path.startsWith(join(r.dataDir, 'phone'))).toBe(true)
    expect((await readFile(row!.path)).equals(photo)).toBe(true)
    expect((await stat(row!.path)).mode & 0o777).toBe(0o600)
    const prepared = await readFile(row!.preparedPath!)
    expect(await look(prepared)).toMatchObject({ width: 1800, height: 2400, exif: false, gps: false })
    expect(await creates(r.sb.origin)).toEqual([
      expect.objectContaining({ attachments: [expect.objectContaining({ name: 'IMG_20260115.jpg', sha256: sha(prepared) })] }),
    ])
    expect((await r.host.service.getPhone({})).paired).toEqual([expect.objectContaining({ photos: 1, business: 'Phone Foods Ltd' })])
  })

  it('refuses a reused link, a replaced link and an expired link', async () => {
    const r = await rig()
    const first = await r.open()
    expect((await r.phone.pair(first.link.url)).status).toBe(200)
    const again = await new Phone(r.phone.base, `${PHONE_UA} other`).pair(first.link.url)
    expect(again.status).toBe(403)
    expect(again.json).toMatchObject({ kind: 'link', error: expect.stringMatching(/already used/) })

    const a = (await r.host.service.newPhoneLink({})).link!
    const b = (await r.host.service.newPhoneLink({})).link!
    expect(b.url).not.toBe(a.url)
    expect((await new Phone(r.phone.base).pair(a.url)).status).toBe(403)

    r.clock.now += 10 * 60_000 + 1
    expect((await r.host.service.getPhone({})).link).toBeNull()
    const late = await new Phone(r.phone.base).pair(b.url)
    expect(late.status).toBe(403)
    expect(late.json).toMatchObject({ kind: 'link', error: expect.stringMatching(/expired/) })
    // A token never issued.
    expect((await new Phone(r.phone.base).pair('http://x/#t=AAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404)
  })

  it('honours Refuse: the phone is told, and nothing it sends is taken', async () => {
    const r = await rig()
    const { link } = await r.open()
    await r.phone.pair(link.url)
    const waiting = r.phone.send('GET', '/state?wait=1')
    const [pending] = (await r.host.service.getPhone({})).pending
    await r.host.service.decidePhone({ id: pending!.id, allow: false })
    const told = await waiting
    expect(told.status).toBe(403)
    expect(told.json).toMatchObject({ kind: 'session' })
    const up = await r.phone.upload(await phoneJpeg({ width: 600, height: 800 }), { id: 'refused-photo-01' })
    expect(up.status).toBe(403)
    expect(r.host.service.engine.history().total).toBe(0)
    expect(await filesUnder(join(r.dataDir, 'phone'))).toEqual([])
    expect((await r.host.service.getPhone({})).pending).toEqual([])
  })

  it('ends a session from the desktop, after 30 idle minutes, and when the panel closes', async () => {
    const r = await openPaired(await rig())
    const [paired] = (await r.host.service.getPhone({})).paired
    await r.host.service.endPhone({ id: paired!.id })
    expect((await r.phone.send('GET', '/state')).status).toBe(403)

    await pairAndAllow(r)
    r.clock.now += 30 * 60_000
    expect((await r.phone.send('GET', '/state')).status).toBe(403)
    expect((await r.host.service.getPhone({})).paired).toEqual([])

    await pairAndAllow(r)
    expect((await r.phone.send('GET', '/state')).status).toBe(200)
    const closed = await r.host.service.closePhone({})
    expect(closed).toMatchObject({ open: false, address: null, link: null, pending: [], paired: [] })
    await expect(r.phone.send('GET', '/state')).rejects.toThrow(/ECONNREFUSED/)
  })
})

describe("the phone listener's boundary", () => {
  it('serves the page and the upload call only: never the bridge, the event stream or the app', async () => {
    const r = await openPaired(await rig())
    const token = r.host.token
    const appScript = /src="\.?\/?(assets\/index-[^"]+\.js)"/.exec(await (await fetch(`${r.host.origin}/`)).text())?.[1]
    expect(appScript).toBeTruthy()
    const probes: [string, string, Record<string, string>?][] = [
      ['POST', '/api/call/getSettings', { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }],
      ['POST', '/api/call/addFileContents', { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }],
      ['GET', `/api/events?token=${token}`],
      ['GET', `/api/download/x.csv?token=${token}`],
      ['GET', '/index.html'],
      ['GET', `/${appScript}`],
      ['GET', '/phone/index.html'],
      ['GET', '/favicon.png'],
      ['GET', '/%75pload'],
      ['POST', '/%75pload'],
      ['POST', '/upload/'],
      ['GET', '/../data/bookdrop.db'],
      ['GET', '/assets/../index.html'],
    ]
    for (const [method, path, headers] of probes) {
      const res = await r.phone.send(method, path, { headers, body: method === 'POST' ? '{}' : undefined })
      expect([method, path, res.status]).toEqual([method, path, 404])
      expect(res.text).not.toContain('<div id="root">')
    }
  })

  it('refuses a foreign Host, a foreign Origin, a POST without Origin, and a request without the session; each counted, none kept', async () => {
    const r = await openPaired(await rig())
    const before = (await r.host.service.getPhone({})).refused
    const photo = await phoneJpeg({ width: 600, height: 800 })
    const refused = [
      await r.phone.send('GET', '/', { headers: { Host: `evil.example:${new URL(r.phone.base).port}` } }),
      await r.phone.send('GET', '/', { headers: { Host: `localhost:${new URL(r.phone.base).port}` } }),
      await r.phone.upload(photo, { id: 'foreign-origin-1' }, { Origin: 'http://evil.example' }),
      await r.phone.upload(photo, { id: 'no-origin-00001' }, { Origin: undefined }),
      await r.phone.upload(photo, { id: 'cross-site-0001' }, { 'Sec-Fetch-Site': 'cross-site' }),
      await r.phone.upload(photo, { id: 'no-session-0001' }, { Cookie: undefined }),
      await r.phone.upload(photo, { id: 'bad-session-001' }, { Cookie: 'bookdrop_phone=forged' }),
      // The right cookie from another browser (a copied cookie) is not the paired phone.
      await r.phone.upload(photo, { id: 'other-browser-1' }, { 'User-Agent': 'curl/8.0' }),
      await r.phone.send('GET', '/state', { headers: { Cookie: undefined } }),
    ]
    expect(refused.map((x) => x.status)).toEqual([403, 403, 403, 403, 403, 403, 403, 403, 403])
    expect(refused[5]!.json).toMatchObject({ kind: 'session', error: 'This phone is no longer paired. Scan the new code on your computer.' })
    await new Promise((res) => setTimeout(res, 700)) // the panel hears of refusals twice a second
    expect((await r.host.service.getPhone({})).refused).toBe(before + refused.length)
    expect(r.host.service.engine.history().total).toBe(0)
    expect(await filesUnder(join(r.dataDir, 'phone'))).toEqual([])
  })

  it('limits size, kind and rate, keeping nothing of what it refuses', async () => {
    const r = await openPaired(await rig())
    // Too large, refused from its announced length before a byte is read.
    const big = await r.phone.send('POST', '/upload?id=too-large-000001&target=expenses&name=a.jpg', {
      headers: { 'Content-Type': 'image/jpeg', 'Content-Length': String(41 * 1024 * 1024) },
    })
    expect(big.status).toBe(413)
    // Not a photo: the bytes decide, not the name or the type it claims.
    const text = await r.phone.upload(Buffer.from('#!/bin/sh\nrm -rf /\n'), { id: 'not-a-photo-0001', name: 'receipt.jpg' })
    expect(text.status).toBe(415)
    const html = await r.phone.upload(Buffer.from('<html>hi</html>'), { id: 'not-a-photo-0002' }, { 'Content-Type': 'text/html' })
    expect(html.status).toBe(415)
    // A target the phone may not use, an id missing, a name with a path in it: refused or cleaned.
    expect((await r.phone.upload(await receiptPdf(), { id: 'bad-target-00001', target: 'bank-transactions' })).status).toBe(400)
    expect((await r.phone.upload(await receiptPdf(), { id: '../../x' })).status).toBe(400)
    const pathy = await r.phone.upload(await receiptPdf(), { id: 'path-name-000001', name: '../../../etc/passwd.pdf' })
    expect(pathy.json).toMatchObject({ status: 'sent' })
    const [row] = r.host.service.engine.history().rows
    expect(row!.path.startsWith(join(r.dataDir, 'phone'))).toBe(true)
    expect(row!.name).toBe('etc_passwd.pdf')
    expect((await filesUnder(join(r.dataDir, 'phone'))).filter((f) => !f.endsWith('etc_passwd.pdf'))).toEqual([])

    // The rate limit per address.
    const burst = await Promise.all(Array.from({ length: 80 }, () => r.phone.send('GET', '/state')))
    expect(burst.some((x) => x.status === 429)).toBe(true)
  })

  it('takes a photo sent again under the same id once: one row, one create, the same answer', async () => {
    const r = await openPaired(await rig())
    const photo = await phoneJpeg({ width: 900, height: 1200, label: 'RETRY' })
    const [a, b] = await Promise.all([
      r.phone.upload(photo, { id: 'retried-photo-01', name: 'retry.jpg' }),
      r.phone.upload(photo, { id: 'retried-photo-01', name: 'retry.jpg' }),
    ])
    const c = await r.phone.upload(photo, { id: 'retried-photo-01', name: 'retry.jpg' })
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200])
    expect(b.json).toEqual(a.json)
    expect(c.json).toEqual(a.json)
    await r.host.service.engine.whenIdle()
    expect(r.host.service.engine.history().total).toBe(1)
    expect(await creates(r.sb.origin)).toHaveLength(1)
    // The same photo chosen again (a new id) is a duplicate of the content already sent.
    const d = await r.phone.upload(photo, { id: 'chosen-again-001', name: 'retry.jpg' })
    expect(d.json).toMatchObject({ status: 'duplicate' })
  })

  it('makes one PDF of a document sent page by page: one row, one create of a three-page PDF', async () => {
    const r = await openPaired(await rig())
    const pages = [heic(), await phoneJpeg({ width: 1200, height: 1600, label: 'PAGE 2' }), await phoneJpeg({ width: 1200, height: 1600, label: 'PAGE 3' })]
    const answers = []
    for (const [i, bytes] of pages.entries()) {
      answers.push(
        await r.phone.upload(bytes, { id: `doc-page-00000${i + 1}`, doc: 'document-0000001', page: String(i + 1), pages: '3', name: `page${i + 1}.jpg` }, {
          'Content-Type': i === 0 ? 'image/heic' : 'image/jpeg',
        }),
      )
    }
    expect(answers.map((a) => (a.json as { status: string }).status)).toEqual(['received', 'received', 'sent'])
    await r.host.service.engine.whenIdle()
    const rows = r.host.service.engine.history().rows
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ source: 'phone', status: 'completed', preparedPath: null })
    expect(rows[0]!.name).toMatch(/^Document \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2}\.pdf$/)
    const pdf = await readFile(rows[0]!.path)
    expect(await pdfPages(pdf)).toBe(3)
    const got = await creates(r.sb.origin)
    expect(got).toEqual([expect.objectContaining({ attachments: [expect.objectContaining({ name: rows[0]!.name, sha256: sha(pdf) })] })])
    // The pages' originals are kept beside it.
    const kept = (await filesUnder(join(r.dataDir, 'phone'))).map((f) => f.split('/').pop()).sort()
    expect(kept).toEqual([rows[0]!.name, 'page-1.heic', 'page-2.jpg', 'page-3.jpg'].sort())
  })
})

describe('choosing where to listen', () => {
  it('refuses a public address or one this computer does not have, saying what to do', async () => {
    const r = await rig({ phoneListen: '8.8.8.8' })
    const s = await r.host.service.openPhone({})
    expect(s).toMatchObject({ open: false, link: null, problem: expect.stringMatching(/not a private-network address/) })
    const r2 = await rig({ phoneListen: '10.254.254.254' })
    expect((await r2.host.service.openPhone({})).problem).toMatch(/has no address 10\.254\.254\.254/)
  })

  it('does not listen on the web host port, and the web host does not serve the phone API', async () => {
    const r = await rig()
    await r.open()
    const res = await new Promise<number>((resolve, reject) => {
      const req = request(`${r.host.origin}/pair`, { method: 'POST', headers: { Origin: r.host.origin } }, (x) => {
        x.resume()
        resolve(x.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end('{}')
    })
    expect(res).toBe(404)
    expect(new URL(r.phone.base).port).not.toBe(String(r.host.port))
  })
})
