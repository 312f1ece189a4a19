/** The calls of mail accounts and rules (issue 24): the password goes to the OS keychain and never comes back. */
import { z } from 'zod'
import type { MailAccountView } from '../types'
import { id, none, target } from './shared'

/** A mail account as the Mail screen sends it (main checks each field again: src-main/core/mail/config.ts). */
const mailAccountFields = z
  .object({
    profileId: z.string().max(200),
    label: z.string().max(100).optional(),
    host: z.string().max(253),
    port: z.number().int().min(1).max(65535).optional(),
    security: z.enum(['tls', 'starttls', 'plain']).optional(),
    user: z.string().max(200),
    usePolling: z.boolean().optional(),
    pollSeconds: z.number().int().min(15).max(3600).optional(),
    enabled: z.boolean().optional(),
  })
  .strict()

const mailRuleFields = z
  .object({
    accountId: z.string().max(200),
    mailbox: z.string().max(200).optional(),
    fromContains: z.string().max(200).nullable().optional(),
    subjectContains: z.string().max(200).nullable().optional(),
    since: z.string().max(10).nullable().optional(),
    target,
    promptTemplate: z.string().max(4000).optional(),
    acceptedKinds: z.array(z.string().max(10)).max(40).optional(),
    after: z.enum(['leave', 'seen', 'move']).optional(),
    moveTo: z.string().max(200).optional(),
    sendBody: z.boolean().optional(),
    processType: z.enum(['async', 'direct']).optional(),
    enabled: z.boolean().optional(),
  })
  .strict()

export const MAIL_CALLS = {
  listMail: none,
  saveMailAccount: z
    .object({
      id: id.optional(),
      account: mailAccountFields,
      /** Required for a new account; left out, a saved account keeps its password. */
      password: z.string().min(1).max(1000).optional(),
    })
    .strict(),
  removeMailAccount: z.object({ id }).strict(),
  saveMailRule: z.object({ id: id.optional(), rule: mailRuleFields }).strict(),
  removeMailRule: z.object({ id }).strict(),
  checkMail: z.object({ accountId: id }).strict(),
  /** Demo only: a new sample receipt arrives in the demo's inbox. */
  addDemoMail: none,
} as const

export interface MailCalls {
  /** The active business profile's mail accounts, with their rules and state. */
  listMail: MailAccountView[]
  saveMailAccount: MailAccountView
  removeMailAccount: MailAccountView[]
  saveMailRule: MailAccountView
  removeMailRule: MailAccountView
  checkMail: MailAccountView
  addDemoMail: { uid: number }
}
