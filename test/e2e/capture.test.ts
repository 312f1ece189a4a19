/**
 * Getting files in (issue 4): three files added with the file picker and three dropped with a real
 * DataTransfer, a watched folder picking up a new file, and a 429 burst that visibly pauses the
 * queue and recovers. Every file is checked on the emulator: created exactly once.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { oneBusiness, receiptText, sandboxCreates, statusBarProblems } from './helpers'
import { E2E_TIMEOUT, describeE2E, goTo, onScreen, rowStatus, until } from './suite'

const KEY = 'svc_sk_e2e_capture_business_0001'
const { fixtures, profiles } = oneBusiness('b-capture', 'Capture Foods', KEY, 150)

function files(...names: string[]) {
  return names.map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(receiptText(name)) }))
}

describeE2E('capture', (t) => {
  it(
    'three files added with the picker and three dropped on the drop zone all reach completed',
    async () => {
      const { app, page } = await t.openAt('Capture', { fixtures, profiles })
      await t.a11y('the capture screen')

      // The picker: the drop zone's hidden <input type=file multiple>.
      const picked = ['taxi-lagos.txt', 'lunch-meeting.txt', 'printer-ink.txt']
      await page.getByLabel('Files to add').setInputFiles(files(...picked))
      for (const name of picked) await until(() => rowStatus(page, name)).toBe('Completed')
      await until(() => page.getByTestId('batch-summary').textContent()).toBe('3 sent')

      // A real drag and drop: a DataTransfer holding three File objects, dispatched on the zone.
      const dropped = ['diesel-generator.txt', 'flour-50kg.txt', 'market-levy.txt']
      const dt = await page.evaluateHandle(
        (list) => {
          const data = new DataTransfer()
          for (const f of list) data.items.add(new File([f.text], f.name, { type: 'text/plain' }))
          return data
        },
        dropped.map((name) => ({ name, text: receiptText(name) })),
      )
      const zone = page.locator('.dropzone')
      await zone.dispatchEvent('dragenter', { dataTransfer: dt })
      await zone.dispatchEvent('dragover', { dataTransfer: dt })
      await until(() => zone.locator('.dropzone__title').textContent()).toBe('Release to add')
      await t.shot('dragging')
      await zone.dispatchEvent('drop', { dataTransfer: dt })
      await until(() => zone.locator('.dropzone__title').textContent()).toBe(
        'Drop receipts and documents here',
      )
      for (const name of dropped) await until(() => rowStatus(page, name)).toBe('Completed')

      const status = page.getByRole('contentinfo', { name: 'Status' })
      await until(() => status.textContent()).toMatch(/0 files waiting.*6 done/s)
      expect(await statusBarProblems(page)).toEqual([])
      await t.a11y('the capture screen after six uploads')
      await t.shot()

      // Each file reached the server exactly once.
      const creates = await sandboxCreates(app.sb!, '/expenses')
      expect(creates.map((c) => c.attachments[0]?.name).sort()).toEqual([...picked, ...dropped].sort())
    },
    E2E_TIMEOUT,
  )

  it(
    'a watched folder (path typed in the web host) picks up a file written into it',
    async () => {
      const app = await t.app({ fixtures, profiles })
      const folder = join(app.dir, 'Receipts')
      await mkdir(folder)
      const page = t.page
      await page.goto(app.host.url)
      await onScreen(page, 'Capture')

      await goTo(page, /Watched folders/, 'Watched folders')
      await page.getByText('No folder is watched for this profile yet.').waitFor()
      await t.a11y('the watched folders screen (empty)')

      await page.getByRole('button', { name: 'Add folder' }).first().click()
      const form = page.getByRole('region', { name: 'Add a watched folder' })
      await form.getByLabel('Folder (required)', { exact: true }).fill(folder)
      await t.a11y('the add-folder form')
      await form.getByRole('button', { name: 'Start watching' }).click()

      const card = page.locator('.folder').filter({ hasText: folder })
      await until(() => card.locator('.folder__state').textContent()).toBe('Watching')
      await t.a11y('the watched folders screen (watching)')

      await writeFile(join(folder, 'fuel-receipt.txt'), receiptText('fuel'))

      await goTo(page, /Capture/, 'Capture')
      await until(() => rowStatus(page, 'fuel-receipt.txt')).toBe('Completed')
      await t.a11y('the capture screen with the watched file')
      await t.shot()

      const creates = await sandboxCreates(app.sb!, '/expenses')
      expect(creates.map((c) => c.attachments[0]?.name)).toEqual(['fuel-receipt.txt'])
    },
    E2E_TIMEOUT,
  )

  it(
    'a 429 burst visibly pauses the uploads, which then recover and complete',
    async () => {
      const { app, page } = await t.openAt('Capture', { fixtures, profiles })
      const status = page.getByRole('contentinfo', { name: 'Status' })
      await until(() => status.textContent()).toContain('Connected')

      // The next two API requests are refused with 429 and "wait 2 s".
      app.sb!.setFaults({ burst_429: 2, burst_wait_seconds: 2 })
      const names = ['burst-a.txt', 'burst-b.txt', 'burst-c.txt']
      await page.getByLabel('Files to add').setInputFiles(files(...names))

      // Paused, and it says so: the status bar, and a file waiting to retry.
      await until(() => status.textContent()).toMatch(/Rate limited.*slow down.*paused until .+ \(\d+ s\)/s)
      await until(async () => {
        for (const n of names) if ((await rowStatus(page, n)) === 'Waiting to retry') return true
        return false
      }).toBe(true)
      await t.shot('paused')
      expect(await statusBarProblems(page), 'the status bar while paused').toEqual([])
      await t.a11y('the capture screen while rate limited')

      // Recovered: every file completed, the status bar back to connected, nothing sent twice.
      for (const n of names) await until(() => rowStatus(page, n), 30_000).toBe('Completed')
      await until(() => status.textContent()).toMatch(/Connected/)
      expect(await status.textContent()).not.toMatch(/Rate limited|paused until/)
      await t.shot()
      const creates = await sandboxCreates(app.sb!, '/expenses')
      expect(creates.map((c) => c.attachments[0]?.name).sort()).toEqual(names)
      const faults = (await (await fetch(`${app.sb!.origin}/_sandbox/faults`)).json()) as {
        data: { burst_429: number }
      }
      expect(faults.data.burst_429).toBe(0) // both 429s were actually served
    },
    E2E_TIMEOUT,
  )
})
