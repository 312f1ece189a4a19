/**
 * Mail intake as a person runs it (issue 24): the headless CLI as a real child process, a real
 * Dovecot over IMAP on loopback (mails put there by APPEND), the emulator over HTTP. Each test uses
 * a mailbox of its own and a data folder of its own.
 */
import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { mailSecretAccount } from '../../src-main/core/mail/config'
import { openSecretStore } from '../../src-main/core/secrets'
import { HEADLESS_CLI, type Run, rigArgs, runCommand, useHeadlessRig } from '../engine/headless-helpers'
import { keychainTitle, skipKeychain } from '../secrets/keychain-helpers'
import { KEY, createdBySha, creates, receipt } from '../engine/helpers'
import { describeMail, imapUrl, MAIL_PASSWORD, MAIL_USER, useDovecot } from './dovecot'
import { LOGO_PNG, mime, pdfMail, receiptPdf } from './mime'

const rig = useHeadlessRig('bookdrop-mail-cli-')
const dv = useDovecot()

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')
const user = encodeURIComponent(MAIL_USER)
const url = (mailbox: string, port = dv.server.port) => imapUrl(port, mailbox)

function run(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  return runCommand([...HEADLESS_CLI, ...args], {
    ...process.env,
    BOOKDROP_API_KEY: KEY,
    BOOKDROP_MAIL_PASSWORD: MAIL_PASSWORD,
    ...env,
  })
}

const base = (data: string) => rigArgs(rig, data)

describeMail('headless --mail', () => {
  it('--once: two PDFs in one mail, an inline PDF, a logo-only mail and an HTML-body receipt', async () => {
    const box = 'Kinds'
    const two = [
      await receiptPdf('Flour Mills\nTotal NGN 1,200.00'),
      await receiptPdf('Sugar Co\nTotal NGN 800.00'),
    ]
    const inline = await receiptPdf('Fuel Station\nTotal NGN 9,000.00')
    await dv.server.append(
      box,
      mime({
        subject: 'Invoice and delivery note',
        text: 'attached',
        attachments: [
          { filename: 'invoice.pdf', type: 'application/pdf', content: two[0]! },
          { filename: 'delivery.pdf', type: 'application/pdf', content: two[1]! },
        ],
      }),
    )
    // Apple Mail: the PDF inline, with a file name.
    await dv.server.append(
      box,
      mime({
        subject: 'Fuel receipt',
        text: 'Sent from my iPhone',
        attachments: [
          { filename: 'fuel.pdf', type: 'application/pdf', content: inline, disposition: 'inline' },
        ],
      }),
    )
    await dv.server.append(
      box,
      mime({
        subject: 'Newsletter',
        html: '<img src="cid:logo@shop"><p>Spring offers</p>',
        attachments: [
          {
            filename: 'logo.png',
            type: 'image/png',
            content: LOGO_PNG,
            disposition: 'inline',
            contentId: 'logo@shop',
          },
        ],
      }),
    )
    await dv.server.append(
      box,
      mime({ subject: 'Order #1042 confirmed', html: '<h1>Thanks</h1><p>Total paid NGN 18,500.00</p>' }),
    )

    const r = run(['--mail', url(box), ...base('kinds'), '--once'])
    expect(await r.exit, r.out()).toBe(0)
    const made = await createdBySha(rig.sb)
    for (const b of [...two, inline]) expect(made.get(sha(b)), r.out()).toBe(1)
    expect(r.out()).toMatch(/done\s+#\d+ invoice\.pdf ->/)
    expect(r.out()).toMatch(/done\s+#\d+ fuel\.pdf ->/)
    // The logo is no receipt, nor is the HTML body without --mail-body: skipped, said so.
    expect(r.out()).not.toMatch(/logo\.png/)
    expect(r.out()).toMatch(/skipped\s+#\d+ Newsletter\.txt: No receipt in this mail/)
    expect(r.out()).toMatch(/skipped\s+#\d+ Order #1042 confirmed\.txt: No receipt in this mail/)
    expect(r.out()).toMatch(/summary: 3 completed, 0 failed, 2 skipped/)
    expect(r.out()).not.toContain(MAIL_PASSWORD)
    // Seen once every receipt has its record (the default after-action); the others untouched.
    const after = await dv.server.mailbox(box)
    expect(after.mails.map((m) => [m.subject, m.seen])).toEqual([
      ['Invoice and delivery note', true],
      ['Fuel receipt', true],
      ['Newsletter', false],
      ['Order #1042 confirmed', false],
    ])

    // Run again: nothing is read twice, nothing sent again.
    const again = run(['--mail', url(box), ...base('kinds'), '--once'])
    expect(await again.exit, again.out()).toBe(0)
    expect(again.out()).toMatch(/summary: 0 completed, 0 failed \(0 files\)/)
    const made2 = await createdBySha(rig.sb)
    for (const b of [...two, inline]) expect(made2.get(sha(b))).toBe(1)
  })

  it('--mail-body sends an HTML-body receipt as its text (text_attachment) with the prompt', async () => {
    const box = 'Body'
    await dv.server.append(
      box,
      mime({
        from: 'PackShop <orders@packshop.test>',
        subject: 'Order #2077 confirmed',
        html: '<h1>Thank you</h1><table><tr><td>Cake boxes</td><td>NGN 18,500.00</td></tr></table>',
      }),
    )
    const before = (await creates(rig.sb)).length
    const r = run(['--mail', url(box), ...base('body'), '--mail-body', '--once'])
    expect(await r.exit, r.out()).toBe(0)
    expect(r.out()).toMatch(/done\s+#\d+ Order #2077 confirmed\.txt ->/)
    const made = (await creates(rig.sb)).slice(before)
    expect(made).toHaveLength(1)
    // No file went: the body's text did, and the record was read from it.
    expect(made[0]!.attachments).toEqual([])
    const res = await fetch(`${rig.sb.url}/expenses/${made[0]!.uuid}`, { headers: { 'X-API-Key': KEY } })
    const rec = ((await res.json()) as { data: { amount: number } }).data
    expect(rec.amount).toBe(18500)
    expect((await dv.server.mailbox(box)).mails[0]!.seen).toBe(true)
  })

  it('filters: --mail-from (address or name), --mail-subject, --mail-since, combined with AND', async () => {
    const box = 'Filters'
    const pdfs = await Promise.all([1, 2, 3, 4].map((i) => receiptPdf(`Vendor ${i}\nTotal NGN ${i}00.00`)))
    const old = new Date(Date.now() - 40 * 86_400_000)
    // Sent in this order; the fourth received before --mail-since.
    const mails = [
      { from: 'Flour Mills <billing@flour.test>', subject: 'Invoice 1' },
      { from: 'Other <x@other.test>', subject: 'Invoice 2' },
      { from: 'billing@flour.test', subject: 'Newsletter 3' },
      { from: 'FLOUR MILLS <b@flour.test>', subject: 'INVOICE 4' },
    ]
    for (const [i, m] of mails.entries())
      await dv.server.append(box, pdfMail(`i${i + 1}.pdf`, pdfs[i]!, m), i === 3 ? { date: old } : {})
    const since = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)
    const r = run([
      '--mail',
      url(box),
      ...base('filters'),
      '--mail-from',
      'flour mills',
      '--mail-subject',
      'invoice',
      '--mail-since',
      since,
      '--once',
    ])
    expect(await r.exit, r.out()).toBe(0)
    const made = await createdBySha(rig.sb)
    expect(made.get(sha(pdfs[0]!))).toBe(1)
    expect(made.has(sha(pdfs[1]!))).toBe(false) // another sender
    expect(made.has(sha(pdfs[2]!))).toBe(false) // not an invoice
    expect(made.has(sha(pdfs[3]!))).toBe(false) // received before --mail-since
    expect((await dv.server.mailbox(box)).mails.map((m) => m.seen)).toEqual([true, false, false, false])
  })

  it('--mail-after move:<mailbox> moves into a mailbox it creates; leave changes nothing; never a delete', async () => {
    const pdf = await receiptPdf('Mover Ltd\nTotal NGN 50.00')
    await dv.server.append('MoveMe', pdfMail('m.pdf', pdf, { subject: 'To move' }))
    const r = run(['--mail', url('MoveMe'), ...base('move'), '--mail-after', 'move:Bookdrop/Done', '--once'])
    expect(await r.exit, r.out()).toBe(0)
    expect((await dv.server.mailbox('MoveMe')).mails).toEqual([])
    expect((await dv.server.mailbox('Bookdrop/Done')).mails.map((m) => m.subject)).toEqual(['To move'])

    const pdf2 = await receiptPdf('Leaver Ltd\nTotal NGN 60.00')
    await dv.server.append('LeaveMe', pdfMail('l.pdf', pdf2, { subject: 'To leave' }))
    const l = run(['--mail', url('LeaveMe'), ...base('leave'), '--mail-after', 'leave', '--once'])
    expect(await l.exit, l.out()).toBe(0)
    expect((await createdBySha(rig.sb)).get(sha(pdf2))).toBe(1)
    expect((await dv.server.mailbox('LeaveMe')).mails.map((m) => [m.subject, m.seen])).toEqual([
      ['To leave', false],
    ])
  })

  it('a mail is marked only once every receipt in it has its record: one failed job leaves it untouched', async () => {
    const box = 'HalfFailed'
    const pdf = await receiptPdf('Good Vendor\nTotal NGN 70.00')
    await dv.server.append(
      box,
      mime({
        subject: 'Half',
        attachments: [
          { filename: 'good.pdf', type: 'application/pdf', content: pdf },
          // A statement the emulator refuses to read (its fail marker): that job fails.
          {
            filename: 'bad.csv',
            type: 'text/csv',
            content: Buffer.from('date,amount\n[[sandbox:fail]],1\n'),
          },
        ],
      }),
    )
    const r = run(['--mail', url(box), ...base('half'), '--mail-after', 'move:Done2', '--once'])
    expect(await r.exit, r.out()).toBe(1)
    expect(r.out()).toMatch(/failed: mail "Half" \(bad\.csv\)/)
    expect((await createdBySha(rig.sb)).get(sha(pdf))).toBe(1)
    expect((await dv.server.mailbox(box)).mails.map((m) => [m.subject, m.seen])).toEqual([['Half', false]])
  })

  it('--mail and --watch in one run: both are read, sent and followed', async () => {
    const inbox = await rig.folder('both')
    const file = await receipt(inbox, 'folder.txt')
    const pdf = await receiptPdf('Both Ltd\nTotal NGN 80.00')
    await dv.server.append('Both', pdfMail('both.pdf', pdf, { subject: 'Both' }))
    const r = run(['--watch', inbox, '--mail', url('Both'), ...base('both-data'), '--once'])
    expect(await r.exit, r.out()).toBe(0)
    const made = await createdBySha(rig.sb)
    expect(made.get(file.sha256)).toBe(1)
    expect(made.get(sha(pdf))).toBe(1)
    expect(r.out()).toMatch(/summary: 2 completed, 0 failed \(2 files\)/)
  })

  it('a wrong password, an unknown mailbox, an unreachable server: one line naming the account and what to do, exit 6, nothing marked', async () => {
    const pdf = await receiptPdf('Never Sent\nTotal NGN 90.00')
    await dv.server.append('Refused', pdfMail('n.pdf', pdf, { subject: 'Refused' }))

    const wrong = run(['--mail', url('Refused'), ...base('wrong'), '--once'], {
      BOOKDROP_MAIL_PASSWORD: 'not-the-password',
    })
    expect(await wrong.exit, wrong.out()).toBe(6)
    const lines = wrong
      .out()
      .split('\n')
      .filter((l) => l.includes('refused the user name or password'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`mail account "${MAIL_USER}@127.0.0.1"`)
    expect(lines[0]).toMatch(/app password/)
    expect(wrong.out()).not.toContain('not-the-password')

    const unknown = run(['--mail', url('No/Such/Box'), ...base('unknown'), '--once'])
    expect(await unknown.exit, unknown.out()).toBe(6)
    expect(unknown.out()).toMatch(/there is no mailbox "No\/Such\/Box" on the server/)

    const closed = run(['--mail', url('INBOX', 1), ...base('closed'), '--once'])
    expect(await closed.exit, closed.out()).toBe(6)
    expect(closed.out()).toMatch(/the server 127\.0\.0\.1:1 cannot be reached \(ECONNREFUSED\)/)

    expect((await createdBySha(rig.sb)).has(sha(pdf))).toBe(false)
    expect((await dv.server.mailbox('Refused')).mails.map((m) => m.seen)).toEqual([false])
  }, 60_000)

  it('usage: a password in the URL, a bad --mail-after or --mail-since are refused before anything runs (exit 2)', async () => {
    for (const [args, message] of [
      [['--mail', `imap://${user}:secret@127.0.0.1/INBOX`], /do not put the password in the URL/],
      [['--mail', 'http://x/INBOX'], /starts with imaps:\/\/ \(TLS\) or imap:\/\//],
      [
        ['--mail', url('INBOX'), '--mail-after', 'delete'],
        /--mail-after must be leave, seen or move:<mailbox>/,
      ],
      [
        ['--mail', url('INBOX'), '--mail-since', '31/01/2026'],
        /--mail-since must be a date written YYYY-MM-DD/,
      ],
      [['--mail-from', 'x'], /--watch <dir> or --mail <url> is required/],
    ] as const) {
      const r = run([...args, ...base('usage'), '--once'])
      expect(await r.exit, r.out()).toBe(2)
      expect(r.out()).toMatch(message)
      expect(r.out()).not.toContain('secret')
    }
  })

  it.skipIf(skipKeychain)(keychainTitle('the password from the OS keychain (the entry the Mail screen saves), when BOOKDROP_MAIL_PASSWORD is not set'), async () => {
    const { store, problem } = await openSecretStore()
    expect(problem).toBeNull()
    const entry = mailSecretAccount({ user: MAIL_USER, host: '127.0.0.1', port: dv.server.port })
    await store.set(entry, MAIL_PASSWORD)
    try {
      const pdf = await receiptPdf('Keychain Ltd\nTotal NGN 12.00')
      await dv.server.append('Keychain', pdfMail('k.pdf', pdf, { subject: 'Keychain' }))
      const r = run(['--mail', url('Keychain'), ...base('keychain'), '--once'], { BOOKDROP_MAIL_PASSWORD: '' })
      expect(await r.exit, r.out()).toBe(0)
      expect((await createdBySha(rig.sb)).get(sha(pdf))).toBe(1)
      expect(r.out()).not.toContain(MAIL_PASSWORD)
    } finally {
      await store.delete(entry)
    }
    // Without it (and without the variable): one line saying where to put the password, exit 6.
    const none = run(['--mail', url('Keychain'), ...base('keychain-none'), '--once'], { BOOKDROP_MAIL_PASSWORD: '' })
    expect(await none.exit, none.out()).toBe(6)
    expect(none.out()).toMatch(/no password is saved for receipts@bakery\.test.*BOOKDROP_MAIL_PASSWORD/)
  })
})
