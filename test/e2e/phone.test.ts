/**
 * Receipts from the phone (issue 25), in real Chromium: the desktop's Capture screen through the web
 * host, and the phone's page on a second browser context with mobile emulation (a 390 × 844 touch
 * device), talking to the phone listener on 127.0.0.1. Pairing through the link, Allow on the desktop,
 * three photos (a HEIC, a large JPEG turned by EXIF, a PDF) → three creates of the prepared bytes;
 * "one document" of three photos → one create of a three-page PDF; a reused link and Refuse honoured.
 * The refusals a browser cannot make (a foreign Host, a forged cookie) are in test/phone/listener.test.ts.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { PHOTO_DEFAULTS, PhotoPreparer } from '../../src-main/core/prepare/preparer'
import { heic, look, pdfPages, phoneJpeg, receiptPdf } from '../prepare/photos'
import { checkA11y, oneBusiness, sandboxCreates } from './helpers'
import { IPHONE, openPanel, openWithPanel } from './phone-page'
import { E2E_TIMEOUT, describeE2E, onScreen, until } from './suite'

const KEY = 'svc_sk_e2e_phone_business_0001'
const { fixtures, profiles } = oneBusiness('b-phone', 'Phone Foods', KEY, 100)

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

/** What the photos become, prepared here by the same code with the default settings, as digests. */
async function expectedDigests(files: Buffer[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bookdrop-e2e-expect-'))
  const photos = new PhotoPreparer(dir, () => PHOTO_DEFAULTS)
  try {
    const out: string[] = []
    for (const f of files) {
      const p = await photos.prepareBytes(f)
      out.push(sha(p.kind === 'prepared' ? p.bytes : f))
    }
    return out
  } finally {
    await photos.close()
    await rm(dir, { recursive: true, force: true })
  }
}

/** The phone's list: each photo's line of outcome, newest first. */
function outcomes(phone: Page): Promise<string[]> {
  return phone.locator('#photos li .photo__what').allTextContents()
}

describeE2E('receipts from the phone', (t) => {
  it(
    'pairs a phone through the link, allows it on the desktop, and sends a HEIC, a turned JPEG and a PDF prepared',
    async () => {
      const { app, page: desktop } = await t.open({ fixtures, profiles, phoneListen: '127.0.0.1' })
      await onScreen(desktop, 'Capture')
      await t.a11y('the capture screen with "Add from phone"')
      const link = await openPanel(desktop)
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#t=[A-Za-z0-9_-]{27}$/)
      await t.a11y('the capture screen with the phone panel open')
      await t.shot('desktop-link')

      // The phone: a second browser context, an iPhone in portrait.
      const phone = await t.openPage(IPHONE)
      await phone.goto(link)
      await until(() => phone.locator('#status').textContent()).toMatch(/^Check that the computer shows the code \d{4}, then choose Allow there\.$/)
      const code = (await phone.locator('#code').textContent())!
      expect(new URL(phone.url()).hash).toBe('') // the spent token is gone from the address bar
      await t.a11y('the phone page waiting for Allow', phone)

      // The desktop asks, with the phone's name and its code.
      const ask = desktop.getByRole('group', { name: /A phone wants to send receipts: iPhone · Safari/ })
      await ask.waitFor()
      expect(await ask.textContent()).toContain(code)
      await t.shot('desktop-ask')
      await ask.getByRole('button', { name: 'Allow' }).click()
      await until(() => phone.locator('#status').textContent()).toBe('Paired: photos go to Phone Foods Ltd. Take a photo of each receipt.')
      await checkA11y(phone, 'the phone page, paired')
      // Large touch targets, and nothing wider than the phone.
      const targets = await phone.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.camera, select, textarea, button:not([hidden]), .check')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => ({ what: e.id || e.className || e.tagName, h: e.getBoundingClientRect().height })),
      )
      expect(targets.filter((x) => x.h < 48)).toEqual([])
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

      const heicBytes = heic()
      const turned = await phoneJpeg({ width: 3024, height: 4032, label: 'FUEL' })
      const pdf = await receiptPdf('Taxi to the airport')
      const expected = await expectedDigests([heicBytes, turned, pdf])
      await phone.setInputFiles('#camera', [
        { name: 'IMG_0001.HEIC', mimeType: 'image/heic', buffer: heicBytes },
        { name: 'IMG_0002.JPG', mimeType: 'image/jpeg', buffer: turned },
        { name: 'taxi.pdf', mimeType: 'application/pdf', buffer: pdf },
      ])
      // Each line follows its photo to the record the server made (test/e2e/phone-follow.test.ts).
      await until(() => outcomes(phone), 60_000).toEqual(Array(3).fill('Done: the server made a record of it (expense).'))
      await t.shot('phone-sent', phone)

      // Three creates on the emulator, each with the prepared bytes.
      await until(async () => (await sandboxCreates(app.sb!, '/expenses')).length, 30_000).toBe(3)
      const creates = await sandboxCreates(app.sb!, '/expenses')
      const got = new Map(creates.map((c) => [c.attachments[0]!.name, c.attachments[0]!.sha256]))
      expect(got).toEqual(new Map([['IMG_0001.jpg', expected[0]], ['IMG_0002.jpg', expected[1]], ['taxi.pdf', expected[2]]]))
      // The turned photo went upright, scaled and without its location.
      const rows = (await app.host.service.history({})).rows
      const jpegRow = rows.find((r) => r.name === 'IMG_0002.jpg')!
      expect(jpegRow).toMatchObject({ source: 'phone', size: turned.length })
      expect(await look(await readFile(jpegRow.preparedPath!))).toMatchObject({ width: 1800, height: 2400, gps: false, exif: false })

      // The desktop lists the phone and what it sent; the history shows both sizes.
      const panel = desktop.getByRole('region', { name: 'Add from phone' })
      await until(() => panel.locator('.phone__paired').textContent()).toMatch(/iPhone · Safari · code \d{4} · 3 sent to Phone Foods Ltd/)
      const row = desktop.locator('.upload-list .upload-row').filter({ hasText: 'IMG_0002.jpg' })
      await until(() => row.locator('.upload-row__meta').textContent()).toMatch(/Expenses \(receipts\) · \d+(\.\d)? MB → \d+ KB/)
      await t.shot('desktop-after')
    },
    E2E_TIMEOUT,
  )

  it(
    '"one document": three photos become one create of a three-page PDF',
    async () => {
      const { app, desktop, link } = await openWithPanel(t, { fixtures, profiles })
      const phone = await t.openPage(IPHONE)
      await phone.goto(link)
      await desktop.getByRole('button', { name: 'Allow' }).click()
      await until(() => phone.locator('#status').textContent()).toMatch(/^Paired/)

      await phone.getByLabel('One document: several pages').check()
      const pages = [
        await phoneJpeg({ width: 1200, height: 1600, label: 'BILL 1/3' }),
        await phoneJpeg({ width: 1200, height: 1600, label: 'BILL 2/3' }),
      ]
      // Page by page, as a camera takes them: two picks, then a third.
      await phone.setInputFiles('#camera', [
        { name: 'page1.jpg', mimeType: 'image/jpeg', buffer: pages[0]! },
        { name: 'page2.jpg', mimeType: 'image/jpeg', buffer: pages[1]! },
      ])
      await phone.setInputFiles('#camera', [{ name: 'page3.heic', mimeType: 'image/heic', buffer: heic() }])
      await until(() => phone.locator('#doc-count').textContent()).toBe('3 pages ready (at most 20).')
      await checkA11y(phone, 'the phone page with three pages of one document')
      await t.shot('phone-pages', phone)
      await phone.getByRole('button', { name: 'Send as one document' }).click()
      await until(() => outcomes(phone), 60_000).toEqual([
        'Done: the server made a record of it (expense).',
        'Received. Page 2 of 3: waiting for the other pages.',
        'Received. Page 1 of 3: waiting for the other pages.',
      ])

      await until(async () => (await sandboxCreates(app.sb!, '/expenses')).length, 30_000).toBe(1)
      const [create] = await sandboxCreates(app.sb!, '/expenses')
      const [row] = (await app.host.service.history({})).rows
      expect(row).toMatchObject({ source: 'phone', name: create!.attachments[0]!.name })
      const sent = await readFile(row!.path)
      expect(create!.attachments[0]!.sha256).toBe(sha(sent))
      expect(await pdfPages(sent)).toBe(3)
      await t.shot('phone-document', phone)
    },
    E2E_TIMEOUT,
  )

  it(
    'refuses a link used once, and honours the desktop’s Refuse',
    async () => {
      const { desktop, link } = await openWithPanel(t, { fixtures, profiles })
      const first = await t.openPage(IPHONE)
      await first.goto(link)
      await until(() => first.locator('#status').textContent()).toMatch(/^Check that the computer shows the code/)

      // The same link on another phone: spent.
      const second = await t.openPage(IPHONE)
      await second.goto(link)
      await until(() => second.locator('#status').textContent()).toBe(
        'This link was already used (each link pairs one phone once): choose "New link" on the computer.',
      )
      expect(await second.locator('#send').isHidden()).toBe(true)
      await checkA11y(second, 'the phone page with a used link')

      // The desktop refuses the first phone: it is told, and it gets no camera.
      const ask = desktop.getByRole('group', { name: /A phone wants to send receipts/ })
      await ask.getByRole('button', { name: 'Refuse' }).click()
      await until(() => first.locator('#status').textContent()).toMatch(/refused this phone/)
      expect(await first.locator('#send').isHidden()).toBe(true)
      await until(() => desktop.getByRole('group', { name: /A phone wants to send receipts/ }).count()).toBe(0)

      // "New link" for the next phone; closing the panel ends it all.
      const panel = desktop.getByRole('region', { name: 'Add from phone' })
      await until(() => panel.textContent()).toContain('The link was used or has expired')
      await panel.getByRole('button', { name: 'New link' }).click()
      const next = (await panel.locator('.phone__url').textContent())!
      expect(next).not.toBe(link)
      await panel.getByRole('button', { name: 'Close' }).click()
      await panel.getByRole('button', { name: 'Add from phone' }).waitFor()
      const third = await t.openPage(IPHONE)
      await expect(third.goto(next)).rejects.toThrow(/ERR_CONNECTION_REFUSED/)
    },
    E2E_TIMEOUT,
  )
})
