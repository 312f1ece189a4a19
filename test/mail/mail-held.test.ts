/**
 * Issue 33 with mail: the same PDF bytes from a folder and then a mail make one record; a mail
 * whose part is held as a possible duplicate is marked seen only once that part is decided
 * (Discard, or Send anyway and its record). Real Dovecot, the emulator over HTTP, real SQLite,
 * PDFs made by the test.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { PROFILE, type Rig, creates, useRigs, waitFor } from '../engine/helpers'
import { receipt, receiptPdf } from '../fingerprint/receipts'
import { describeMail, useDovecot } from './dovecot'
import { mailRig as heldMailRig, mailRule, receiptsMail } from './held-mail'

const dv = useDovecot()
const rigs = useRigs()

const rule = (r: Rig, mailbox: string) => mailRule(r, dv.server.port, mailbox)
const mailRig = () => heldMailRig(rigs)
const pdfMail = receiptsMail

const seen = async (mailbox: string, subject: string) =>
  (await dv.server.mailbox(mailbox)).mails.find((m) => m.subject === subject)?.seen ?? false

const mailRows = (r: Rig) => r.engine.history({ sources: ['mail'] }).rows

describeMail('possible duplicates and mail (issue 33)', () => {
  it('the same PDF bytes from a watched folder, then by mail: one record, and the mail is marked', async () => {
    const r = await mailRig()
    const bytes = await receiptPdf(receipt(2, 31), 0)
    await writeFile(join(r.inbox, 'shop.pdf'), bytes)
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await waitFor('the folder file sent', () => r.engine.history({ sources: ['watch'] }).rows[0]?.status === 'completed')
    await dv.server.append('Same', pdfMail('Same bytes', [{ name: 'shop.pdf', bytes }]))
    await rule(r, 'Same')
    await waitFor('the mail part taken', () => mailRows(r)[0]?.status === 'duplicate')
    await waitFor('the mail marked seen', () => seen('Same', 'Same bytes'))
    expect(await creates(r.sb)).toHaveLength(1)
  }, 30_000)

  it('a mail with a held part is marked only once that part is decided: Discard, or Send anyway and its record', async () => {
    const r = await mailRig()
    const rcA = receipt(0, 41)
    const rcB = receipt(4, 42)
    await writeFile(join(r.inbox, 'a.pdf'), await receiptPdf(rcA, 0))
    await writeFile(join(r.inbox, 'b.pdf'), await receiptPdf(rcB, 0))
    await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
    await waitFor('both folder files sent', () => {
      const rows = r.engine.history({ sources: ['watch'] }).rows
      return rows.length === 2 && rows.every((u) => u.status === 'completed')
    })
    // Two mails, each a re-download of one of them plus a receipt of its own.
    await dv.server.append('Held', pdfMail('Discard me', [
      { name: 'a (1).pdf', bytes: await receiptPdf(rcA, 1) },
      { name: 'new-1.pdf', bytes: await receiptPdf(receipt(5, 43), 0) },
    ]))
    await dv.server.append('Held', pdfMail('Send me', [
      { name: 'b (1).pdf', bytes: await receiptPdf(rcB, 1) },
      { name: 'new-2.pdf', bytes: await receiptPdf(receipt(6, 44), 0) },
    ]))
    const account = await rule(r, 'Held')
    const settledRows = await waitFor('new parts recorded, near matches held', () => {
      const rows = mailRows(r)
      const by = new Map(rows.map((u) => [u.name, u]))
      return rows.length === 4 &&
        by.get('new-1.pdf')?.status === 'completed' &&
        by.get('new-2.pdf')?.status === 'completed' &&
        by.get('a (1).pdf')?.status === 'held' &&
        by.get('b (1).pdf')?.status === 'held'
        ? by
        : null
    })
    // Read again: nothing new, and the held parts still keep their mails open.
    await (await r.engine.mail()).checkNow(account.id)
    await new Promise((res) => setTimeout(res, 500))
    expect(await seen('Held', 'Discard me')).toBe(false)
    expect(await seen('Held', 'Send me')).toBe(false)
    expect(await creates(r.sb)).toHaveLength(4)

    r.engine.held.discard(settledRows.get('a (1).pdf')!.id)
    await waitFor('the first mail marked once its held part is discarded', () => seen('Held', 'Discard me'))
    expect(await seen('Held', 'Send me')).toBe(false)

    await r.engine.retry(settledRows.get('b (1).pdf')!.id)
    await waitFor('the second mail marked once its part sent anyway has its record', () => seen('Held', 'Send me'))
    expect(await creates(r.sb)).toHaveLength(5)
  }, 60_000)
})
