/**
 * Reading a rule's mailbox: its UIDVALIDITY checked (a renumbered mailbox, a changed rule: read
 * again from the start date), the UIDs above the rule's last one fetched in batches, small
 * receipts of a few mails prefetched together, each mail taken, then the after-action applied.
 */
import { mailboxPath } from '../config'
import type { MailMeta, MailSession } from '../provider'
import { decodedSize, receiptParts } from '../structure'
import { act } from './after-action'
import type { RuleContext } from './context'
import { matchesRule, signatureOf } from './rule-match'
import { takeMail } from './take'

/** Mails whose structure is fetched in one command. */
export const FETCH_BATCH = 50
/** Attachments up to this size (decoded) are fetched several mails at a time, as whole parts. */
const PREFETCH_PART_BYTES = 1024 * 1024
/** The most bytes of such attachments held in memory at once. */
const PREFETCH_GROUP_BYTES = 2 * 1024 * 1024

/** What the runner knows of its mailbox between reads. */
export interface MailboxSeen {
  /** The UIDVALIDITY of the last read. */
  uidValidity: string | null
  /** The UIDVALIDITY under which open mails were last looked at for records made meanwhile. */
  swept: string | null
}

export async function sync(ctx: RuleContext, s: MailSession, seen: MailboxSeen): Promise<void> {
  const { rule, account } = ctx
  const box = await s.open(mailboxPath(rule.mailbox))
  const uv = box.uidValidity
  seen.uidValidity = uv
  const sig = signatureOf(rule)
  let st = ctx.d.store.ruleState(rule.id)
  if (!st || st.uidValidity !== uv || st.signature !== sig) {
    if (st && st.uidValidity !== uv) {
      const stale = ctx.d.store.markStale(account.id, rule.mailbox, uv)
      ctx.d.notice(
        'info',
        `mail account "${account.label}": ${rule.mailbox} was renumbered by the server (UIDVALIDITY ${st.uidValidity} → ${uv}); it is read again, and receipts already taken are not sent again${stale ? ` (${stale} mail(s) waiting for records are followed under their new numbers)` : ''}.`,
      )
    }
    st = { uidValidity: uv, lastUid: 0, signature: sig }
    ctx.d.store.setRuleState(rule.id, st)
  }

  // Mails found earlier that still miss a receipt (a part that could not be taken): read again.
  const open = ctx.d.store.mailsIn(rule.id, uv, 'open')
  const incomplete = open.filter((m) => ctx.d.store.parts(m.id).length < m.receipts).map((m) => m.uid)
  const fresh =
    box.uidNext !== null && box.uidNext <= st.lastUid + 1
      ? []
      : await s.search({ afterUid: st.lastUid, since: rule.since })
  const uids = [...new Set([...incomplete, ...fresh])].sort((a, b) => a - b)

  for (let i = 0; i < uids.length && !ctx.stopped; i += FETCH_BATCH) {
    const batch = uids.slice(i, i + FETCH_BATCH)
    const metas = await s.fetchMeta(batch)
    for (const group of prefetchGroups(ctx, uv, metas)) {
      // Small receipts of a few mails come in one command (a per-attachment download costs a
      // round trip and a stream each); larger ones stream to disk as they are taken.
      const pre = await prefetch(s, group.parts)
      for (const meta of group.metas) {
        if (ctx.stopped) return
        await takeMail(ctx, s, uv, meta, pre)
      }
    }
    const top = Math.max(...batch)
    if (top > st.lastUid) {
      st = { ...st, lastUid: top }
      ctx.d.store.setRuleState(rule.id, st)
    }
  }
  // Once per run: mails whose last record came while Bookdrop was stopped (the completion and the
  // mail's mark are two commits); from then on each completion marks its mails as it happens.
  if (seen.swept !== uv) {
    for (const m of ctx.d.store.mailsIn(rule.id, uv, 'open')) ctx.d.checkRecorded(m.id)
    seen.swept = uv
  }
  await act(ctx, s, uv)
}

/**
 * The mails of a batch in groups whose small receipts (at most PREFETCH_PART_BYTES each) add up
 * to at most PREFETCH_GROUP_BYTES: what is held in memory at once while they are taken.
 */
function prefetchGroups(
  ctx: RuleContext,
  uv: string,
  metas: MailMeta[],
): { metas: MailMeta[]; parts: { uid: number; part: string }[] }[] {
  const groups: { metas: MailMeta[]; parts: { uid: number; part: string }[]; bytes: number }[] = []
  let cur: (typeof groups)[number] = { metas: [], parts: [], bytes: 0 }
  for (const meta of metas) {
    const known = ctx.d.store.mailAt(ctx.account.id, ctx.rule.mailbox, uv, meta.uid)
    const wanted = (known ? known.state === 'open' : matchesRule(ctx.rule, meta))
      ? receiptParts(meta.structure, ctx.rule.acceptedKinds).filter(
          (p) => decodedSize({ size: p.size, encoding: 'base64' }) <= PREFETCH_PART_BYTES,
        )
      : []
    const bytes = wanted.reduce((n, p) => n + decodedSize({ size: p.size, encoding: 'base64' }), 0)
    if (cur.metas.length && cur.bytes + bytes > PREFETCH_GROUP_BYTES) {
      groups.push(cur)
      cur = { metas: [], parts: [], bytes: 0 }
    }
    cur.metas.push(meta)
    cur.parts.push(...wanted.map((p) => ({ uid: meta.uid, part: p.part })))
    cur.bytes += bytes
  }
  if (cur.metas.length) groups.push(cur)
  return groups
}

/** Small parts of several mails, fetched together (one command per part number). */
async function prefetch(
  s: MailSession,
  parts: { uid: number; part: string }[],
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>()
  const byPart = new Map<string, number[]>()
  for (const p of parts) byPart.set(p.part, [...(byPart.get(p.part) ?? []), p.uid])
  for (const [part, uids] of byPart) {
    for (const [uid, bytes] of await s.fetchParts(uids, part, PREFETCH_PART_BYTES * 2))
      out.set(`${uid}/${part}`, bytes)
  }
  return out
}
