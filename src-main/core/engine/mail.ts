/**
 * Mail intake, loaded on first use: an engine with no mail account (the idle watcher of
 * `npm run bench`) never loads the mail code (../mail/service.ts).
 */
import type { MailOptions, MailService } from '../mail/service'
import type { Db } from '../store/db'
import type { EngineParts } from './parts'

export type MailDeps = Pick<EngineParts, 'events' | 'taker' | 'maxFileBytes' | 'closed'> & {
  db: Db
  dataDir: string
  options: (MailOptions & { autoStart?: boolean }) | undefined
}

/** Loads the mail service; the app starts every account's rules, a host that chooses does not. */
export function loadMail(d: MailDeps): Promise<MailService> {
  return import('../mail/service').then(({ MailService }) => {
    const mail = new MailService(
      {
        db: d.db,
        dataDir: d.dataDir,
        events: d.events,
        take: (req) => d.taker.inTurn(req),
        noReceipt: (req) => d.taker.noReceipt(req),
        maxFileBytes: d.maxFileBytes,
      },
      d.options,
    )
    // The app reads every account's mailboxes (and those added later); a host that chooses
    // (headless: `start(ids)`) starts the ones it wants.
    if (d.options?.autoStart !== false && !d.closed()) mail.start()
    return mail
  })
}

/**
 * True when this data folder has mail: an account, or receipts of mails (whose rows, when they
 * complete, the mail service follows to apply its after-action). The service is loaded at open then.
 */
export function hasMail(db: Db): boolean {
  return (
    db.get('SELECT 1 AS one FROM mail_accounts LIMIT 1') !== undefined ||
    db.get('SELECT 1 AS one FROM mail_parts LIMIT 1') !== undefined
  )
}
