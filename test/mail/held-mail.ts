/**
 * Helpers of the mail tests of issue 33 (mail-held.test.ts, ../engine/duplicate-table.test.ts): an
 * engine rig that reads mail from the test Dovecot, a rule on one mailbox, and a mail carrying
 * receipts as attachments.
 */
import { FAST_QUEUE, PROFILE, type Rig, type useRigs } from '../engine/helpers'
import { MAIL_PASSWORD, MAIL_USER } from './dovecot'
import { mime } from './mime'

/** An engine rig whose mail rules read the test Dovecot (its password given, backoff short). */
export function mailRig(rigs: ReturnType<typeof useRigs>): Promise<Rig> {
  return rigs({
    engine: { queue: FAST_QUEUE, mail: { passwords: async () => MAIL_PASSWORD, timing: { backoffMs: 100, backoffMaxMs: 1000 } } },
  })
}

/** The test user's account on the Dovecot at `port`, and a rule reading `mailbox` into expenses. */
export async function mailRule(r: Rig, port: number, mailbox: string) {
  const mail = await r.engine.mail()
  const a = await mail.saveAccount({ profileId: PROFILE, host: '127.0.0.1', port, security: 'plain', user: MAIL_USER })
  await mail.saveRule({ accountId: a.id, mailbox, target: 'expenses', after: 'seen' })
  return a
}

/** A mail with these files attached (PDFs unless a type is given). */
export const receiptsMail = (subject: string, files: { name: string; bytes: Uint8Array; type?: string }[]) =>
  mime({
    subject,
    attachments: files.map((f) => ({ filename: f.name, type: f.type ?? 'application/pdf', content: Buffer.from(f.bytes) })),
  })
