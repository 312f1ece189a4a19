/**
 * Settings › Data folder (issue 31): the folder's size per part, and "Free space", which deletes
 * the local copies no unfinished upload needs and says what it freed; the history keeps the row.
 */
import { access } from 'node:fs/promises'
import { expect, it } from 'vitest'
import { oneBusiness } from './helpers'
import { E2E_TIMEOUT, describeE2E, goTo, until } from './suite'

const { fixtures, profiles } = oneBusiness('b-data', 'Data Bakery', 'svc_sk_e2e_data_folder_0001', 0)

describeE2E('the data folder in Settings', (t) => {
  it(
    'shows the size of each part, and "Free space" deletes the copies of ended uploads and says how much it freed',
    async () => {
      const { app, page } = await t.open({ fixtures, profiles })
      const svc = app.host.service
      // A receipt added in the browser: Bookdrop keeps its copy in the data folder.
      const text = `RECEIPT\nData Bakery\nTotal 1,250.00 NGN\n${'bread '.repeat(300)}`
      await svc.addFileContents({
        target: 'expenses',
        files: [{ name: 'bread.txt', base64: Buffer.from(text).toString('base64') }],
      })
      await until(async () => (await svc.history({ statuses: ['completed'] })).total).toBe(1)
      const [row] = (await svc.history({})).rows
      await access(row!.path)
      // The same receipt added again: a duplicate, whose copy waits in case the person sends it anyway.
      await svc.addFileContents({
        target: 'expenses',
        files: [{ name: 'bread again.txt', base64: Buffer.from(text).toString('base64') }],
      })
      await until(async () => (await svc.history({ statuses: ['duplicate'] })).total).toBe(1)

      await goTo(page, /Settings/, 'Settings')
      const section = page.getByRole('region', { name: 'Data folder' })
      const sizes = section.getByRole('table', { name: 'Data folder size' })
      const part = (name: string) => sizes.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell')
      await until(() => part('Files added in the browser').textContent()).toMatch(/^\d+(\.\d)? KB$/)
      await until(() => part('History database').textContent()).toMatch(/^\d+(\.\d)? (KB|MB)$/)
      for (const name of ['Prepared photos', 'Mail attachments', 'From phones', 'Exports']) {
        expect(await part(name).textContent()).toBe('0 B')
      }
      await expect(section.getByLabel(/Keep local copies for \(days\)/).inputValue()).resolves.toBe('30')
      await t.a11y('Settings with the data folder')

      await section.getByRole('button', { name: 'Free space' }).click()
      await until(() => section.getByRole('status').last().textContent()).toMatch(/^Freed \d+(\.\d)? KB \(2 files\)\.$/)
      await until(() => part('Files added in the browser').textContent()).toBe('0 B')
      await expect(access(row!.path)).rejects.toThrow()
      // The uploads stay in the history, which says their local copy was removed.
      expect((await svc.history({})).rows.map((r) => r.localCopyRemoved)).toEqual([true, true])
      await t.shot()

      // Nothing more to free.
      await section.getByRole('button', { name: 'Free space' }).click()
      await until(() => section.getByRole('status').last().textContent()).toBe('Nothing to free: every local copy is still needed.')

      // "Send anyway" on the duplicate says the copy is gone and what to do.
      await goTo(page, /Upload history/, 'Upload history')
      const dupCell = page.getByRole('cell', { name: /bread again\.txt/ }).and(page.locator('[title]')).first()
      await until(() => dupCell.getAttribute('title')).toBe('local copy removed')
      await page.getByRole('button', { name: 'Send anyway: bread again.txt' }).click()
      await until(() => page.getByRole('alert').last().textContent()).toMatch(
        /local copy of this receipt was removed.*add the file again/,
      )
    },
    E2E_TIMEOUT,
  )
})
