/**
 * One mail rule at work: one connection to its account, its mailbox selected, reading what is new
 * since the rule's start date (by UID, in batches), taking each receipt through intake, and applying
 * the after-action to mails whose receipts all have records. Watching, it waits for new mail with
 * IMAP IDLE (or polls), and reconnects with backoff; `--once` reads, then (after the jobs) acts.
 *
 * Exactly once (issue 24): a mail is known by its place (account, mailbox, UIDVALIDITY, UID) and by
 * its Message-ID; a receipt's upload row and its link to the mail commit in one transaction, before
 * any request. So a kill at any moment, a restart, a renumbered mailbox (UIDVALIDITY) or the same
 * mail in two mailboxes never takes a receipt twice.
 */
import { readFile } from 'node:fs/promises'
import type { MailAccountConfig, MailAccountStatus, MailRuleConfig } from '../../../contract/types'
import type { IntakeRequest, IntakeResult } from '../intake/intake'
import { isStorageError } from '../store/storage-errors'
import type { Upload } from '../store/uploads'
import { mailboxPath, renderMailPrompt } from './config'
import { partDir, saveBytes, saveStream, saveText } from './files'
import { storedName } from '../names'
import { MailError, type MailMeta, type MailPart, type MailSession } from './provider'
import { type MailRow, type MailStore } from './store'
import {
  MAX_BODY_BYTES,
  type ReceiptPart,
  bodyTextPart,
  decodedSize,
  htmlPart,
  maybeLogo,
  receiptParts,
  referencedCids,
} from './structure'

/** Mails whose structure is fetched in one command. */
export const FETCH_BATCH = 50
/** Mails acted on (seen, moved) in one command. */
const ACTION_BATCH = 200
/** Attachments up to this size (decoded) are fetched several mails at a time, as whole parts. */
const PREFETCH_PART_BYTES = 1024 * 1024
/** The most bytes of such attachments held in memory at once. */
const PREFETCH_GROUP_BYTES = 2 * 1024 * 1024
/** The largest attachment downloaded at all (the Settings maximum); larger ones are not receipts. */
export const MAX_ATTACHMENT_BYTES = 200 * 1024 * 1024

export interface MailTiming {
  /** First wait after a lost connection, rising to `backoffMaxMs`. */
  backoffMs: number
  backoffMaxMs: number
  /** Wait after a problem a person must fix (wrong password, certificate, mailbox): tried again then. */
  problemRetryMs: number
  /** Longest IDLE before the mailbox is read again anyway. */
  rescanMs: number
  /** Attempts of a `--once` read when the connection is lost. */
  onceAttempts: number
}

export const DEFAULT_MAIL_TIMING: MailTiming = {
  backoffMs: 1000,
  backoffMaxMs: 60_000,
  problemRetryMs: 5 * 60_000,
  rescanMs: 10 * 60_000,
  onceAttempts: 4,
}

/** What a runner needs of the mail service. */
export interface RunnerDeps {
  store: MailStore
  dataDir: string
  timing: MailTiming
  connect(account: MailAccountConfig, signal: AbortSignal): Promise<MailSession>
  take(req: IntakeRequest): Promise<IntakeResult>
  noReceipt(req: IntakeRequest): IntakeResult
  maxFileBytes(): number
  bodyText(type: 'text/plain' | 'text/html', text: string): Promise<string>
  status(ruleId: string, s: Partial<MailAccountStatus>): void
  notice(level: 'info' | 'warning' | 'error', message: string): void
  /** A mail's receipts may all have records now: check and mark it. */
  checkRecorded(mailId: number): void
  /**
   * Runs `fn` after any other run of the same key has finished: two rules reading the same mail (in
   * two mailboxes) take it one after the other, so the second finds the first's receipts.
   */
  serial<T>(key: string, fn: () => Promise<T>): Promise<T>
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const t = setTimeout(done, ms)
    function done() {
      clearTimeout(t)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

/** Any failure as a MailError: a storage fault or another local error waits and is tried again. */
export function asMailError(e: unknown, label: string): MailError {
  if (e instanceof MailError) return e
  const msg = e instanceof Error ? e.message : String(e)
  if (isStorageError(e))
    return new MailError(
      'protocol',
      `mail account "${label}": storage failed (${msg}); mail is read again once it works.`,
    )
  return new MailError('protocol', `mail account "${label}": ${msg}`)
}

/** "Name <address>", or the address alone. */
export function senderText(meta: Pick<MailMeta, 'from'>): string {
  const f = meta.from[0]
  if (!f) return '(unknown sender)'
  const name = f.name.trim()
  return (name && f.address ? `${name} <${f.address}>` : name || f.address || '(unknown sender)').slice(
    0,
    300,
  )
}

/** The rule's filters (AND; case-insensitive substrings; from: the address or the display name). */
export function matchesRule(
  rule: Pick<MailRuleConfig, 'fromContains' | 'subjectContains'>,
  meta: Pick<MailMeta, 'from' | 'subject'>,
): boolean {
  if (rule.fromContains) {
    const want = rule.fromContains.toLowerCase()
    const hit = meta.from.some(
      (f) => f.address.toLowerCase().includes(want) || f.name.toLowerCase().includes(want),
    )
    if (!hit) return false
  }
  if (rule.subjectContains && !meta.subject.toLowerCase().includes(rule.subjectContains.toLowerCase()))
    return false
  return true
}

/** What a rule's reading depends on: a change reads the mailbox again from its start date. */
function signatureOf(r: MailRuleConfig): string {
  return JSON.stringify([r.since, r.fromContains, r.subjectContains, [...r.acceptedKinds].sort(), r.sendBody])
}

/** Text of a mail (subject, sender) fit for a prompt or a file name: no control characters, bounded. */
const clean = (s: string, max: number) =>
  s
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, max)

export class RuleRunner {
  private session: MailSession | null = null
  private readonly stopper = new AbortController()
  private waitAbort: AbortController | null = null
  private wakeRequested = false
  private actRequested = false
  private loopDone: Promise<void> | null = null
  private uidValidity: string | null = null
  /** The UIDVALIDITY under which open mails were last looked at for records made meanwhile. */
  private swept: string | null = null

  constructor(
    readonly account: MailAccountConfig,
    readonly rule: MailRuleConfig,
    private readonly d: RunnerDeps,
  ) {}

  get stopped(): boolean {
    return this.stopper.signal.aborted
  }

  /** Looks at the mailbox now (after-actions due, "Check now"), instead of at the next wake-up. */
  wake(): void {
    this.wakeRequested = true
    this.waitAbort?.abort()
  }

  /** Mails of this rule became recorded: apply their after-action soon (without reading the mailbox). */
  requestAct(): void {
    this.actRequested = true
    this.waitAbort?.abort()
  }

  // ---- watching ------------------------------------------------------------------------------

  start(): void {
    this.loopDone ??= this.loop()
  }

  async stop(): Promise<void> {
    this.stopper.abort()
    this.waitAbort?.abort()
    await this.closeSession()
    await this.loopDone
  }

  private async closeSession(): Promise<void> {
    const s = this.session
    this.session = null
    if (s) await s.close().catch(() => undefined)
  }

  private async loop(): Promise<void> {
    let failures = 0
    while (!this.stopped) {
      try {
        this.d.status(this.rule.id, { state: 'connecting', message: null, problem: null })
        const s = await this.d.connect(this.account, this.stopper.signal)
        if (this.stopped) {
          await s.close()
          break
        }
        this.session = s
        failures = 0
        const idle = s.canIdle && !this.account.usePolling
        this.d.status(this.rule.id, { state: 'connected', message: null, problem: null, idle })
        let full = true
        while (!this.stopped) {
          if (full) {
            this.wakeRequested = false
            this.actRequested = false
            await this.sync(s)
            this.d.status(this.rule.id, {
              state: 'connected',
              lastCheckAt: Date.now(),
              message: null,
              problem: null,
              idle,
            })
          } else if (this.uidValidity) {
            // Mails whose receipts all have records now: their after-action, no reading.
            this.actRequested = false
            await this.act(s, this.uidValidity)
          }
          if (this.wakeRequested || this.actRequested) {
            full = this.wakeRequested
            continue
          }
          this.waitAbort = new AbortController()
          const both = AbortSignal.any([this.stopper.signal, this.waitAbort.signal])
          await s.wait(idle ? this.d.timing.rescanMs : this.account.pollSeconds * 1000, both)
          // New mail, the rescan's time or "Check now" read the mailbox; records only act.
          full = this.wakeRequested || !this.actRequested
          this.waitAbort = null
        }
      } catch (e) {
        await this.closeSession()
        if (this.stopped) break
        const me = asMailError(e, this.account.label)
        failures++
        const wait = me.transient
          ? Math.min(this.d.timing.backoffMaxMs, this.d.timing.backoffMs * 2 ** Math.min(failures - 1, 10)) *
            (0.5 + Math.random() / 2)
          : this.d.timing.problemRetryMs
        this.d.status(this.rule.id, {
          state: me.transient ? 'waiting' : 'error',
          message: me.message,
          problem: me.problem,
        })
        // "Check now" (wake) tries again at once: a person may just have fixed the cause.
        this.waitAbort = new AbortController()
        if (!this.wakeRequested)
          await sleep(wait, AbortSignal.any([this.stopper.signal, this.waitAbort.signal]))
        this.waitAbort = null
        this.wakeRequested = false
      }
    }
    await this.closeSession()
  }

  // ---- once ----------------------------------------------------------------------------------

  /**
   * `--once`: reads the mailbox (taking every receipt), trying again a few times when the
   * connection is lost; a problem a person must fix throws at once.
   */
  async readOnce(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        this.d.status(this.rule.id, { state: 'connecting', message: null, problem: null })
        const s = await this.d.connect(this.account, this.stopper.signal)
        this.session = s
        this.d.status(this.rule.id, { state: 'connected', message: null, problem: null, idle: false })
        await this.sync(s)
        this.d.status(this.rule.id, { state: 'connected', lastCheckAt: Date.now() })
        await this.closeSession()
        return
      } catch (e) {
        await this.closeSession()
        const me = asMailError(e, this.account.label)
        this.d.status(this.rule.id, {
          state: me.transient ? 'waiting' : 'error',
          message: me.message,
          problem: me.problem,
        })
        if (!me.transient || attempt >= this.d.timing.onceAttempts || this.stopped) throw me
        await sleep(this.d.timing.backoffMs * 2 ** (attempt - 1), this.stopper.signal)
      }
    }
  }

  /** `--once`, after the jobs: applies the after-action to mails whose receipts all have records. */
  async actOnce(): Promise<void> {
    if (!this.uidValidity) return
    for (const m of this.d.store.mailsIn(this.rule.id, this.uidValidity, 'open')) this.d.checkRecorded(m.id)
    if (this.d.store.mailsIn(this.rule.id, this.uidValidity, 'recorded').length === 0) return
    for (let attempt = 1; ; attempt++) {
      try {
        const s = await this.d.connect(this.account, this.stopper.signal)
        this.session = s
        const box = await s.open(mailboxPath(this.rule.mailbox))
        if (box.uidValidity === this.uidValidity) await this.act(s, box.uidValidity)
        await this.closeSession()
        return
      } catch (e) {
        await this.closeSession()
        const me = asMailError(e, this.account.label)
        if (!me.transient || attempt >= this.d.timing.onceAttempts || this.stopped) throw me
        await sleep(this.d.timing.backoffMs * 2 ** (attempt - 1), this.stopper.signal)
      }
    }
  }

  // ---- reading -------------------------------------------------------------------------------

  private async sync(s: MailSession): Promise<void> {
    const { rule, account } = this
    const box = await s.open(mailboxPath(rule.mailbox))
    const uv = box.uidValidity
    this.uidValidity = uv
    const sig = signatureOf(rule)
    let st = this.d.store.ruleState(rule.id)
    if (!st || st.uidValidity !== uv || st.signature !== sig) {
      if (st && st.uidValidity !== uv) {
        const stale = this.d.store.markStale(account.id, rule.mailbox, uv)
        this.d.notice(
          'info',
          `mail account "${account.label}": ${rule.mailbox} was renumbered by the server (UIDVALIDITY ${st.uidValidity} → ${uv}); it is read again, and receipts already taken are not sent again${stale ? ` (${stale} mail(s) waiting for records are followed under their new numbers)` : ''}.`,
        )
      }
      st = { uidValidity: uv, lastUid: 0, signature: sig }
      this.d.store.setRuleState(rule.id, st)
    }

    // Mails found earlier that still miss a receipt (a part that could not be taken): read again.
    const open = this.d.store.mailsIn(rule.id, uv, 'open')
    const incomplete = open.filter((m) => this.d.store.parts(m.id).length < m.receipts).map((m) => m.uid)
    const fresh =
      box.uidNext !== null && box.uidNext <= st.lastUid + 1
        ? []
        : await s.search({ afterUid: st.lastUid, since: rule.since })
    const uids = [...new Set([...incomplete, ...fresh])].sort((a, b) => a - b)

    for (let i = 0; i < uids.length && !this.stopped; i += FETCH_BATCH) {
      const batch = uids.slice(i, i + FETCH_BATCH)
      const metas = await s.fetchMeta(batch)
      for (const group of this.prefetchGroups(uv, metas)) {
        // Small receipts of a few mails come in one command (a per-attachment download costs a
        // round trip and a stream each); larger ones stream to disk as they are taken.
        const pre = await this.prefetch(s, group.parts)
        for (const meta of group.metas) {
          if (this.stopped) return
          await this.takeMail(s, uv, meta, pre)
        }
      }
      const top = Math.max(...batch)
      if (top > st.lastUid) {
        st = { ...st, lastUid: top }
        this.d.store.setRuleState(rule.id, st)
      }
    }
    // Once per run: mails whose last record came while Bookdrop was stopped (the completion and the
    // mail's mark are two commits); from then on each completion marks its mails as it happens.
    if (this.swept !== uv) {
      for (const m of this.d.store.mailsIn(rule.id, uv, 'open')) this.d.checkRecorded(m.id)
      this.swept = uv
    }
    await this.act(s, uv)
  }

  /**
   * The mails of a batch in groups whose small receipts (at most PREFETCH_PART_BYTES each) add up
   * to at most PREFETCH_GROUP_BYTES: what is held in memory at once while they are taken.
   */
  private prefetchGroups(
    uv: string,
    metas: MailMeta[],
  ): { metas: MailMeta[]; parts: { uid: number; part: string }[] }[] {
    const groups: { metas: MailMeta[]; parts: { uid: number; part: string }[]; bytes: number }[] = []
    let cur: (typeof groups)[number] = { metas: [], parts: [], bytes: 0 }
    for (const meta of metas) {
      const known = this.d.store.mailAt(this.account.id, this.rule.mailbox, uv, meta.uid)
      const wanted = (known ? known.state === 'open' : matchesRule(this.rule, meta))
        ? receiptParts(meta.structure, this.rule.acceptedKinds).filter(
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
  private async prefetch(
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

  /** One mail: its receipts (or its text) through intake, each linked to the mail as it is recorded. */
  private async takeMail(
    s: MailSession,
    uv: string,
    meta: MailMeta,
    pre: Map<string, Buffer> = new Map(),
  ): Promise<void> {
    const { rule, account } = this
    const known = this.d.store.mailAt(account.id, rule.mailbox, uv, meta.uid)
    const have = new Set(known ? this.d.store.parts(known.id).map((x) => x.part) : [])
    if (known && (known.state !== 'open' || have.size >= known.receipts)) return
    if (!known && !matchesRule(rule, meta)) return
    try {
      let cids: Set<string> | null = null
      const html = htmlPart(meta.structure)
      if (html && meta.structure && hasMaybeLogo(meta.structure)) {
        // The HTML tells which small images are its logos. Unreadable (but the connection is fine):
        // an image with a Content-ID inside multipart/related is taken as one (cids stays null), so
        // nothing fallible stands between a mail and its row.
        cids = await this.readText(s, meta.uid, html.part || '1').then(referencedCids, (e: unknown) => {
          if (e instanceof MailError) throw e
          return null
        })
      }
      const plan = receiptParts(meta.structure, rule.acceptedKinds, cids).filter(
        (p) => decodedSize({ size: p.size, encoding: 'base64' }) <= MAX_ATTACHMENT_BYTES,
      )
      const messageKey = meta.messageId
        ? `mid:${meta.messageId.toLowerCase()}`
        : `place:${account.id}/${rule.mailbox}/${uv}/${meta.uid}`
      await this.d.serial(`${account.profileId}\u0000${messageKey}`, async () => {
        const mail =
          known ??
          this.d.store.insertMail({
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
            receipts: Math.max(1, plan.length),
          })
        // Receipts just queued have no record yet: the mail is looked at when their jobs complete.
        let mayBeRecorded = false
        if (plan.length === 0) mayBeRecorded = (await this.takeBody(s, mail, meta, have)) !== 'queued'
        else {
          for (const p of plan) {
            const took = await this.takePart(s, mail, p, have, pre.get(`${meta.uid}/${p.part}`))
            if (took !== 'queued') mayBeRecorded = true
          }
        }
        if (mayBeRecorded) this.d.checkRecorded(mail.id)
      })
    } catch (e) {
      // The connection or storage: the whole read stops and is tried again. Anything else belongs to
      // this mail: said, and the mail is read again next time (it stays open, short of a receipt).
      if (e instanceof MailError || isStorageError(e) || this.stopped) throw e
      this.d.notice(
        'warning',
        `mail account "${account.label}": the mail "${clean(meta.subject, 80)}" could not be taken (${(e as Error).message}); it is tried again next time.`,
      )
    }
  }

  private request(mail: MailRow, path: string, name: string, kinds: readonly string[]): IntakeRequest {
    const fromName = mail.sender.replace(/\s*<[^>]*>$/, '') || mail.sender
    return {
      profileId: this.account.profileId,
      target: this.rule.target,
      prompt: renderMailPrompt(this.rule.promptTemplate, {
        filename: name,
        mailbox: this.rule.mailbox,
        from: clean(fromName, 120),
        subject: clean(mail.subject, 200),
        date: mail.received_at ? new Date(mail.received_at) : new Date(),
      }),
      processType: this.rule.processType,
      source: 'mail',
      folderId: null,
      // Bookdrop's own file in its data folder: no watched folder to stay inside.
      root: null,
      path,
      acceptedKinds: kinds,
      maxFileBytes: this.d.maxFileBytes(),
      afterUpload: 'leave',
      destinationDir: null,
      mailFrom: mail.sender,
      mailSubject: mail.subject,
    }
  }

  /** Links the row intake recorded (idempotent: a second link of the same part is ignored). */
  private linker(mail: MailRow, part: string, name: string, size: number | null): (u: Upload) => void {
    return (u) =>
      this.d.store.linkPart({ mail_id: mail.id, part, name, size, sha256: u.sha256, upload_id: u.id })
  }

  /** Takes one receipt of a mail; says whether it was queued just now (no record can exist yet). */
  private async takePart(
    s: MailSession,
    mail: MailRow,
    p: ReceiptPart,
    have: ReadonlySet<string>,
    prefetched?: Buffer,
  ): Promise<'queued' | 'other'> {
    if (have.has(p.part)) return 'other'
    // The same mail found before (another mailbox, or this one before it was renumbered): its
    // receipt is this one's, nothing is downloaded or sent again.
    const earlier = this.d.store.earlierPart(mail.profile_id, mail.message_key, p.part, p.size, mail.id)
    if (earlier !== undefined) {
      this.d.store.linkPart({
        mail_id: mail.id,
        part: p.part,
        name: p.name,
        size: p.size,
        sha256: null,
        upload_id: earlier,
      })
      return 'other'
    }
    const dir = partDir(this.d.dataDir, this.account.id, mail.uid_validity, mail.uid, p.part)
    const name = storedName(p.name.trim() ? p.name : 'attachment')
    let saved: { path: string; size: number; sha256: string }
    if (prefetched) saved = await saveBytes(dir, name, prefetched)
    else {
      const stream = await s.download(mail.uid, p.part, { maxBytes: MAX_ATTACHMENT_BYTES })
      if (!stream) throw new Error(`part ${p.part} (${p.name}) is no longer on the server`)
      saved = await saveStream(dir, name, stream, MAX_ATTACHMENT_BYTES).catch((e: unknown) => {
        throw e instanceof MailError ? e : asDownloadError(e, this.account.label)
      })
    }
    const req = this.request(mail, saved.path, name, [p.kind])
    const r = await this.d.take({
      ...req,
      written: { size: saved.size, sha256: saved.sha256 },
      recorded: this.linker(mail, p.part, name, p.size),
    })
    if (r.kind === 'ignored') this.linkHandled(req, mail, p.part, name, p.size)
    return r.kind === 'queued' ? 'queued' : 'other'
  }

  /**
   * Intake found this exact file already handled (a row recorded before a kill, on a path whose
   * link was not made: only a skipped row can be, see Intake.record): link that row.
   */
  private linkHandled(
    req: IntakeRequest,
    mail: MailRow,
    part: string,
    name: string,
    size: number | null,
  ): void {
    const row = this.d.store.latestUploadOf(req.profileId, req.target, req.path)
    if (!row) throw new Error(`${name} changed while it was read`)
    this.d.store.linkPart({ mail_id: mail.id, part, name, size, sha256: row.sha256, upload_id: row.id })
  }

  /**
   * A mail with no receipt attached: its text is kept as a file, and either sent (the rule's "send
   * the body") or recorded as skipped "no receipt in this mail" (its "Send anyway" sends the text).
   */
  private async takeBody(
    s: MailSession,
    mail: MailRow,
    meta: MailMeta,
    have: ReadonlySet<string>,
  ): Promise<'queued' | 'other'> {
    if (have.has('text')) return 'other'
    const part = bodyTextPart(meta.structure)
    let text = ''
    if (part) {
      const raw = await this.readText(s, meta.uid, part.part || '1')
      // A body the text reader refuses (past its time or memory limit) is kept as the headers only.
      text = await this.d
        .bodyText(part.type === 'text/html' ? 'text/html' : 'text/plain', raw)
        .catch((e: unknown) => `(the text of this mail could not be read: ${(e as Error).message})`)
    }
    const subject = clean(mail.subject, 80)
    const name = `${storedName(subject.trim() ? subject : 'message').replace(/\.txt$/i, '')}.txt`
    const dir = partDir(this.d.dataDir, this.account.id, mail.uid_validity, mail.uid, 'text')
    const header = `From: ${mail.sender}\nSubject: ${mail.subject}\n${mail.received_at ? `Received: ${new Date(mail.received_at).toISOString()}\n` : ''}\n`
    const path = await saveText(dir, name, header + text)
    const req = {
      ...this.request(mail, path, name, ['txt']),
      recorded: this.linker(mail, 'text', name, null),
    }
    if (this.rule.sendBody) {
      const r = await this.d.take(req)
      if (r.kind === 'ignored') this.linkHandled(req, mail, 'text', name, null)
      return r.kind === 'queued' ? 'queued' : 'other'
    }
    this.d.store.transaction(() => this.d.noReceipt(req))
    return 'other'
  }

  /** A text part of a mail, decoded to UTF-8, at most MAX_BODY_BYTES. */
  private async readText(s: MailSession, uid: number, part: string): Promise<string> {
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
      throw asDownloadError(e, this.account.label)
    } finally {
      stream.destroy()
    }
    return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8')
  }

  // ---- after the records ---------------------------------------------------------------------

  /** Applies the rule's after-action to its mails whose receipts all have records. Never a delete. */
  private async act(s: MailSession, uv: string): Promise<void> {
    const due = this.d.store.mailsIn(this.rule.id, uv, 'recorded')
    for (let i = 0; i < due.length; i += ACTION_BATCH) {
      const batch = due.slice(i, i + ACTION_BATCH)
      const uids = batch.map((m) => m.uid)
      let did: string
      if (this.rule.after === 'seen') {
        await s.markSeen(uids)
        did = 'marked seen'
      } else if (this.rule.after === 'move') {
        await s.move(uids, mailboxPath(this.rule.moveTo))
        did = `moved to ${this.rule.moveTo}`
      } else {
        did = 'left'
      }
      this.d.store.transaction(() => {
        for (const m of batch) this.d.store.setState(m.id, 'recorded', 'done', { afterAction: did })
      })
    }
  }
}

function hasMaybeLogo(p: MailPart): boolean {
  if (p.children?.length) return p.children.some(hasMaybeLogo)
  return maybeLogo(p)
}

/** A download that broke off: the connection (tried again), or a file that could not be written. */
function asDownloadError(e: unknown, label: string): MailError | Error {
  const code = (e as { code?: string }).code
  if (
    code &&
    /^(E[A-Z]+|NoConnection|EConnectionClosed|DownloadIncomplete)$/.test(code) &&
    !['ENOSPC', 'EACCES', 'EROFS', 'EDQUOT', 'EIO'].includes(code)
  ) {
    return new MailError(
      'unreachable',
      `mail account "${label}": the connection was lost while downloading (${code}); Bookdrop tries again.`,
    )
  }
  return e instanceof Error ? e : new Error(String(e))
}

/** Reads a mail's body text file for sending (checks it is the version recorded). */
export async function readBodyText(row: Pick<Upload, 'path' | 'name' | 'size' | 'sha256'>): Promise<string> {
  let buf: Buffer
  try {
    buf = await readFile(row.path)
  } catch (e) {
    const code = (e as { code?: string }).code
    throw Object.assign(new Error(`The text of this mail (${row.path}) is no longer there.`), {
      status: 0,
      errorCode: code === 'ENOENT' ? 'file_not_found' : 'file_read_error',
      retryable: false,
    })
  }
  const { createHash } = await import('node:crypto')
  if (
    (row.size !== null && buf.length !== row.size) ||
    (row.sha256 !== null && createHash('sha256').update(buf).digest('hex') !== row.sha256)
  ) {
    throw Object.assign(new Error(`"${row.name}" changed on disk after it was queued; nothing was sent.`), {
      status: 0,
      errorCode: 'file_superseded',
      retryable: false,
    })
  }
  return buf.toString('utf8')
}
