/**
 * Mail intake through the app's contract (issue 24), as the Mail screen and the history use it:
 * accounts and rules saved, the password in the keychain and nowhere else, each account's state
 * (connected, last check, the error with what to do), the history's source filter with sender and
 * subject, Retry / Cancel / "Send anyway" on mail rows, and the demo's inbox (no network).
 * A real Dovecot, the emulator over HTTP, the app service over the bridge.
 */
import { createHash } from 'node:crypto'
import { readFile, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { wordCoded } from '../../contract/i18n/all'
import type { AppRig } from '../app/helpers'
import { addProfile, appRig } from '../app/helpers'
import { createdBySha, waitFor } from '../engine/helpers'
import { describeMail, MAIL_PASSWORD, MAIL_USER, useDovecot } from './dovecot'
import { mime, pdfMail, receiptPdf } from './mime'

const dv = useDovecot()
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')
const open: AppRig[] = []
afterEach(async () => {
  for (const r of open.splice(0)) await r.close()
})
async function rig(o: { demo?: boolean } = {}): Promise<AppRig> {
  const r = await appRig(o)
  open.push(r)
  return r
}

async function rigDemo(): Promise<AppRig> {
  const r = await appRig({ fixtures: null, demo: true })
  open.push(r)
  return r
}

async function account(r: AppRig, profileId: string, o: { password?: string; port?: number } = {}) {
  return r.ok('saveMailAccount', {
    account: {
      profileId,
      host: '127.0.0.1',
      port: o.port ?? dv.server.port,
      security: 'plain',
      user: MAIL_USER,
      label: 'Shop inbox',
    },
    password: o.password ?? MAIL_PASSWORD,
  })
}

/** Every file under a folder, recursively. */
async function files(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...(await files(p)))
    else out.push(p)
  }
  return out
}

describeMail('mail accounts through the app', () => {
  it('an account and a rule read the mailbox: rows of source mail with sender and subject, filterable; the password only in the keychain', async () => {
    const r = await rig()
    const profileId = await addProfile(r)
    await r.ok('setActiveProfile', { id: profileId })
    const pdf = await receiptPdf('App Vendor\nTotal NGN 4,200.00')
    await dv.server.append(
      'AppBox',
      pdfMail('april.pdf', pdf, { from: 'App Vendor <billing@appvendor.test>', subject: 'April invoice' }),
    )
    await r.ok('addFileContents', {
      files: [
        { name: 'dropped.txt', base64: Buffer.from('Receipt dropped\nTotal NGN 10.00').toString('base64') },
      ],
      target: 'expenses',
    })

    const a = await account(r, profileId)
    expect(a).toMatchObject({ label: 'Shop inbox', host: '127.0.0.1', user: MAIL_USER, rules: [] })
    const withRule = await r.ok('saveMailRule', {
      rule: { accountId: a.id, mailbox: 'AppBox', target: 'expenses', after: 'seen' },
    })
    expect(withRule.rules).toHaveLength(1)
    const row = await waitFor('the mail receipt completed', async () => {
      const h = await r.ok('history', { sources: ['mail'] })
      return h.rows.find((u) => u.status === 'completed')
    })
    expect(row).toMatchObject({
      source: 'mail',
      name: 'april.pdf',
      mailFrom: 'App Vendor <billing@appvendor.test>',
      mailSubject: 'April invoice',
    })
    expect((await createdBySha(r.sb!)).get(sha(pdf))).toBe(1)
    // The source filter: mail rows only, drop rows only, or both.
    expect((await r.ok('history', { sources: ['mail'] })).rows.map((u) => u.source)).toEqual(['mail'])
    expect((await r.ok('history', { sources: ['drop'] })).rows.map((u) => u.name)).toEqual(['dropped.txt'])
    expect((await r.ok('history', { sources: ['mail', 'drop'] })).total).toBe(2)
    const bad = await r.call('history', { sources: ['pigeon' as never] })
    expect(bad.ok ? null : bad.error.code).toBe('invalid_request')
    await waitFor('the mail marked seen', async () => (await dv.server.mailbox('AppBox')).mails[0]?.seen)

    // State for the screen: connected, with the time of the last check.
    const [listed] = await r.ok('listMail', {})
    expect(listed!.status).toMatchObject({ state: 'connected', problem: null, idle: true })
    expect(listed!.status.lastCheckAt).toBeGreaterThan(0)

    // The password: never in an answer, an event, the database or another file of the data folder.
    expect(r.transcript.join('\n')).not.toContain(MAIL_PASSWORD)
    for (const f of await files(r.dataDir)) {
      expect((await readFile(f)).includes(MAIL_PASSWORD), f).toBe(false)
    }
    // Attachments are kept in a private folder.
    const kept = (await files(join(r.dataDir, 'mail'))).filter((f) => f.endsWith('april.pdf'))
    expect(kept).toHaveLength(1)
    expect((await stat(kept[0]!)).mode & 0o777).toBe(0o600)
    expect((await stat(join(r.dataDir, 'mail'))).mode & 0o777).toBe(0o700)
  })

  it('a wrong password: the account says so and what to do; nothing is read; a new password fixes it', async () => {
    const r = await rig()
    const profileId = await addProfile(r)
    await r.ok('setActiveProfile', { id: profileId })
    const pdf = await receiptPdf('Locked Vendor\nTotal NGN 1.00')
    await dv.server.append('Locked', pdfMail('locked.pdf', pdf, { subject: 'Locked' }))
    const a = await account(r, profileId, { password: 'wrong-password' })
    await r.ok('saveMailRule', { rule: { accountId: a.id, mailbox: 'Locked', target: 'expenses' } })
    const status = await waitFor('the error', async () => {
      const [v] = await r.ok('listMail', {})
      return v?.status.state === 'error' ? v.status : null
    })
    expect(status.problem).toBe('auth')
    expect(status.message).toMatch(
      /refused the user name or password for receipts@bakery\.test.*app password/,
    )
    // With its code (issue 34): the account card words it in French.
    expect(status.messageCoded).toMatchObject({ code: 'mail.state.auth', params: { label: 'Shop inbox', user: MAIL_USER } })
    expect(wordCoded(status.messageCoded!, 'fr')).toBe(
      `Compte de messagerie « Shop inbox » : le serveur a refusé le nom d’utilisateur ou le mot de passe de ${MAIL_USER}. ` +
        'Vérifiez-les ; Gmail et Microsoft 365 demandent un mot de passe d’application (voir le README), puis enregistrez-le de nouveau.',
    )
    expect((await r.ok('history', { sources: ['mail'] })).total).toBe(0)
    expect(r.transcript.join('\n')).not.toContain('wrong-password')

    // The same account with the right password: read at once.
    await r.ok('saveMailAccount', {
      id: a.id,
      account: { profileId, host: '127.0.0.1', port: dv.server.port, security: 'plain', user: MAIL_USER },
      password: MAIL_PASSWORD,
    })
    await waitFor('the receipt sent', async () => (await createdBySha(r.sb!)).get(sha(pdf)) === 1)
  })

  it("refuses what it must: plain IMAP off this computer, a new account without a password, a partner profile, another profile's account", async () => {
    const r = await rig()
    const profileId = await addProfile(r)
    await r.ok('setActiveProfile', { id: profileId })
    const plain = await r.call('saveMailAccount', {
      account: { profileId, host: 'imap.example.com', security: 'plain', user: 'me@example.com' },
      password: 'x1234567',
    })
    expect(plain.ok ? null : plain.error.fields).toMatchObject({
      security: expect.stringMatching(/only to this computer/),
    })
    const nopass = await r.call('saveMailAccount', {
      account: { profileId, host: 'imap.example.com', user: 'me@example.com' },
    })
    expect(nopass.ok ? null : nopass.error.fields).toEqual({ password: 'required' })
    const junkHost = await r.call('saveMailAccount', {
      account: { profileId, host: 'imap://x.com:993', user: 'me' },
      password: 'x1234567',
    })
    expect(junkHost.ok ? null : junkHost.error.code).toBe('invalid_request')
    const badBox = await r.call('saveMailRule', {
      rule: { accountId: 'nope', mailbox: 'A/*', target: 'expenses' },
    })
    expect(badBox.ok).toBe(false)
    expect(await r.ok('listMail', {})).toEqual([])
  })

  it('Send anyway on a mail with no receipt sends its text; Cancel and Retry work on a mail row as on a file', async () => {
    const r = await rig()
    const profileId = await addProfile(r)
    await r.ok('setActiveProfile', { id: profileId })
    await dv.server.append(
      'Actions',
      mime({ subject: 'Paid online #55', html: '<p>Total paid NGN 3,300.00 to Corner Shop</p>' }),
    )
    const a = await account(r, profileId)
    await r.ok('saveMailRule', { rule: { accountId: a.id, mailbox: 'Actions', target: 'expenses' } })
    const skipped = await waitFor('the skipped row', async () =>
      (await r.ok('history', { sources: ['mail'] })).rows.find((u) => u.status === 'skipped'),
    )
    expect(skipped).toMatchObject({
      reason: 'no_receipt',
      name: 'Paid online #55.txt',
      mailSubject: 'Paid online #55',
    })
    expect(skipped.lastError).toMatch(/No receipt in this mail/)
    expect((await dv.server.mailbox('Actions')).mails[0]!.seen).toBe(false)

    await r.ok('retryUpload', { id: skipped.id })
    const sent = await waitFor('sent anyway', async () => {
      const u = (await r.ok('history', { sources: ['mail'] })).rows.find((x) => x.id === skipped.id)
      return u?.status === 'completed' ? u : null
    })
    expect(sent.recordUuid).toBeTruthy()
    // Its receipt has a record now: the mail gets its after-action.
    await waitFor('the mail marked seen', async () => (await dv.server.mailbox('Actions')).mails[0]?.seen)

    // Cancel, then Retry, on a mail attachment.
    await r.ok('pauseUploads', {})
    const pdf = await receiptPdf('Cancel Me\nTotal NGN 77.00')
    await dv.server.append('Actions', pdfMail('cancel.pdf', pdf, { subject: 'To cancel' }))
    const queued = await waitFor('queued', async () =>
      (await r.ok('history', { sources: ['mail'] })).rows.find(
        (u) => u.name === 'cancel.pdf' && u.status === 'queued',
      ),
    )
    expect((await r.ok('cancelUpload', { id: queued.id })).status).toBe('cancelled')
    await r.ok('resumeUploads', {})
    expect((await r.ok('retryUpload', { id: queued.id })).status).toBe('queued')
    await waitFor('created after the retry', async () => (await createdBySha(r.sb!)).get(sha(pdf)) === 1)
  })
})

describeMail("the demo's inbox", () => {
  it('waits until read, then its sample mails become expenses (a logo-only mail and an HTML body are skipped); a new one arrives live', async () => {
    const r = await rigDemo()
    const [inbox] = await r.ok('listMail', {})
    expect(inbox).toMatchObject({ demo: true, kind: 'demo', label: 'Demo inbox (demo)' })
    expect(inbox!.status.state).toBe('disabled')
    expect((await r.ok('history', {})).total).toBe(0)

    await r.ok('checkMail', { accountId: inbox!.id })
    const rows = await waitFor(
      'the demo mails taken',
      async () => {
        const h = await r.ok('history', { sources: ['mail'] })
        return h.rows.filter((u) => u.status === 'completed').length === 4 &&
          h.rows.filter((u) => u.status === 'skipped').length === 2
          ? h.rows
          : null
      },
      30_000,
    )
    expect(
      rows
        .filter((u) => u.reason === 'no_receipt')
        .map((u) => u.mailSubject)
        .sort(),
    ).toEqual(['Order #1042 confirmed', 'Our March newsletter'])
    expect(rows.find((u) => u.mailSubject === 'Invoice and delivery note')).toBeTruthy()
    expect((await r.ok('listMail', {}))[0]!.status.state).toBe('connected')

    const { uid } = await r.ok('addDemoMail', {})
    expect(uid).toBeGreaterThan(5)
    await waitFor(
      'the new demo receipt',
      async () => {
        const h = await r.ok('history', { sources: ['mail'] })
        return h.rows.filter((u) => u.status === 'completed').length === 5
      },
      30_000,
    )
  }, 90_000)

  it('is the demo only: a real profile cannot ask for test mails', async () => {
    const r = await rig()
    const profileId = await addProfile(r)
    await r.ok('setActiveProfile', { id: profileId })
    const res = await r.call('addDemoMail', {})
    expect(res.ok ? null : res.error.code).toBe('not_demo')
  })
})
