/**
 * Every part of a mail that looks like a document is accounted for (issue 31): a receipt that is
 * skipped (an empty PDF) leaves nothing to send, so the mail is marked as its rule says; parts of a
 * kind the rule does not take (an invite, an archive, a Word file) each get a skipped row with
 * their reason and a line; and a different mail that reuses a Message-ID is sent, while a true
 * second copy of one mail is not. Real Dovecot, the headless CLI, the emulator over HTTP, the data
 * folder's SQLite read after the run.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { Db } from '../../src-main/core/store/db'
import type { Upload } from '../../src-main/core/store/uploads'
import { UploadStore } from '../../src-main/core/store/uploads'
import { HEADLESS_CLI, type Run, rigArgs, runCommand, useHeadlessRig } from '../engine/headless-helpers'
import { KEY, createdBySha } from '../engine/helpers'
import { describeMail, imapUrl, MAIL_PASSWORD, useDovecot } from './dovecot'
import { mime, receiptPdf } from './mime'

const rig = useHeadlessRig('bookdrop-mail-parts-')
const dv = useDovecot()

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')
const url = (mailbox: string) => imapUrl(dv.server.port, mailbox)
const base = (data: string) => rigArgs(rig, data)

function run(args: string[]): Run {
  return runCommand([...HEADLESS_CLI, ...args], {
    ...process.env,
    BOOKDROP_API_KEY: KEY,
    BOOKDROP_MAIL_PASSWORD: MAIL_PASSWORD,
  })
}

/** The upload rows of a data folder, read from its SQLite after the run. */
function rowsOf(data: string): Upload[] {
  const db = new Db(join(rig.dir, data, 'bookdrop.db'))
  try {
    return [...new UploadStore(db).iterate({})]
  } finally {
    db.close()
  }
}

const OTHERS: [string, string][] = [
  ['invite.ics', 'ics'],
  ['photos.zip', 'zip'],
  ['terms.docx', 'docx'],
]

describeMail('every part of a mail accounted for', () => {
  it('a mail whose only receipt is an empty PDF is marked as the rule says, with a skipped row and a line', async () => {
    const box = 'EmptyPdf'
    await dv.server.append(
      box,
      mime({
        subject: 'Empty invoice',
        text: 'attached',
        attachments: [{ filename: 'empty.pdf', type: 'application/pdf', content: Buffer.alloc(0) }],
      }),
    )
    const r = run(['--mail', url(box), ...base('empty'), '--mail-after', 'move:EmptyDone', '--once'])
    expect(await r.exit, r.out()).toBe(0)
    expect(r.out()).toMatch(/skipped\s+#\d+ empty\.pdf: The attachment is an empty file/)
    const rows = rowsOf('empty')
    expect(rows.map((u) => [u.name, u.status, u.reason])).toEqual([['empty.pdf', 'skipped', 'empty']])
    // Nothing is left to send: the rule's after-action (moved), not unread forever.
    expect((await dv.server.mailbox(box)).mails).toEqual([])
    expect((await dv.server.mailbox('EmptyDone')).mails.map((m) => m.subject)).toEqual(['Empty invoice'])
  }, 60_000)

  it('parts of kinds the rule does not take (.ics, .zip, .docx) each get a skipped row with the reason, and a line', async () => {
    const box = 'OtherKinds'
    const pdf = await receiptPdf('Hotel Ltd\nTotal NGN 42,000.00')
    await dv.server.append(
      box,
      mime({
        subject: 'Booking',
        text: 'Your booking, invoice and invite.',
        attachments: [
          { filename: 'invoice.pdf', type: 'application/pdf', content: pdf },
          { filename: 'invite.ics', type: 'text/calendar', content: Buffer.from('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n') },
          { filename: 'photos.zip', type: 'application/zip', content: Buffer.from('PK\u0005\u0006' + '\u0000'.repeat(18)) },
          {
            filename: 'terms.docx',
            type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
            content: Buffer.from('PK\u0003\u0004 not really a document'),
          },
        ],
      }),
    )
    const r = run(['--mail', url(box), ...base('kinds'), '--once'])
    expect(await r.exit, r.out()).toBe(0)
    expect((await createdBySha(rig.sb)).get(sha(pdf))).toBe(1)
    for (const [name, kind] of OTHERS)
      expect(r.out()).toMatch(new RegExp(`skipped\\s+#\\d+ ${name.replace('.', '\\.')}: Not a receipt kind: \\.${kind}`))
    const rows = rowsOf('kinds')
    const byName = new Map(rows.map((u) => [u.name, u]))
    expect(byName.get('invoice.pdf')?.status).toBe('completed')
    for (const [name, kind] of OTHERS) {
      const u = byName.get(name)
      expect(u?.status, name).toBe('skipped')
      expect(u?.reason).toBe('unsupported_kind')
      expect(u?.lastError).toMatch(new RegExp(`^Not a receipt kind: \\.${kind}`))
    }
    expect(rows).toHaveLength(4)
    // The receipt has its record and nothing else is left to send: the mail is marked.
    expect((await dv.server.mailbox(box)).mails.map((m) => [m.subject, m.seen])).toEqual([['Booking', true]])
  }, 60_000)

  it('two different mails with one Message-ID and the same part layout are both sent; a true second copy once', async () => {
    const box = 'ReusedId'
    // Padded to the same size, so the part number and size of the two PDFs are the same.
    const a = await receiptPdf('Vendor A\nTotal NGN 1,111.00', 4000)
    const b = await receiptPdf('Vendor B\nTotal NGN 2,222.00', 4000)
    expect(a.length).toBe(b.length)
    expect(sha(a)).not.toBe(sha(b))
    const mail = (subject: string, content: Buffer) =>
      mime({
        subject,
        messageId: '<reused@mailer.test>',
        text: 'Your receipt.',
        attachments: [{ filename: 'receipt.pdf', type: 'application/pdf', content }],
      })
    const first = mail('Receipt', a)
    await dv.server.append(box, first)
    await dv.server.append(box, mail('Receipt', b))
    // The first mail again (a true second copy, filed in another mailbox).
    await dv.server.append('ReusedCopy', first)
    const r = run(['--mail', url(box), '--mail', url('ReusedCopy'), ...base('reused'), '--once'])
    expect(await r.exit, r.out()).toBe(0)
    const made = await createdBySha(rig.sb)
    expect(made.get(sha(a)), r.out()).toBe(1)
    expect(made.get(sha(b)), r.out()).toBe(1)
    expect((await dv.server.mailbox(box)).mails.map((m) => m.seen)).toEqual([true, true])
    expect((await dv.server.mailbox('ReusedCopy')).mails.map((m) => m.seen)).toEqual([true])
  }, 60_000)
})
