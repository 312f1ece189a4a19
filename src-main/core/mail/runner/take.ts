/**
 * Taking one mail: its receipts (or, with none, its body text) through intake, each linked to the
 * mail (`mail_parts`) in the transaction that commits its row, so a kill, a restart or a second
 * copy of the mail never takes a receipt twice.
 */
import type { IntakeRequest } from '../../intake/intake'
import { storedName } from '../../names'
import { isStorageError } from '../../store/storage-errors'
import type { Upload } from '../../store/uploads'
import { renderMailPrompt } from '../config'
import { type SavedFile, partDir, saveBytes, saveStream, saveText } from '../files'
import { MailError, type MailMeta, type MailPart, type MailSession } from '../provider'
import type { MailRow } from '../store'
import {
  MAX_BODY_BYTES,
  type ReceiptPart,
  bodyTextPart,
  decodedSize,
  documentParts,
  htmlPart,
  maybeLogo,
  referencedCids,
} from '../structure'
import { type RuleContext, asDownloadError } from './context'
import { clean, matchesRule, senderText } from './rule-match'

/** The largest attachment downloaded at all (the Settings maximum); larger ones are not receipts. */
export const MAX_ATTACHMENT_BYTES = 200 * 1024 * 1024

/** One mail: its receipts (or its text) through intake, each linked to the mail as it is recorded. */
export async function takeMail(
  ctx: RuleContext,
  s: MailSession,
  uv: string,
  meta: MailMeta,
  pre: Map<string, Buffer> = new Map(),
): Promise<void> {
  const { rule, account } = ctx
  const known = ctx.d.store.mailAt(account.id, rule.mailbox, uv, meta.uid)
  const have = new Set(known ? ctx.d.store.parts(known.id).map((x) => x.part) : [])
  if (known && (known.state !== 'open' || have.size >= known.receipts)) return
  if (!known && !matchesRule(rule, meta)) return
  try {
    let cids: Set<string> | null = null
    const html = htmlPart(meta.structure)
    if (html && meta.structure && hasMaybeLogo(meta.structure)) {
      // The HTML tells which small images are its logos. Unreadable (but the connection is fine):
      // an image with a Content-ID inside multipart/related is taken as one (cids stays null), so
      // nothing fallible stands between a mail and its row.
      cids = await readText(ctx, s, meta.uid, html.part || '1').then(referencedCids, (e: unknown) => {
        if (e instanceof MailError) throw e
        return null
      })
    }
    const parts = documentParts(meta.structure, rule.acceptedKinds, cids)
    const bounded = (p: ReceiptPart) => decodedSize({ size: p.size, encoding: 'base64' }) <= MAX_ATTACHMENT_BYTES
    const plan = parts.receipts.filter(bounded)
    // Documents of a kind the rule does not take: each kept and recorded as skipped, with its reason.
    const others = parts.others.filter(bounded)
    const messageKey = meta.messageId
      ? `mid:${meta.messageId.toLowerCase()}`
      : `place:${account.id}/${rule.mailbox}/${uv}/${meta.uid}`
    await ctx.d.serial(`${account.profileId}\u0000${messageKey}`, async () => {
      const mail =
        known ??
        ctx.d.store.insertMail({
          profile_id: account.profileId,
          account_id: account.id,
          rule_id: rule.id,
          mailbox: rule.mailbox,
          uid_validity: uv,
          uid: meta.uid,
          message_key: messageKey,
          message_id: meta.messageId,
          sender: senderText(meta),
          subject: clean(meta.subject, 300) || '(no subject)',
          received_at: meta.receivedAt,
          receipts: Math.max(1, plan.length) + others.length,
        })
      // Receipts just queued have no record yet: the mail is looked at when their jobs complete.
      let mayBeRecorded = false
      if (plan.length === 0) mayBeRecorded = (await takeBody(ctx, s, mail, meta, have)) !== 'queued'
      else {
        for (const p of plan) {
          const took = await takePart(ctx, s, mail, p, have, pre.get(`${meta.uid}/${p.part}`))
          if (took !== 'queued') mayBeRecorded = true
        }
      }
      for (const p of others) {
        await takePart(ctx, s, mail, p, have, pre.get(`${meta.uid}/${p.part}`), rule.acceptedKinds)
        mayBeRecorded = true
      }
      if (mayBeRecorded) ctx.d.checkRecorded(mail.id)
    })
  } catch (e) {
    // The connection or storage: the whole read stops and is tried again. Anything else belongs to
    // this mail: said, and the mail is read again next time (it stays open, short of a receipt).
    if (e instanceof MailError || isStorageError(e) || ctx.stopped) throw e
    ctx.d.notice(
      'warning',
      `mail account "${account.label}": the mail "${clean(meta.subject, 80)}" could not be taken (${(e as Error).message}); it is tried again next time.`,
    )
  }
}

function request(
  ctx: RuleContext,
  mail: MailRow,
  path: string,
  name: string,
  kinds: readonly string[],
): IntakeRequest {
  const fromName = mail.sender.replace(/\s*<[^>]*>$/, '') || mail.sender
  return {
    profileId: ctx.account.profileId,
    target: ctx.rule.target,
    prompt: renderMailPrompt(ctx.rule.promptTemplate, {
      filename: name,
      mailbox: ctx.rule.mailbox,
      from: clean(fromName, 120),
      subject: clean(mail.subject, 200),
      date: mail.received_at ? new Date(mail.received_at) : new Date(),
    }),
    processType: ctx.rule.processType,
    source: 'mail',
    folderId: null,
    // Bookdrop's own file in its data folder: no watched folder to stay inside.
    root: null,
    path,
    acceptedKinds: kinds,
    maxFileBytes: ctx.d.maxFileBytes(),
    afterUpload: 'leave',
    destinationDir: null,
    mailFrom: mail.sender,
    mailSubject: mail.subject,
  }
}

/**
 * Links the row intake recorded (idempotent: a second link of the same part is ignored), with the
 * hash of the bytes downloaded (`sha256`; the row's own may be of a prepared photo).
 */
function linker(
  ctx: RuleContext,
  mail: MailRow,
  part: string,
  name: string,
  size: number | null,
  sha256?: string,
): (u: Upload) => void {
  return (u) =>
    ctx.d.store.linkPart({ mail_id: mail.id, part, name, size, sha256: sha256 ?? u.sha256, upload_id: u.id })
}

/**
 * Takes one part of a mail; says whether it was queued just now (no record can exist yet). `kinds`:
 * what intake accepts (the part's own kind for a receipt; the rule's for a part of another kind,
 * which intake then records as skipped).
 */
async function takePart(
  ctx: RuleContext,
  s: MailSession,
  mail: MailRow,
  p: ReceiptPart,
  have: ReadonlySet<string>,
  prefetched?: Buffer,
  kinds: readonly string[] = [p.kind],
): Promise<'queued' | 'other'> {
  if (have.has(p.part)) return 'other'
  const dir = partDir(ctx.d.dataDir, ctx.account.id, mail.uid_validity, mail.uid, p.part)
  const name = storedName(p.name.trim() ? p.name : 'attachment')
  let saved: SavedFile
  if (prefetched) saved = await saveBytes(dir, name, prefetched)
  else {
    const stream = await s.download(mail.uid, p.part, { maxBytes: MAX_ATTACHMENT_BYTES })
    if (!stream) throw new Error(`part ${p.part} (${p.name}) is no longer on the server`)
    saved = await saveStream(dir, name, stream, MAX_ATTACHMENT_BYTES).catch((e: unknown) => {
      throw e instanceof MailError ? e : asDownloadError(e, ctx.account.label)
    })
  }
  // The same mail found before (another mailbox, or this one before it was renumbered): its
  // receipt is this one's, not sent again. Only the same bytes say so: another mail may reuse the
  // Message-ID with the same part layout (issue 31).
  const earlier = ctx.d.store.earlierPart(mail.profile_id, mail.message_key, p.part, p.size, mail.id, saved.sha256)
  if (earlier !== undefined) {
    ctx.d.store.linkPart({
      mail_id: mail.id,
      part: p.part,
      name: p.name,
      size: p.size,
      sha256: saved.sha256,
      upload_id: earlier,
    })
    // The copy downloaded stays: its folder may be the first copy's too (partDir names no mailbox).
    return 'other'
  }
  const req = request(ctx, mail, saved.path, name, kinds)
  const r = await ctx.d.take({
    ...req,
    written: { size: saved.size, sha256: saved.sha256 },
    recorded: linker(ctx, mail, p.part, name, p.size, saved.sha256),
  })
  if (r.kind === 'ignored') linkHandled(ctx, req, mail, p.part, name, p.size)
  return r.kind === 'queued' ? 'queued' : 'other'
}

/**
 * Intake found this exact file already handled (a row recorded before a kill, on a path whose
 * link was not made: only a skipped row can be, see Intake.record): link that row.
 */
function linkHandled(
  ctx: RuleContext,
  req: IntakeRequest,
  mail: MailRow,
  part: string,
  name: string,
  size: number | null,
): void {
  const row = ctx.d.store.latestUploadOf(req.profileId, req.target, req.path)
  if (!row) throw new Error(`${name} changed while it was read`)
  ctx.d.store.linkPart({ mail_id: mail.id, part, name, size, sha256: row.sha256, upload_id: row.id })
}

/**
 * A mail with no receipt attached: its text is kept as a file, and either sent (the rule's "send
 * the body") or recorded as skipped "no receipt in this mail" (its "Send anyway" sends the text).
 */
async function takeBody(
  ctx: RuleContext,
  s: MailSession,
  mail: MailRow,
  meta: MailMeta,
  have: ReadonlySet<string>,
): Promise<'queued' | 'other'> {
  if (have.has('text')) return 'other'
  const part = bodyTextPart(meta.structure)
  let text = ''
  if (part) {
    const raw = await readText(ctx, s, meta.uid, part.part || '1')
    // A body the text reader refuses (past its time or memory limit) is kept as the headers only.
    text = await ctx.d
      .bodyText(part.type === 'text/html' ? 'text/html' : 'text/plain', raw)
      .catch((e: unknown) => `(the text of this mail could not be read: ${(e as Error).message})`)
  }
  const subject = clean(mail.subject, 80)
  const name = `${storedName(subject.trim() ? subject : 'message').replace(/\.txt$/i, '')}.txt`
  const dir = partDir(ctx.d.dataDir, ctx.account.id, mail.uid_validity, mail.uid, 'text')
  const header = `From: ${mail.sender}\nSubject: ${mail.subject}\n${mail.received_at ? `Received: ${new Date(mail.received_at).toISOString()}\n` : ''}\n`
  const path = await saveText(dir, name, header + text)
  const req = {
    ...request(ctx, mail, path, name, ['txt']),
    recorded: linker(ctx, mail, 'text', name, null),
  }
  if (ctx.rule.sendBody) {
    const r = await ctx.d.take(req)
    if (r.kind === 'ignored') linkHandled(ctx, req, mail, 'text', name, null)
    return r.kind === 'queued' ? 'queued' : 'other'
  }
  ctx.d.store.transaction(() => ctx.d.noReceipt(req))
  return 'other'
}

/** A text part of a mail, decoded to UTF-8, at most MAX_BODY_BYTES. */
async function readText(ctx: RuleContext, s: MailSession, uid: number, part: string): Promise<string> {
  const stream = await s.download(uid, part, { maxBytes: MAX_BODY_BYTES })
  if (!stream) return ''
  const chunks: Buffer[] = []
  let n = 0
  try {
    for await (const c of stream as AsyncIterable<Buffer>) {
      chunks.push(c)
      n += c.length
      if (n >= MAX_BODY_BYTES) break
    }
  } catch (e) {
    throw asDownloadError(e, ctx.account.label)
  } finally {
    stream.destroy()
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8')
}

function hasMaybeLogo(p: MailPart): boolean {
  if (p.children?.length) return p.children.some(hasMaybeLogo)
  return maybeLogo(p)
}
