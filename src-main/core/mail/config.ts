/**
 * Mail accounts and rules as a person (the Mail screen) or a script (headless `--mail`) gives them:
 * checked with zod/mini (the engine loads this at start, so it stays small: see folders.ts), with
 * the defaults issue 24 decided, and the `imap[s]://user@host[:port]/Mailbox` form of the headless
 * mode. Nothing here holds a password: that lives in the OS keychain (./secrets.ts).
 */
import * as z from 'zod/mini'
import { AI_TARGETS, type AiTarget } from '../../../schemas/routes'
import type { MailAccountConfig, MailAfter, MailRuleConfig, MailSecurity } from '../../../contract/types'
import { isLoopbackHost } from '../api/base-url'
import { configNormalizer } from '../config-normalizer'
import { checkAcceptedKinds } from '../accepted-kinds'
import { allowedKinds } from '../kinds'
import { localDay } from '../util'

export type { MailAccountConfig, MailRuleConfig }

export const DEFAULT_MAILBOX = 'INBOX'
export const DEFAULT_MOVE_TO = 'Bookdrop/Done'
/** Days before the rule was added that a new rule reads back, when no start date is given. */
export const DEFAULT_SINCE_DAYS = 30
export const DEFAULT_POLL_SECONDS = 60

export const DEFAULT_MAIL_PROMPTS: Record<AiTarget, string> = {
  expenses: 'Record an expense from the receipt {filename}, e-mailed by {from} ("{subject}") on {date}.',
  bills: 'Record a bill from the document {filename}, e-mailed by {from} ("{subject}") on {date}.',
  invoices: 'Create an invoice from the document {filename}, e-mailed by {from} ("{subject}") on {date}.',
  income: 'Record income from the document {filename}, e-mailed by {from} ("{subject}") on {date}.',
  journals: 'Create a journal entry from {filename}, e-mailed by {from} ("{subject}") on {date}.',
  contacts: 'Create contacts from {filename}, e-mailed by {from}.',
  accounts: 'Create chart of accounts entries from {filename}, e-mailed by {from}.',
  'bank-transactions': 'Import the bank statement {filename}, e-mailed by {from} ("{subject}") on {date}.',
}

/**
 * Kinds a mail rule takes by default: the target's document kinds without plain text and mails
 * (a `.txt` or `.eml` attachment is rarely a receipt; the body has its own option).
 */
export function defaultMailKinds(target: AiTarget): string[] {
  return allowedKinds(target).filter((k) => k !== 'txt' && k !== 'eml')
}

/** The default port of each security mode. */
export function defaultPort(security: MailSecurity): number {
  return security === 'tls' ? 993 : 143
}

const HOST_RE =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[?[0-9a-f:.]+\]?$/i

/**
 * A mailbox name as people write it: levels separated by `/`, no empty level, no control
 * characters, no IMAP wildcards; any other Unicode is fine (sent in modified UTF-7).
 */
export function mailboxPath(name: string): string[] {
  const levels = name.split('/').map((l) => l.trim())
  if (levels.some((l) => l === ''))
    throw new Error(`"${name}" is not a mailbox name: no empty level between slashes`)
  return levels
}

function checkMailbox(v: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (v.length > 200 || /[\u0000-\u001f\u007f*%]/.test(v)) return false
  try {
    mailboxPath(v)
    return true
  } catch {
    return false
  }
}

const mailbox = (what: string) =>
  z.string().check(
    z.trim(),
    z.minLength(1, { error: `give the ${what}` }),
    z.refine(checkMailbox, {
      error: `the ${what} is a name such as INBOX or Receipts/2026: levels separated by /, no * or %`,
    }),
  )

export const mailAccountInputSchema = z
  .object({
    profileId: z
      .string()
      .check(z.minLength(1, { error: 'choose the profile (business) this account sends to' })),
    label: z.optional(z.string().check(z.trim(), z.maxLength(100))),
    kind: z._default(z.enum(['imap', 'demo']), 'imap'),
    host: z.string().check(
      z.trim(),
      z.minLength(1, { error: 'give the IMAP server, e.g. imap.gmail.com' }),
      z.maxLength(253),
      z.refine((h) => HOST_RE.test(h), {
        error: 'the server is a host name such as imap.gmail.com, without imap:// or a port',
      }),
    ),
    port: z.optional(
      z
        .number()
        .check(
          z.int({ error: 'the port is a whole number' }),
          z.minimum(1),
          z.maximum(65535, { error: 'the port is at most 65535' }),
        ),
    ),
    security: z._default(z.enum(['tls', 'starttls', 'plain']), 'tls'),
    user: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, { error: 'give the user name (usually the e-mail address)' }),
        z.maxLength(200),
      ),
    usePolling: z._default(z.boolean(), false),
    pollSeconds: z._default(
      z
        .number()
        .check(
          z.int(),
          z.minimum(15, { error: 'poll at most every 15 seconds' }),
          z.maximum(3600, { error: 'poll at least once an hour' }),
        ),
      DEFAULT_POLL_SECONDS,
    ),
    enabled: z._default(z.boolean(), true),
  })
  .check(
    z.superRefine((a, ctx) => {
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
      if (/[\u0000-\u001f\u007f]/.test(a.user))
        ctx.addIssue({ code: 'custom', path: ['user'], message: 'the user name has a control character' })
      if (a.kind === 'imap' && a.security === 'plain' && !isLoopbackHost(a.host)) {
        ctx.addIssue({
          code: 'custom',
          path: ['security'],
          message:
            'a connection without TLS is allowed only to this computer (127.0.0.1): choose TLS or STARTTLS',
        })
      }
    }),
  )
export type MailAccountInput = z.input<typeof mailAccountInputSchema>

const ISO_DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

export const mailRuleInputSchema = z
  .object({
    accountId: z.string().check(z.minLength(1, { error: 'choose the mail account' })),
    mailbox: z._default(mailbox('mailbox'), DEFAULT_MAILBOX),
    fromContains: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(200)))),
    subjectContains: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(200)))),
    since: z.optional(
      z.nullable(
        z.string().check(
          z.trim(),
          z.refine((d) => d === '' || (ISO_DAY.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`))), {
            error: 'the start date is written YYYY-MM-DD, e.g. 2026-01-31',
          }),
        ),
      ),
    ),
    target: z.enum(AI_TARGETS as [AiTarget, ...AiTarget[]], {
      error: `target must be one of ${AI_TARGETS.join(', ')}`,
    }),
    promptTemplate: z.optional(
      z
        .string()
        .check(z.trim(), z.minLength(1, { error: 'the prompt must not be empty' }), z.maxLength(4000)),
    ),
    acceptedKinds: z.optional(
      z.array(
        z.string().check(z.regex(/^\.?[a-z0-9]+$/i, { error: 'a kind is a file extension such as pdf' })),
      ),
    ),
    after: z._default(z.enum(['leave', 'seen', 'move']), 'seen'),
    moveTo: z._default(mailbox('mailbox to move mails to'), DEFAULT_MOVE_TO),
    sendBody: z._default(z.boolean(), false),
    processType: z._default(z.enum(['async', 'direct']), 'async'),
    enabled: z._default(z.boolean(), true),
  })
  .check(
    z.superRefine((r, ctx) => {
      if (r.after === 'move' && r.moveTo.toUpperCase() === r.mailbox.toUpperCase()) {
        ctx.addIssue({
          code: 'custom',
          path: ['moveTo'],
          message: 'mails cannot be moved to the mailbox they are read from',
        })
      }
      checkAcceptedKinds(ctx, r.target, r.acceptedKinds, 'choose at least one kind this target accepts')
    }),
  )
export type MailRuleInput = z.input<typeof mailRuleInputSchema>

export const normalizeAccount = configNormalizer(
  mailAccountInputSchema,
  (a, id, addedAt): MailAccountConfig => {
    const host = a.host.toLowerCase()
    return {
      id,
      profileId: a.profileId,
      label: a.label?.trim() || `${a.user}@${host}`,
      kind: a.kind,
      host,
      port: a.port ?? defaultPort(a.security),
      security: a.security,
      user: a.user,
      usePolling: a.usePolling,
      pollSeconds: a.pollSeconds,
      enabled: a.enabled,
      addedAt,
    }
  },
)

export const normalizeRule = configNormalizer(mailRuleInputSchema, (r, id, addedAt): MailRuleConfig => {
  const since = r.since?.trim() || localDay(new Date(addedAt - DEFAULT_SINCE_DAYS * 86_400_000))
  const kinds = r.acceptedKinds?.length ? allowedKinds(r.target, r.acceptedKinds) : defaultMailKinds(r.target)
  return {
    id,
    accountId: r.accountId,
    mailbox: mailboxPath(r.mailbox).join('/'),
    fromContains: r.fromContains?.trim() || null,
    subjectContains: r.subjectContains?.trim() || null,
    since,
    target: r.target,
    promptTemplate: r.promptTemplate ?? DEFAULT_MAIL_PROMPTS[r.target],
    acceptedKinds: kinds,
    after: r.after,
    moveTo: mailboxPath(r.moveTo).join('/'),
    sendBody: r.sendBody,
    processType: r.processType,
    enabled: r.enabled,
    addedAt,
  }
})

/** The keychain account a mail password is filed under: the same for the app and the headless mode. */
export function mailSecretAccount(a: Pick<MailAccountConfig, 'user' | 'host' | 'port'>): string {
  return `mail:${a.user}@${a.host.toLowerCase()}:${a.port}`
}

/** What a `--mail` URL says. */
export interface MailUrl {
  security: MailSecurity
  user: string
  host: string
  port: number
  mailbox: string
}

/**
 * `imaps://user@host[:port]/Mailbox` (implicit TLS, port 993) or `imap://user@host[:port]/Mailbox`
 * (STARTTLS, port 143; on this computer's loopback address, plain IMAP). The user may be
 * percent-encoded (`me%40example.com`); a password in the URL is refused (it would sit in the shell
 * history and the process list): BOOKDROP_MAIL_PASSWORD or the keychain hold it. The mailbox
 * defaults to INBOX; levels are separated by `/`, percent-encoded characters allowed.
 */
export function parseMailUrl(raw: string): MailUrl {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(`--mail ${raw}: not a URL; write imaps://user@host/INBOX`)
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase()
  if (scheme !== 'imap' && scheme !== 'imaps')
    throw new Error(`--mail ${raw}: the URL starts with imaps:// (TLS) or imap:// (STARTTLS)`)
  if (url.password) {
    throw new Error(
      `--mail: do not put the password in the URL (it would show in the process list and your shell history); set BOOKDROP_MAIL_PASSWORD or save it in the keychain`,
    )
  }
  let user: string
  let mailboxName: string
  try {
    user = decodeURIComponent(url.username)
    mailboxName = decodeURIComponent(url.pathname.replace(/^\/+/, '').replace(/\/+$/, ''))
  } catch {
    throw new Error(`--mail ${raw}: a percent-escape in the URL is not valid`)
  }
  if (!user)
    throw new Error(
      `--mail ${raw}: give the user before the host, e.g. imaps://me%40example.com@imap.example.com/INBOX`,
    )
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (!host) throw new Error(`--mail ${raw}: give the server's host name`)
  if (url.search || url.hash) throw new Error(`--mail ${raw}: no ? or # part is allowed`)
  const security: MailSecurity = scheme === 'imaps' ? 'tls' : isLoopbackHost(host) ? 'plain' : 'starttls'
  const port = url.port ? Number(url.port) : defaultPort(security)
  const mailboxValue = mailboxName || DEFAULT_MAILBOX
  if (!checkMailbox(mailboxValue)) throw new Error(`--mail ${raw}: "${mailboxValue}" is not a mailbox name`)
  return { security, user, host, port, mailbox: mailboxPath(mailboxValue).join('/') }
}

/** `--mail-after leave|seen|move:<mailbox>`. */
export function parseMailAfter(raw: string): { after: MailAfter; moveTo: string } {
  if (raw === 'leave' || raw === 'seen') return { after: raw, moveTo: DEFAULT_MOVE_TO }
  if (raw === 'move') return { after: 'move', moveTo: DEFAULT_MOVE_TO }
  if (raw.startsWith('move:')) {
    const to = raw.slice(5).trim()
    if (!checkMailbox(to)) throw new Error(`--mail-after move:${to}: "${to}" is not a mailbox name`)
    return { after: 'move', moveTo: mailboxPath(to).join('/') }
  }
  throw new Error('--mail-after must be leave, seen or move:<mailbox> (e.g. move:Bookdrop/Done)')
}

/** Fills the folder template fields plus `{from}` and `{subject}`. */
export function renderMailPrompt(
  template: string,
  v: { filename: string; mailbox: string; from: string; subject: string; date?: Date },
): string {
  const d = v.date ?? new Date()
  return template
    .replaceAll('{filename}', v.filename)
    .replaceAll('{folder}', v.mailbox)
    .replaceAll('{from}', v.from)
    .replaceAll('{subject}', v.subject)
    .replaceAll('{date}', localDay(d))
}
