import { describe, expect, it } from 'vitest'
import { FAST_QUEUE, PROFILE, createdBySha, useRigs } from '../engine/helpers'
import { MAIL_PASSWORD, MAIL_USER, useDovecot } from './dovecot'
import { LOGO_PNG, mime, receiptPdf } from './mime'

const dv = useDovecot()
const rigs = useRigs()

describe('smoke', () => {
  it('reads', async () => {
    const pdf1 = await receiptPdf('Flour Mills\nTotal NGN 1,200.00')
    const pdf2 = await receiptPdf('Sugar Co\nTotal NGN 800.00')
    await dv.server.append('INBOX', mime({ subject: 'Two', text: 'see attached', attachments: [{ filename: 'a.pdf', type: 'application/pdf', content: pdf1 }, { filename: 'b.pdf', type: 'application/pdf', content: pdf2 }] }))
    await dv.server.append('INBOX', mime({ subject: 'Logo', html: '<img src="cid:logo1"> hi', attachments: [{ filename: 'logo.png', type: 'image/png', content: LOGO_PNG, disposition: 'inline', contentId: 'logo1' }] }))
    const r = await rigs({ engine: { queue: FAST_QUEUE, mail: { passwords: async () => MAIL_PASSWORD, autoStart: false } } })
    const a = await r.engine.mail.saveAccount({ profileId: PROFILE, host: '127.0.0.1', port: dv.server.port, security: 'plain', user: MAIL_USER })
    const rule = await r.engine.mail.saveRule({ accountId: a.id, target: 'expenses' })
    console.log(await r.engine.mail.readOnce([rule.id]))
    await r.engine.whenIdle()
    console.log(await r.engine.mail.actOnce([rule.id]))
    console.log(r.engine.history({}).rows.map((u) => [u.name, u.status, u.mailFrom, u.mailSubject, u.lastError]))
    console.log(await createdBySha(r.sb))
    console.log(JSON.stringify(await dv.server.mailbox('INBOX')))
    console.log(r.events.mail.map((m) => m.state).join(' '), r.events.notice)
    expect(1).toBe(1)
  })
})
