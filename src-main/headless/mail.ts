/**
 * The mailboxes of a headless command line (`--mail`): their passwords, and the accounts and rules
 * saved for them.
 */
import type { Engine } from '../core/engine'
import type { MailPasswords } from '../core/mail/service'
import type { Args } from './args'

/** BOOKDROP_MAIL_PASSWORD, else the OS keychain (opened only when the variable is unset). */
export async function mailPasswordSource(): Promise<MailPasswords> {
  const { mailPasswords, MAIL_PASSWORD_ENV } = await import('../core/mail/secrets')
  if (process.env[MAIL_PASSWORD_ENV]) return mailPasswords(null)
  const { openSecretStore } = await import('../core/secrets')
  const { store } = await openSecretStore()
  return mailPasswords(store)
}

/**
 * The mail accounts and rules of this command line, saved next to the queue (so a restart knows
 * what was read and sent): one account per user, host and port, one rule per mailbox and target.
 */
export async function mailRules(
  engine: Engine,
  args: Args,
  profileId: string,
  labels: Map<string, string>,
): Promise<string[]> {
  const ids: string[] = []
  if (args.mail.length === 0) return ids
  const mail = await engine.mail()
  for (const m of args.mail) {
    const accountInput = { profileId, host: m.host, port: m.port, security: m.security, user: m.user }
    const known = mail.store
      .accounts()
      .find((a) => a.profileId === profileId && a.host === m.host && a.port === m.port && a.user === m.user)
    const account = await mail.saveAccount(
      { ...accountInput, label: known?.label ?? `${m.user}@${m.host}` },
      known?.id,
    )
    labels.set(account.id, account.label)
    const rule = mail.store
      .rules(account.id)
      .find((r) => r.mailbox.toUpperCase() === m.mailbox.toUpperCase() && r.target === args.target)
    const saved = await mail.saveRule(
      {
        accountId: account.id,
        mailbox: m.mailbox,
        target: args.target,
        ...(args.prompt ? { promptTemplate: args.prompt } : {}),
        fromContains: args.mailFrom ?? null,
        subjectContains: args.mailSubject ?? null,
        since: args.mailSince ?? rule?.since ?? null,
        after: args.mailAfter.after,
        moveTo: args.mailAfter.moveTo,
        sendBody: args.mailBody,
      },
      rule?.id,
    )
    ids.push(saved.id)
  }
  return ids
}
