/**
 * Mails as a mail program writes them (RFC 5322 + MIME), for putting into Dovecot by APPEND: a text
 * and/or HTML body, attachments (Base64, as attachment or inline, with a Content-ID for images the
 * HTML shows), Message-ID and Date. Small on purpose: the tests read what they send.
 */
import { randomBytes } from 'node:crypto'
import { PDFDocument, StandardFonts } from 'pdf-lib'

export interface MimeAttachment {
  filename?: string
  type: string
  content: Buffer
  disposition?: 'attachment' | 'inline'
  contentId?: string
}

export interface MimeMail {
  from?: string
  to?: string
  subject?: string
  messageId?: string
  date?: Date
  text?: string
  html?: string
  attachments?: MimeAttachment[]
}

function b64lines(b: Buffer): string {
  return (
    b
      .toString('base64')
      .match(/.{1,76}/g)
      ?.join('\r\n') ?? ''
  )
}

function encodeHeader(v: string): string {
  return /^[\x20-\x7e]*$/.test(v) ? v : `=?UTF-8?B?${Buffer.from(v).toString('base64')}?=`
}

export function mime(m: MimeMail): string {
  const boundary = () => `=_bd_${randomBytes(8).toString('hex')}`
  const headers = [
    `From: ${m.from ?? 'Shop <billing@shop.test>'}`,
    `To: ${m.to ?? 'receipts@bakery.test'}`,
    `Subject: ${encodeHeader(m.subject ?? 'Your receipt')}`,
    `Message-ID: ${m.messageId ?? `<${randomBytes(10).toString('hex')}@shop.test>`}`,
    `Date: ${(m.date ?? new Date()).toUTCString()}`,
    'MIME-Version: 1.0',
  ]
  const bodies: string[] = []
  if (m.text !== undefined)
    bodies.push(`Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${m.text}`)
  if (m.html !== undefined)
    bodies.push(`Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${m.html}`)
  const atts = (m.attachments ?? []).map((a) => {
    const name = a.filename ? `; name="${a.filename}"` : ''
    const disp = a.disposition ?? 'attachment'
    const lines = [
      `Content-Type: ${a.type}${name}`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: ${disp}${a.filename ? `; filename="${a.filename}"` : ''}`,
    ]
    if (a.contentId) lines.push(`Content-ID: <${a.contentId}>`)
    return `${lines.join('\r\n')}\r\n\r\n${b64lines(a.content)}`
  })
  if (atts.length === 0 && bodies.length === 1) return `${headers.join('\r\n')}\r\n${bodies[0]}\r\n`
  const related = (m.attachments ?? []).some((a) => a.contentId)
  const b = boundary()
  const parts = [...bodies, ...atts].map((p) => `--${b}\r\n${p}\r\n`).join('')
  return `${headers.join('\r\n')}\r\nContent-Type: multipart/${related ? 'related' : 'mixed'}; boundary="${b}"\r\n\r\n${parts}--${b}--\r\n`
}

/** A mail with one PDF attached (`name`), and what else `m` says. */
export function pdfMail(name: string, pdf: Buffer, m: Omit<MimeMail, 'attachments'> = {}): string {
  return mime({ ...m, attachments: [{ filename: name, type: 'application/pdf', content: pdf }] })
}

/** A one-page PDF receipt with a text layer (vendor, total), unique by its text. */
export async function receiptPdf(text: string, padTo = 0): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([300, 400])
  const font = await doc.embedFont(StandardFonts.Helvetica)
  let y = 360
  for (const line of text.split('\n')) {
    page.drawText(line, { x: 20, y, size: 12, font })
    y -= 18
  }
  doc.setCreationDate(new Date(0))
  doc.setModificationDate(new Date(0))
  const bytes = Buffer.from(await doc.save())
  if (bytes.length >= padTo) return bytes
  // A PDF reader ignores what follows %%EOF: padding makes a larger file of the same receipt.
  return Buffer.concat([bytes, Buffer.from('\n%'), Buffer.alloc(padTo - bytes.length - 2, 0x20)])
}

/** A tiny PNG (a logo). */
export const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)
