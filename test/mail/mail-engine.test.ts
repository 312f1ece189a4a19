/**
 * Mail intake in the engine while it watches (issue 24): new mail pushed by IMAP IDLE, polling,
 * the after-action only once every job has finished (not when accepted), TLS (implicit and
 * STARTTLS) with a certificate that is not trusted, an unknown mailbox fixed while it runs, and
 * mailbox names with another separator and non-ASCII letters (modified UTF-7). Real Dovecots, the
 * emulator over HTTP, real SQLite.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { MailAccountStatus } from '../../contract/types'
import type { MailService } from '../../src-main/core/mail/service'
import { HEADLESS_CLI, runCommand } from '../engine/headless-helpers'
import {
  FAST_QUEUE,
  KEY,
  PROFILE,
  type Rig,
  createdBySha,
  fixtures,
  useRigs,
  waitFor,
} from '../engine/helpers'
import { describeMail, MAIL_PASSWORD, MAIL_USER, startDovecot, useDovecot } from './dovecot'
import { mime, receiptPdf } from './mime'

const dv = useDovecot({ tls: true })
const rigs = useRigs()
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')

async function mailRig(o: { jobDelayMs?: number } = {}): Promise<Rig> {
  return rigs({
    ...(o.jobDelayMs ? { fixtures: fixtures({ job_delay_ms: o.jobDelayMs }) } : {}),
    engine: {
      queue: FAST_QUEUE,
      mail: { passwords: async () => MAIL_PASSWORD, timing: { backoffMs: 100, backoffMaxMs: 1000 } },
    },
  })
}

/** Each rig's mail service, once an account made it load (status() is read in waitFor's loops). */
const services = new WeakMap<Rig, MailService>()

function status(r: Rig, accountId: string): MailAccountStatus {
  const mail = services.get(r)
  if (!mail) throw new Error('no mail account in this rig yet')
  return mail.status(accountId)
}

async function account(
  r: Rig,
  o: { port?: number; security?: 'tls' | 'starttls' | 'plain'; usePolling?: boolean } = {},
) {
  const mail = await r.engine.mail()
  services.set(r, mail)
  return mail.saveAccount({
    profileId: PROFILE,
    host: '127.0.0.1',
    port: o.port ?? dv.server.port,
    security: o.security ?? 'plain',
    user: MAIL_USER,
    ...(o.usePolling ? { usePolling: true, pollSeconds: 3600 } : {}),
  })
}

async function pdfMail(subject: string, names: string[]) {
  const pdfs = await Promise.all(
    names.map((n) => receiptPdf(`${subject} ${n}\nTotal NGN ${Math.floor(Math.random() * 9000)}.00`)),
  )
  return {
    raw: mime({
      subject,
      attachments: names.map((n, i) => ({ filename: n, type: 'application/pdf', content: pdfs[i]! })),
    }),
    shas: pdfs.map(sha),
  }
}

describeMail('mail while watching', () => {
  it('a new mail is pushed by IMAP IDLE and sent without waiting for a poll', async () => {
    const r = await mailRig()
    const a = await account(r)
    // The mailbox exists before the rule (a rule on a missing mailbox waits for "Check now" or the
    // problem retry, which another test covers; created after it, the first read could race).
    await dv.server.append('Live', mime({ subject: 'first', text: 'no receipt here' }))
    await (await r.engine.mail()).saveRule({ accountId: a.id, mailbox: 'Live', target: 'expenses' })
    await waitFor(
      'connected and idle',
      () => status(r, a.id).state === 'connected' && status(r, a.id).idle && status(r, a.id).lastCheckAt,
    )
    const m = await pdfMail('Arrives live', ['live.pdf'])
    await dv.server.append('Live', m.raw)
    // The account polls never (IDLE, rescan every 10 minutes): only the push can bring it this soon.
    await waitFor('the live mail sent', async () => (await createdBySha(r.sb)).get(m.shas[0]!) === 1, 15_000)
  })

  it('polling (for servers without IDLE): Check now reads the mailbox', async () => {
    const r = await mailRig()
    const a = await account(r, { usePolling: true })
    await dv.server.append('Polled', mime({ subject: 'nothing', text: 'x' }))
    await (await r.engine.mail()).saveRule({ accountId: a.id, mailbox: 'Polled', target: 'expenses' })
    await waitFor('checked once', () => status(r, a.id).lastCheckAt)
    expect(status(r, a.id).idle).toBe(false)
    const m = await pdfMail('Polled receipt', ['polled.pdf'])
    await dv.server.append('Polled', m.raw)
    await (await r.engine.mail()).checkNow(a.id)
    await waitFor(
      'the polled mail sent',
      async () => (await createdBySha(r.sb)).get(m.shas[0]!) === 1,
      15_000,
    )
  })

  it('a mail is marked when its jobs have finished (records exist), not when the server accepted them', async () => {
    const r = await mailRig({ jobDelayMs: 1500 })
    const a = await account(r)
    const m = await pdfMail('Slow jobs', ['s1.pdf', 's2.pdf'])
    await dv.server.append('SlowJobs', m.raw)
    await (await r.engine.mail()).saveRule({ accountId: a.id, mailbox: 'SlowJobs', target: 'expenses' })
    await waitFor('both accepted as jobs', () => {
      const rows = r.engine.history({ sources: ['mail'] }).rows
      return rows.length === 2 && rows.every((u) => u.status === 'processing')
    })
    await (await r.engine.mail()).checkNow(a.id)
    await new Promise((res) => setTimeout(res, 300))
    expect(r.engine.history({ sources: ['mail'] }).rows.every((u) => u.status === 'processing')).toBe(true)
    expect((await dv.server.mailbox('SlowJobs')).mails[0]!.seen).toBe(false)
    await waitFor('both completed', () =>
      r.engine.history({ sources: ['mail'] }).rows.every((u) => u.status === 'completed'),
    )
    await waitFor('then marked seen', async () => (await dv.server.mailbox('SlowJobs')).mails[0]?.seen)
  })

  it('an unknown mailbox: the account says so; created meanwhile, Check now reads it at once', async () => {
    const r = await mailRig()
    const a = await account(r)
    await (await r.engine.mail()).saveRule({ accountId: a.id, mailbox: 'Later/Receipts', target: 'expenses' })
    const st = await waitFor('the error', () => (status(r, a.id).state === 'error' ? status(r, a.id) : null))
    expect(st).toMatchObject({ problem: 'mailbox' })
    expect(st.message).toMatch(/there is no mailbox "Later\/Receipts" on the server/)
    const m = await pdfMail('Later', ['later.pdf'])
    await dv.server.append('Later/Receipts', m.raw)
    await (await r.engine.mail()).checkNow(a.id)
    await waitFor('read after the fix', async () => (await createdBySha(r.sb)).get(m.shas[0]!) === 1, 15_000)
    expect(status(r, a.id).state).toBe('connected')
  })
})

describeMail('TLS', () => {
  it('implicit TLS and STARTTLS check the certificate: a self-signed one is refused with what to do, and nothing is read', async () => {
    const r = await mailRig()
    const m = await pdfMail('Behind TLS', ['tls.pdf'])
    await dv.server.append('Tls', m.raw)
    for (const [security, port] of [
      ['tls', dv.server.tlsPort!],
      ['starttls', dv.server.port],
    ] as const) {
      const a = await account(r, { security, port })
      await (await r.engine.mail()).saveRule({ accountId: a.id, mailbox: 'Tls', target: 'expenses' })
      const st = await waitFor(`the ${security} error`, () =>
        status(r, a.id).state === 'error' ? status(r, a.id) : null,
      )
      expect(st.problem).toBe('certificate')
      expect(st.message).toMatch(
        /the certificate of 127\.0\.0\.1:\d+ is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
      )
      await (await r.engine.mail()).removeAccount(a.id)
    }
    expect((await createdBySha(r.sb)).has(m.shas[0]!)).toBe(false)
  })

  it('STARTTLS is required when asked: a server without it is refused, the password never sent in the clear', async () => {
    const plainOnly = await startDovecot()
    try {
      const r = await mailRig()
      const a = await account(r, { security: 'starttls', port: plainOnly.port })
      await (await r.engine.mail()).saveRule({ accountId: a.id, mailbox: 'INBOX', target: 'expenses' })
      const st = await waitFor('the error', () =>
        status(r, a.id).state !== 'connecting' && status(r, a.id).state !== 'starting'
          ? status(r, a.id)
          : null,
      )
      expect(st).toMatchObject({ state: 'error', problem: 'certificate' })
      expect(st.message).toMatch(/a secure connection to 127\.0\.0\.1:\d+ could not be made/)
      expect(await plainOnly.log()).not.toMatch(/Login: user=/)
    } finally {
      await plainOnly.stop()
    }
  })

  it("imaps:// in the headless mode, with the server's certificate authority trusted (NODE_EXTRA_CA_CERTS)", async () => {
    const m = await pdfMail('Trusted TLS', ['trusted.pdf'])
    await dv.server.append('Trusted', m.raw)
    const sb = (await mailRig()).sb
    const r = runCommand(
      [
        ...HEADLESS_CLI,
        '--mail',
        `imaps://${encodeURIComponent(MAIL_USER)}@127.0.0.1:${dv.server.tlsPort}/Trusted`,
        '--base-url',
        sb.url,
        '--data-dir',
        join(dv.server.dir, 'cli-data'),
        '--once',
      ],
      {
        ...process.env,
        BOOKDROP_API_KEY: KEY,
        BOOKDROP_MAIL_PASSWORD: MAIL_PASSWORD,
        NODE_EXTRA_CA_CERTS: dv.server.certFile!,
      },
    )
    expect(await r.exit, r.out()).toBe(0)
    expect((await createdBySha(sb)).get(m.shas[0]!)).toBe(1)
  })
})

describeMail('mailbox names', () => {
  it('written with / on a server whose separator is "." and with non-ASCII letters (modified UTF-7); the move target is created there', async () => {
    const dot = await startDovecot({ separator: '.' })
    try {
      const r = await mailRig()
      const m = await pdfMail('Reçu', ['recu.pdf'])
      // The test's own client writes the path as levels: the server's name is "Reçus.2026".
      await dot.append('Reçus/2026', m.raw)
      const a = await account(r, { port: dot.port })
      await (await r.engine.mail()).saveRule({
        accountId: a.id,
        mailbox: 'Reçus/2026',
        target: 'expenses',
        after: 'move',
        moveTo: 'Bookdrop/Done',
      })
      await waitFor('sent', async () => (await createdBySha(r.sb)).get(m.shas[0]!) === 1, 15_000)
      await waitFor('moved', async () => (await dot.mailbox('Reçus/2026')).mails.length === 0, 15_000)
      expect((await dot.mailbox('Bookdrop/Done')).mails.map((x) => x.subject)).toEqual(['Reçu'])
      const c = await dot.client()
      const names = (await c.list()).map((l) => l.path)
      await c.logout()
      expect(names).toEqual(expect.arrayContaining(['Bookdrop.Done', 'Reçus.2026']))
    } finally {
      await dot.stop()
    }
  })
})
