/**
 * What counts as a receipt in a mail, decided from its structure (issue 24), and how accounts,
 * rules and the headless mode's `--mail` URLs are read: plain functions over the shapes IMAP gives.
 */
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_MOVE_TO,
  defaultMailKinds,
  mailSecretAccount,
  normalizeAccount,
  normalizeRule,
  parseMailAfter,
  parseMailUrl,
  renderMailPrompt,
} from '../../src-main/core/mail/config'
import type { MailPart } from '../../src-main/core/mail/provider'
import { matchesRule } from '../../src-main/core/mail/runner'
import { bodyTextPart, receiptParts, referencedCids } from '../../src-main/core/mail/structure'

const KINDS = defaultMailKinds('expenses')
const leaf = (part: string, type: string, o: Partial<MailPart> = {}): MailPart => ({
  part,
  type,
  disposition: null,
  filename: null,
  size: 40_000,
  contentId: null,
  encoding: 'base64',
  ...o,
})
const multi = (type: string, children: MailPart[], part = ''): MailPart => ({ ...leaf(part, type), children })

describe('what counts as a receipt', () => {
  it('attachments of an accepted kind; inline ones with a file name (Apple Mail); never the body', () => {
    const s = multi('multipart/mixed', [
      multi(
        'multipart/alternative',
        [leaf('1.1', 'text/plain', { encoding: '7bit' }), leaf('1.2', 'text/html', { encoding: '7bit' })],
        '1',
      ),
      leaf('2', 'application/pdf', { disposition: 'attachment', filename: 'invoice.pdf' }),
      leaf('3', 'application/pdf', { disposition: 'inline', filename: 'receipt.pdf' }),
      leaf('4', 'application/zip', { disposition: 'attachment', filename: 'archive.zip' }),
      leaf('5', 'text/plain', { disposition: 'attachment', filename: 'notes.txt' }),
    ])
    expect(receiptParts(s, KINDS).map((p) => [p.part, p.name])).toEqual([
      ['2', 'invoice.pdf'],
      ['3', 'receipt.pdf'],
    ])
    // A rule that accepts text files takes the attached one, never the body.
    expect(receiptParts(s, [...KINDS, 'txt']).map((p) => p.name)).toEqual([
      'invoice.pdf',
      'receipt.pdf',
      'notes.txt',
    ])
  })

  it('an attachment without a name or extension is named from its type; two of one name stay apart', () => {
    const s = multi('multipart/mixed', [
      leaf('1', 'text/plain'),
      leaf('2', 'application/pdf', { disposition: 'attachment' }),
      leaf('3', 'image/jpeg', { disposition: 'attachment', filename: 'scan' }),
      leaf('4', 'application/pdf', { disposition: 'attachment', filename: 'Receipt.pdf' }),
      leaf('5', 'application/pdf', { disposition: 'attachment', filename: 'receipt.pdf' }),
    ])
    expect(receiptParts(s, KINDS).map((p) => p.name)).toEqual([
      'attachment.pdf',
      'scan.jpg',
      'Receipt.pdf',
      'receipt (2).pdf',
    ])
  })

  it('an image the HTML shows by cid: under 20 KB is a logo; a larger one, or one not shown, is a receipt', () => {
    const s = multi('multipart/related', [
      leaf('1', 'text/html', { encoding: 'quoted-printable' }),
      leaf('2', 'image/png', {
        disposition: 'inline',
        filename: 'logo.png',
        contentId: 'logo@x',
        size: 4_000,
      }),
      leaf('3', 'image/jpeg', {
        disposition: 'inline',
        filename: 'photo.jpg',
        contentId: 'photo@x',
        size: 400_000,
      }),
      leaf('4', 'image/png', {
        disposition: 'inline',
        filename: 'stamp.png',
        contentId: 'stamp@x',
        size: 4_000,
      }),
    ])
    const cids = referencedCids('<img src="cid:logo@x"><img src=\'cid:photo@x\'>')
    expect(receiptParts(s, KINDS, cids).map((p) => p.name)).toEqual(['photo.jpg', 'stamp.png'])
    // Without the HTML read, a small image with a Content-ID in multipart/related counts as shown.
    expect(receiptParts(s, KINDS).map((p) => p.name)).toEqual(['photo.jpg'])
  })

  it('a receipt forwarded as an attached mail (message/rfc822) is found inside it', () => {
    const s = multi('multipart/mixed', [
      leaf('1', 'text/plain'),
      multi(
        'message/rfc822',
        [
          multi(
            'multipart/mixed',
            [
              leaf('2.1', 'text/plain'),
              leaf('2.2', 'application/pdf', { disposition: 'attachment', filename: 'fwd.pdf' }),
            ],
            '2',
          ),
        ],
        '2',
      ),
    ])
    expect(receiptParts(s, KINDS).map((p) => [p.part, p.name])).toEqual([['2.2', 'fwd.pdf']])
  })

  it('a one-part mail that is a PDF is part 1; a text-only mail has no receipt, its body is the text part', () => {
    expect(
      receiptParts(leaf('', 'application/pdf', { disposition: 'attachment', filename: 'only.pdf' }), KINDS),
    ).toMatchObject([{ part: '1', name: 'only.pdf' }])
    const text = multi('multipart/alternative', [leaf('1', 'text/plain'), leaf('2', 'text/html')])
    expect(receiptParts(text, KINDS)).toEqual([])
    expect(bodyTextPart(text)?.part).toBe('1')
    expect(bodyTextPart(leaf('', 'text/html'))?.type).toBe('text/html')
    expect(receiptParts(null, KINDS)).toEqual([])
  })
})

describe('rule filters', () => {
  const meta = {
    from: [{ name: 'Flour Mills Ltd', address: 'billing@flour.test' }],
    subject: 'Your INVOICE 42',
  }
  it('match case-insensitive substrings, the address or the display name, all of them (AND)', () => {
    expect(matchesRule({ fromContains: 'flour mills', subjectContains: null }, meta)).toBe(true)
    expect(matchesRule({ fromContains: '@FLOUR.test', subjectContains: 'invoice' }, meta)).toBe(true)
    expect(matchesRule({ fromContains: 'flour', subjectContains: 'receipt' }, meta)).toBe(false)
    expect(matchesRule({ fromContains: 'sugar', subjectContains: null }, meta)).toBe(false)
    expect(matchesRule({ fromContains: null, subjectContains: null }, { from: [], subject: '' })).toBe(true)
  })
})

describe('accounts, rules and --mail', () => {
  it('the defaults decided by the issue: INBOX, seen, Bookdrop/Done, no body, 30 days back, mail kinds', () => {
    const added = Date.parse('2026-03-31T12:00:00')
    const r = normalizeRule({ accountId: 'a', target: 'expenses' }, 'r1', added)
    expect(r).toMatchObject({
      mailbox: 'INBOX',
      after: 'seen',
      moveTo: DEFAULT_MOVE_TO,
      sendBody: false,
      since: '2026-03-01',
    })
    expect(r.acceptedKinds).toContain('pdf')
    expect(r.acceptedKinds).not.toContain('txt')
    expect(r.promptTemplate).toMatch(/\{from\}/)
    expect(() => normalizeRule({ accountId: 'a', target: 'expenses', mailbox: 'A//B' })).toThrow(/mailbox/)
    expect(() =>
      normalizeRule({ accountId: 'a', target: 'expenses', mailbox: 'INBOX', after: 'move', moveTo: 'inbox' }),
    ).toThrow(/cannot be moved to the mailbox they are read from/)
    expect(() => normalizeRule({ accountId: 'a', target: 'expenses', since: '2026-02-30x' })).toThrow(
      /YYYY-MM-DD/,
    )
  })

  it('accounts: TLS on 993 by default, plain only to this computer, the keychain entry named by user, host and port', () => {
    const a = normalizeAccount({ profileId: 'p', host: 'IMAP.Example.com', user: 'me@example.com' }, 'a1', 0)
    expect(a).toMatchObject({
      host: 'imap.example.com',
      port: 993,
      security: 'tls',
      label: 'me@example.com@imap.example.com',
    })
    expect(
      normalizeAccount({ profileId: 'p', host: 'imap.example.com', user: 'u', security: 'starttls' }).port,
    ).toBe(143)
    expect(() =>
      normalizeAccount({ profileId: 'p', host: 'imap.example.com', user: 'u', security: 'plain' }),
    ).toThrow(/only to this computer/)
    expect(
      normalizeAccount({ profileId: 'p', host: '127.0.0.1', user: 'u', security: 'plain', port: 1143 })
        .security,
    ).toBe('plain')
    expect(() => normalizeAccount({ profileId: 'p', host: 'imap.example.com/x', user: 'u' })).toThrow(
      /host name/,
    )
    expect(mailSecretAccount(a)).toBe('mail:me@example.com@imap.example.com:993')
  })

  it('--mail URLs: imaps is TLS, imap STARTTLS (plain on loopback), the user percent-encoded, the mailbox in levels', () => {
    expect(parseMailUrl('imaps://me%40example.com@imap.example.com/Receipts/2026')).toEqual({
      security: 'tls',
      user: 'me@example.com',
      host: 'imap.example.com',
      port: 993,
      mailbox: 'Receipts/2026',
    })
    expect(parseMailUrl('imap://u@imap.example.com')).toMatchObject({
      security: 'starttls',
      port: 143,
      mailbox: 'INBOX',
    })
    expect(parseMailUrl('imap://u@127.0.0.1:1143/Re%C3%A7us')).toMatchObject({
      security: 'plain',
      port: 1143,
      mailbox: 'Reçus',
    })
    expect(() => parseMailUrl('imaps://u:pw@host/INBOX')).toThrow(/do not put the password in the URL/)
    expect(() => parseMailUrl('imaps://host/INBOX')).toThrow(/give the user/)
    expect(() => parseMailUrl('pop3://u@host')).toThrow(/imaps:\/\//)
    expect(() => parseMailUrl('imaps://u@host/A/*')).toThrow(/not a mailbox name/)
    expect(parseMailAfter('move:Archive/Receipts')).toEqual({ after: 'move', moveTo: 'Archive/Receipts' })
    expect(parseMailAfter('seen')).toMatchObject({ after: 'seen' })
    expect(() => parseMailAfter('delete')).toThrow(/leave, seen or move/)
  })

  it('the prompt template: folder fields plus {from} and {subject}', () => {
    const p = renderMailPrompt('{filename} from {from} re {subject} in {folder} on {date}', {
      filename: 'a.pdf',
      mailbox: 'INBOX',
      from: 'Shop',
      subject: 'Invoice 1',
      date: new Date(2026, 0, 5),
    })
    expect(p).toBe('a.pdf from Shop re Invoice 1 in INBOX on 2026-01-05')
  })
})
