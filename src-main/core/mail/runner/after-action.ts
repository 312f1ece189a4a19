/**
 * After the records: the rule's after-action (mark seen, move, or leave) applied to its mails whose
 * receipts all have records, in batches, each mail then marked done. Never a delete.
 */
import { mailboxPath } from '../config'
import type { MailSession } from '../provider'
import type { RuleContext } from './context'

/** Mails acted on (seen, moved) in one command. */
const ACTION_BATCH = 200

/** Applies the rule's after-action to its mails whose receipts all have records. Never a delete. */
export async function act(ctx: RuleContext, s: MailSession, uv: string): Promise<void> {
  const due = ctx.d.store.mailsIn(ctx.rule.id, uv, 'recorded')
  for (let i = 0; i < due.length; i += ACTION_BATCH) {
    const batch = due.slice(i, i + ACTION_BATCH)
    const uids = batch.map((m) => m.uid)
    let did: string
    if (ctx.rule.after === 'seen') {
      await s.markSeen(uids)
      did = 'marked seen'
    } else if (ctx.rule.after === 'move') {
      await s.move(uids, mailboxPath(ctx.rule.moveTo))
      did = `moved to ${ctx.rule.moveTo}`
    } else {
      did = 'left'
    }
    ctx.d.store.transaction(() => {
      for (const m of batch) ctx.d.store.setState(m.id, 'recorded', 'done', { afterAction: did })
    })
  }
}
