/**
 * The phone's page after pairing (issue 31, item 14), in real Chromium with a mobile second context:
 * the desktop's panel says how long the link lasts and stops showing it once it expired, the
 * "one document" control is a touch target of at least 44 × 44 px, each photo's line follows it
 * to the record the server made, and a phone whose pairing ended says so in a sentence (on the
 * open page and after a reload), never a browser error page.
 */
import { expect, it } from 'vitest'
import { PHONE_NOT_PAIRED } from '../../contract/phone'
import { phoneJpeg } from '../prepare/photos'
import { oneBusiness } from './helpers'
import { IPHONE, openPanel, openWithPanel } from './phone-page'
import { E2E_TIMEOUT, describeE2E, onScreen, until } from './suite'

const KEY = 'svc_sk_e2e_phone_follow_0001'
const { fixtures, profiles } = oneBusiness('b-phone', 'Phone Foods', KEY, 100)

describeE2E('the phone after pairing', (t) => {
  it(
    'follows each photo to its record, has a large "one document" control, and says when its pairing ended',
    async () => {
      const { desktop, link } = await openWithPanel(t, { fixtures, profiles })
      const panel = desktop.getByRole('region', { name: 'Add from phone' })
      expect(await panel.textContent()).toMatch(/For one phone, within 10 minutes \(until \d{1,2}:\d{2}(:\d{2})?( ?[AP]M)?\)/)

      const phone = await t.openPage(IPHONE)
      await phone.goto(link)
      await desktop.getByRole('button', { name: 'Allow' }).click()
      await until(() => phone.locator('#status').textContent()).toMatch(/^Paired/)

      // "One document": its label is the whole row, a touch target of at least 44 × 44 px around the box.
      const hit = await phone.evaluate(() => {
        const box = document.getElementById('onedoc') as HTMLInputElement
        const areas = [...(box.labels ?? [])].map((l) => l.getBoundingClientRect())
        const b = box.getBoundingClientRect()
        const best = areas.sort((x, y) => y.width * y.height - x.width * x.height)[0]!
        return {
          width: best.width,
          height: best.height,
          holdsBox: best.left <= b.left && best.top <= b.top && best.right >= b.right && best.bottom >= b.bottom,
        }
      })
      expect(hit.width).toBeGreaterThanOrEqual(44)
      expect(hit.height).toBeGreaterThanOrEqual(44)
      expect(hit.holdsBox).toBe(true)
      // A tap anywhere on the row ticks it.
      const row = (await phone.locator('label.check').boundingBox())!
      await phone.touchscreen.tap(row.x + row.width - 4, row.y + row.height - 4)
      expect(await phone.locator('#onedoc').isChecked()).toBe(true)
      await phone.touchscreen.tap(row.x + row.width - 4, row.y + 4)
      expect(await phone.locator('#onedoc').isChecked()).toBe(false)

      // A photo's line follows it: queued, then the record the server made.
      const photo = await phoneJpeg({ width: 900, height: 1200, label: 'FOLLOW' })
      await phone.setInputFiles('#camera', [{ name: 'IMG_0101.JPG', mimeType: 'image/jpeg', buffer: photo }])
      await until(() => phone.locator('#photos li .photo__what').allTextContents(), 30_000).toEqual([
        'Done: the server made a record of it (expense).',
      ])
      // The same photo again: what the computer did with it.
      await phone.setInputFiles('#camera', [{ name: 'IMG_0101.JPG', mimeType: 'image/jpeg', buffer: photo }])
      await until(() => phone.locator('#photos li .photo__what').first().textContent(), 30_000).toBe('Already sent before: not sent again.')
      await t.shot('phone-followed', phone)

      // The desktop ends the pairing: the open page says so, with no photo sent.
      await panel.getByRole('button', { name: /^End: / }).click()
      await until(() => phone.locator('#status').textContent(), 20_000).toBe(PHONE_NOT_PAIRED)
      expect(await phone.locator('#send').isHidden()).toBe(true)
      // A reload: the page, saying the same sentence; its requests answer it too.
      await phone.reload()
      await until(() => phone.locator('#status').textContent()).toBe(PHONE_NOT_PAIRED)
      const answer = await phone.evaluate(async () => {
        const r = await fetch('/photos')
        return { status: r.status, body: (await r.json()) as unknown }
      })
      expect(answer).toEqual({ status: 403, body: { error: PHONE_NOT_PAIRED, kind: 'session' } })
      await t.a11y('the phone page once its pairing ended', phone)
      await t.shot('phone-ended', phone)
    },
    E2E_TIMEOUT,
  )

  it(
    'counts down the link’s time on the desktop and stops showing it once it expired',
    async () => {
      const app = await t.app({ fixtures, profiles, phoneListen: '127.0.0.1' })
      const desktop = t.page
      await desktop.clock.install()
      await desktop.goto(app.host.url)
      await onScreen(desktop, 'Capture')
      await openPanel(desktop)
      const panel = desktop.getByRole('region', { name: 'Add from phone' })
      expect(await panel.textContent()).toMatch(/within 10 minutes \(until /)
      await desktop.clock.fastForward('04:00')
      await until(() => panel.textContent()).toMatch(/within 6 minutes \(until /)
      await desktop.clock.fastForward('06:30')
      await until(() => panel.textContent()).toContain('The link was used or has expired. Make a new one for the next phone.')
      expect(await panel.getByRole('img', { name: 'QR code of the link for the phone' }).count()).toBe(0)
    },
    E2E_TIMEOUT,
  )
})
