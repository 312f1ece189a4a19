/**
 * The demo's inbox: a mail server in memory, behind the same interface as IMAP (./provider.ts), so
 * a new user sees mail intake work with no account and no network. It is seeded with sample mails
 * around the demo's sample receipts (one PDF, two PDFs, an inline PDF as Apple Mail sends it, a
 * newsletter whose only image is a logo, an order whose receipt is the HTML body), and `deliver()`
 * drops a new one in, as an arriving mail (pushed to a waiting runner, as IMAP IDLE does).
 */
import { Readable } from 'node:stream'
import type { MailAccountConfig } from '../../../contract/types'
import { coded } from '../../../contract/coded'
import { MAIL_STATES } from '../../../contract/main-states'
import { MailError } from './provider'
import type { MailAddress, MailMeta, MailPart, MailServer, MailSession, MailboxInfo } from './provider'

export interface DemoAttachment {
  filename: string
  type: string
  content: Buffer
  /** Sent inline (as Apple Mail and phones send PDFs), else as an attachment. */
  inline?: boolean
  /** Shown by the HTML as `cid:<contentId>`. */
  contentId?: string
}

export interface DemoMailInput {
  from: MailAddress
  subject: string
  text?: string
  html?: string
  attachments?: DemoAttachment[]
  receivedAt?: number
}

interface StoredMail {
  uid: number
  messageId: string
  from: MailAddress
  subject: string
  receivedAt: number
  seen: boolean
  structure: MailPart
  contents: Map<string, Buffer>
}

interface Box {
  uidValidity: string
  uidNext: number
  mails: StoredMail[]
}

/** A 1×1 PNG: the newsletter's logo. */
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

function encodedSize(b: Buffer): number {
  const b64 = Math.ceil(b.length / 3) * 4
  return b64 + Math.floor(b64 / 76) * 2
}

function build(input: DemoMailInput): { structure: MailPart; contents: Map<string, Buffer> } {
  const contents = new Map<string, Buffer>()
  const bodies: { type: string; text: string }[] = []
  if (input.text) bodies.push({ type: 'text/plain', text: input.text })
  if (input.html) bodies.push({ type: 'text/html', text: input.html })
  const atts = input.attachments ?? []
  const leaf = (part: string, type: string, content: Buffer, extra: Partial<MailPart> = {}): MailPart => {
    contents.set(part || '1', content)
    const text = type.startsWith('text/')
    return {
      part,
      type,
      disposition: null,
      filename: null,
      size: text ? content.length : encodedSize(content),
      contentId: null,
      encoding: text ? '8bit' : 'base64',
      ...extra,
    }
  }
  if (atts.length === 0 && bodies.length === 1) {
    const b = bodies[0]!
    return { structure: leaf('', b.type, Buffer.from(b.text)), contents }
  }
  const children: MailPart[] = []
  let n = 1
  for (const b of bodies) children.push(leaf(String(n++), b.type, Buffer.from(b.text)))
  for (const a of atts) {
    children.push(
      leaf(String(n++), a.type, a.content, {
        disposition: a.inline ? 'inline' : 'attachment',
        filename: a.filename,
        contentId: a.contentId ?? null,
      }),
    )
  }
  const related = atts.some((a) => a.contentId)
  return {
    structure: {
      part: '',
      type: related ? 'multipart/related' : 'multipart/mixed',
      disposition: null,
      filename: null,
      size: 0,
      contentId: null,
      encoding: null,
      children,
    },
    contents,
  }
}

export class DemoInbox implements MailServer {
  private readonly boxes = new Map<string, Box>()
  private readonly waiters = new Set<{ box: string; wake: () => void }>()
  private seq = 0
  /** The next sample a test receipt uses (the seed uses the first four). */
  private nextSample = 4

  constructor(private readonly now: () => number = Date.now) {
    this.boxes.set('INBOX', this.newBox())
  }

  private newBox(): Box {
    // A fresh UIDVALIDITY per box and run, as a server gives a new mailbox.
    return { uidValidity: String(Math.floor(this.now() / 1000) + this.boxes.size), uidNext: 1, mails: [] }
  }

  private box(name: string): Box | undefined {
    return this.boxes.get(name.toUpperCase() === 'INBOX' ? 'INBOX' : name)
  }

  /** Puts a mail in a mailbox (INBOX by default), as its arrival: a waiting session wakes up. */
  deliver(input: DemoMailInput, mailbox = 'INBOX'): number {
    let box = this.box(mailbox)
    if (!box) {
      box = this.newBox()
      this.boxes.set(mailbox, box)
    }
    const { structure, contents } = build(input)
    const uid = box.uidNext++
    box.mails.push({
      uid,
      messageId: `<demo-${++this.seq}-${uid}@bookdrop.demo>`,
      from: input.from,
      subject: input.subject,
      receivedAt: input.receivedAt ?? this.now(),
      seen: false,
      structure,
      contents,
    })
    for (const w of [...this.waiters])
      if (w.box === (mailbox.toUpperCase() === 'INBOX' ? 'INBOX' : mailbox)) w.wake()
    return uid
  }

  /** What the demo shows on the Mail screen: the mails of a mailbox and whether each is seen. */
  list(mailbox = 'INBOX'): { uid: number; subject: string; seen: boolean }[] {
    return (this.box(mailbox)?.mails ?? []).map((m) => ({ uid: m.uid, subject: m.subject, seen: m.seen }))
  }

  async connect(account: MailAccountConfig): Promise<MailSession> {
    if (account.kind !== 'demo')
      throw new MailError('protocol', `mail account "${account.label}" is not the demo's inbox`)
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the session reads the inbox it belongs to
    const inbox = this
    let selected: string | null = null
    const sel = (): Box => {
      const b = selected ? inbox.box(selected) : undefined
      if (!b) throw new MailError('mailbox', `mail account "${account.label}": no mailbox is selected`)
      return b
    }
    const session: MailSession = {
      canIdle: true,
      async open(mailbox: string[]): Promise<MailboxInfo> {
        const name = mailbox.join('/')
        const b = inbox.box(name)
        if (!b) {
          throw new MailError(
            'mailbox',
            coded(MAIL_STATES.demoNoMailbox, { label: account.label, mailbox: name }),
          )
        }
        selected = name.toUpperCase() === 'INBOX' ? 'INBOX' : name
        return { uidValidity: b.uidValidity, uidNext: b.uidNext, exists: b.mails.length }
      },
      async search(o) {
        const since = Date.parse(`${o.since}T00:00:00`)
        return sel()
          .mails.filter((m) => m.uid > o.afterUid && m.receivedAt >= since)
          .map((m) => m.uid)
      },
      async fetchMeta(uids): Promise<MailMeta[]> {
        const want = new Set(uids)
        return sel()
          .mails.filter((m) => want.has(m.uid))
          .map((m) => ({
            uid: m.uid,
            messageId: m.messageId,
            from: [m.from],
            subject: m.subject,
            receivedAt: m.receivedAt,
            size: [...m.contents.values()].reduce((n, c) => n + c.length, 0),
            structure: m.structure,
          }))
      },
      async download(uid, part, o) {
        const m = sel().mails.find((x) => x.uid === uid)
        const c = m?.contents.get(part || '1')
        if (!c) return null
        return Readable.from([c.subarray(0, o.maxBytes)])
      },
      async fetchParts(uids, part, maxBytes) {
        const out = new Map<number, Buffer>()
        for (const m of sel().mails) {
          const c = uids.includes(m.uid) ? m.contents.get(part || '1') : undefined
          if (c && c.length <= maxBytes) out.set(m.uid, c)
        }
        return out
      },
      async markSeen(uids) {
        for (const m of sel().mails) if (uids.includes(m.uid)) m.seen = true
      },
      async move(uids, to) {
        const from = sel()
        const name = to.join('/')
        let dest = inbox.box(name)
        if (!dest) {
          dest = inbox.newBox()
          inbox.boxes.set(name, dest)
        }
        const moving = from.mails.filter((m) => uids.includes(m.uid))
        from.mails = from.mails.filter((m) => !uids.includes(m.uid))
        for (const m of moving) dest.mails.push({ ...m, uid: dest.uidNext++ })
      },
      wait(ms, signal) {
        return new Promise<void>((resolve) => {
          const w = { box: selected ?? 'INBOX', wake: () => done() }
          const timer = setTimeout(() => done(), ms)
          const done = () => {
            clearTimeout(timer)
            inbox.waiters.delete(w)
            signal.removeEventListener('abort', done)
            resolve()
          }
          signal.addEventListener('abort', done, { once: true })
          inbox.waiters.add(w)
        })
      },
      async close() {
        selected = null
      },
    }
    return session
  }

  /**
   * The demo's mails, around its sample receipts (PDFs): a supplier's receipt, an invoice with a
   * delivery note (two PDFs), a receipt sent inline from a phone, a newsletter with only a logo (no
   * receipt: skipped), and an order confirmation whose receipt is the HTML body.
   */
  seed(samples: { name: string; base64: string }[]): void {
    const pdf = (i: number) => {
      const s = samples[i % Math.max(1, samples.length)]
      return s
        ? { filename: s.name, type: 'application/pdf', content: Buffer.from(s.base64, 'base64') }
        : null
    }
    const day = 86_400_000
    const t = this.now()
    const one = pdf(0)
    const two = [pdf(1), pdf(2)].filter((x): x is NonNullable<typeof x> => x !== null)
    const inline = pdf(3)
    if (one) {
      this.deliver({
        from: { name: 'Lagos Bakery Supplies', address: 'billing@bakery-supplies.example' },
        subject: 'Your receipt',
        text: 'Thank you for your order. Your receipt is attached.',
        attachments: [one],
        receivedAt: t - 3 * day,
      })
    }
    if (two.length) {
      this.deliver({
        from: { name: 'Flour Mills Ltd', address: 'accounts@flourmills.example' },
        subject: 'Invoice and delivery note',
        text: 'Please find our invoice and the delivery note attached.',
        attachments: two,
        receivedAt: t - 2 * day,
      })
    }
    if (inline) {
      this.deliver({
        from: { name: 'Ada (phone)', address: 'ada@bakery.example' },
        subject: 'Fuel receipt',
        text: 'Sent from my iPhone',
        attachments: [{ ...inline, inline: true }],
        receivedAt: t - 1 * day,
      })
    }
    this.deliver({
      from: { name: 'Market News', address: 'news@market.example' },
      subject: 'Our March newsletter',
      html: '<html><body><img src="cid:logo@market" alt="Market News"><h1>Spring offers</h1><p>Nothing to pay here.</p></body></html>',
      attachments: [
        {
          filename: 'logo.png',
          type: 'image/png',
          content: LOGO_PNG,
          inline: true,
          contentId: 'logo@market',
        },
      ],
      receivedAt: t - 1 * day,
    })
    this.deliver({
      from: { name: 'PackShop', address: 'orders@packshop.example' },
      subject: 'Order #1042 confirmed',
      html: '<html><body><h1>Thank you for your order</h1><table><tr><td>Cake boxes (200)</td><td>NGN 18,500.00</td></tr><tr><td><b>Total paid</b></td><td><b>NGN 18,500.00</b></td></tr></table><p>Paid by card on file.</p></body></html>',
      receivedAt: t - 12 * 3_600_000,
    })
  }

  /** A new sample receipt arriving now (the Mail screen's "Send a test receipt" in the demo). */
  deliverSample(samples: { name: string; base64: string }[]): number {
    const s = samples[this.nextSample++ % Math.max(1, samples.length)]
    return this.deliver({
      from: { name: 'Corner Shop', address: 'receipts@cornershop.example' },
      subject: `Receipt ${s?.name ?? ''}`.trim(),
      text: 'Your receipt is attached. Thank you!',
      attachments: s
        ? [{ filename: s.name, type: 'application/pdf', content: Buffer.from(s.base64, 'base64') }]
        : [],
    })
  }
}
