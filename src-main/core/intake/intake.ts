/**
 * From "a file is here" to a committed row: the file opened where it is checked to lie inside its
 * watched folder (links out of it are never read), checks (kind, size, empty, readable, the bytes
 * are what the name says), streaming sha256 of the opened file, duplicate detection, and the INSERT
 * that happens before any network call (design.md §2). A file that cannot be sent is never
 * touched: its row says why.
 *
 * "Duplicate" means the content was already sent (the server accepted a create or made a record),
 * never merely queued. The same content found at a new path while its row still waits (its old path
 * gone: renamed or moved) is that row's file: the row follows it and is sent once. A second copy of
 * content that is on its way is recorded as a duplicate of it, and goes in its place if that one
 * ends without being sent (Engine: promoteOrphans).
 */
import { createHash } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { type AiTarget, fileKind } from '../../../schemas/routes'
import type { EngineEmitter } from '../events'
import { isAccepted } from '../kinds'
import { fsPath, printable } from '../names'
import type { AfterUpload, SkipReason, Upload, UploadSource, UploadStore } from '../store/uploads'
import { openInside, readWindows } from '../watch/inside'
import { WHOLE_READ_BYTES, readAll, sha256File, sha256Handle } from './hash'
import { HEAD_BYTES, type InspectFn, inspect as inspectInProcess, mismatchMessage, tailBytesFor } from './inspect'
import { sizeText } from '../util'
import type { PhotoPreparer } from '../prepare/preparer'
import type { Coded } from '../../../contract/message'
import { skipCoded } from './skip-words'

/** The prepared file of a photo (issue 25), or none. */
type Prepared = { preparedPath: string | null; preparedSize: number | null; preparedMtimeMs: number | null }
const NOT_PREPARED: Prepared = { preparedPath: null, preparedSize: null, preparedMtimeMs: null }

export interface IntakeRequest {
  profileId: string
  target: AiTarget
  prompt: string
  processType: 'async' | 'direct'
  source: UploadSource
  folderId: string | null
  path: string
  acceptedKinds: readonly string[]
  maxFileBytes: number
  afterUpload: AfterUpload
  /** Where the file goes once its record exists (move/archive). */
  destinationDir: string | null
  /**
   * The real path of the watched folder the file was found in: it is read only if its own real path
   * lies inside. null for a file a person gave (a drop, the file picker, the command line), which
   * passed its own rule (user-paths.ts).
   */
  root: string | null
  /** A note for the row (taken although it looked unfinished, see WatchCandidate.note). */
  note?: string
  /** A person asked for it: accept any kind and skip the "already handled this version" check. */
  override?: boolean
  /**
   * The skipped row this take continues (a person's "Send anyway" on it). Without it, the latest
   * row of this path skipped for a cause that can go away (unreadable, too large, empty) is
   * continued: a file keeps one row while it cannot be sent, and that row goes on when it can.
   */
  continues?: Upload
  /**
   * The caller wrote this file itself and hashed the bytes as it wrote them (a mail attachment
   * streamed to disk): that sha256 is used when the file still has that size, instead of reading
   * it again. What is sent is checked against it all the same (the queue hashes what it streams).
   */
  written?: { size: number; sha256: string }
  /** Source `mail`: the mail's sender and subject, kept on the row for the history. */
  mailFrom?: string
  mailSubject?: string
  /**
   * Called with the row this take recorded (new, continued or found), inside the transaction that
   * commits it when there is one: mail intake links the row to its mail there, so a kill can never
   * leave a row without its link (or the link without its row). Must be idempotent.
   */
  recorded?: (upload: Upload) => void
}

export type IntakeResult =
  | { kind: 'queued' | 'duplicate' | 'skipped'; upload: Upload }
  /** Nothing recorded: this exact version was already handled, or it changed while being read. */
  | { kind: 'ignored'; why: 'already_handled' | 'changed' }

export { skipCoded, skipMessage } from './skip-words'

/** The name a row shows (and sends): printable, one line (names.ts). */
export function rowName(path: string): string {
  return printable(basename(path))
}

/** The row being recorded: its fields, its lastError as text or Coded. */
type Written = Partial<Omit<Upload, 'lastError' | 'lastErrorCoded'>> & { lastError?: string | Coded | null }

export class Intake {
  constructor(
    private readonly store: UploadStore,
    private readonly events: EngineEmitter,
    /** The content check (plain data in and out, so it can run in a worker). */
    private readonly inspect: InspectFn = inspectInProcess,
    /** Photos are prepared before they are hashed and sent (issue 25); none: every file as it is. */
    private readonly photos?: PhotoPreparer,
  ) {}

  /**
   * Commits the outcome of a take: continues the earlier skipped row of this file when there is one
   * (skipped → queued or duplicate through the lifecycle table; still skipped: the same row, updated),
   * else a new row.
   */
  private record(
    req: IntakeRequest,
    status: 'queued' | 'duplicate' | 'skipped',
    extra: Written,
    /** The row this take continues, when the caller already looked it up (null: none). */
    known?: Upload | null,
  ): Upload {
    const row = this.recordRow(req, status, extra, known)
    req.recorded?.(row)
    return row
  }

  private recordRow(
    req: IntakeRequest,
    status: 'queued' | 'duplicate' | 'skipped',
    extra: Written,
    known?: Upload | null,
  ): Upload {
    const prior =
      req.continues ??
      (known === undefined ? this.store.findRetakeable(req.profileId, req.target, req.path) : known)
    if (prior && prior.status === 'skipped') {
      if (status === 'skipped') {
        const patch = {
          size: extra.size ?? null,
          mtimeMs: extra.mtimeMs ?? null,
          reason: extra.reason ?? null,
          lastError: extra.lastError ?? null,
        }
        const same =
          patch.size === prior.size &&
          patch.mtimeMs === prior.mtimeMs &&
          patch.reason === prior.reason &&
          (typeof patch.lastError === 'object' && patch.lastError !== null ? patch.lastError.text : patch.lastError) ===
            prior.lastError
        if (same) return prior
        const next = this.store.note(prior, 'skipped', patch)
        if (next) this.events.emit('upload', { upload: next, previous: 'skipped' })
        return next ?? prior
      }
      const next = this.store.transition(prior, 'skipped', status, {
        size: extra.size ?? null,
        mtimeMs: extra.mtimeMs ?? null,
        sha256: extra.sha256 ?? null,
        prompt: req.prompt,
        reason: null,
        duplicateOf: extra.duplicateOf ?? null,
        forced: extra.forced ?? false,
        note: extra.note ?? null,
        preparedPath: extra.preparedPath ?? null,
        preparedSize: extra.preparedSize ?? null,
        preparedMtimeMs: extra.preparedMtimeMs ?? null,
        lastError: extra.lastError ?? null,
        errorCode: null,
        httpStatus: null,
        nextAttemptAt: null,
      })
      if (next) {
        this.events.emit('upload', { upload: next, previous: 'skipped' })
        return next
      }
    }
    const row = this.store.insert({
      profileId: req.profileId,
      target: req.target,
      source: req.source,
      folderId: req.folderId,
      path: req.path,
      name: rowName(req.path),
      prompt: req.prompt,
      processType: req.processType,
      afterUpload: req.afterUpload,
      archiveDir: req.destinationDir,
      status,
      ...(req.mailFrom !== undefined ? { mailFrom: req.mailFrom, mailSubject: req.mailSubject ?? '' } : {}),
      ...extra,
    })
    this.events.emit('upload', { upload: row, previous: null })
    return row
  }

  private skip(
    req: IntakeRequest,
    reason: SkipReason,
    extra: Partial<Upload> & { detail?: string } = {},
  ): IntakeResult {
    const { detail, ...rest } = extra
    const name = basename(req.path)
    const message = skipCoded(reason, {
      name,
      target: req.target,
      kinds: req.acceptedKinds,
      size: rest.size ?? undefined,
      limit: req.maxFileBytes,
      detail,
      mail: req.source === 'mail',
    })
    return { kind: 'skipped', upload: this.record(req, 'skipped', { ...rest, reason, lastError: message }) }
  }

  /** A file the watcher saw but that disappeared before it became stable. */
  vanished(req: IntakeRequest): IntakeResult {
    // A file already taken has its row, which says what becomes of it (sent; followed to its new
    // name when it was renamed; skipped if it is gone when it is sent): a watcher that still had
    // the path pending (a late change event) records nothing more for it.
    const taken = this.store.latestOfPath(req.profileId, req.target, req.path)
    if (taken && taken.status !== 'skipped') return { kind: 'ignored', why: 'already_handled' }
    return this.skip(req, 'vanished')
  }

  /**
   * A mail with no receipt in it: one skipped row, whose file is the mail's text (so "Send anyway"
   * sends that). Run it inside a transaction so the row and its link (req.recorded) commit together.
   */
  noReceipt(req: IntakeRequest): IntakeResult {
    return this.skip(req, 'no_receipt')
  }

  async take(req: IntakeRequest): Promise<IntakeResult> {
    const name = basename(req.path)
    let st
    try {
      st = await stat(fsPath(req.path))
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT') return this.skip(req, 'vanished')
      return this.skip(req, 'unreadable', { detail: code ?? (e as Error).message })
    }
    if (!st.isFile()) return this.skip(req, 'unreadable', { detail: 'not a regular file' })
    let size = st.size
    let mtimeMs = Math.floor(st.mtimeMs)

    if (!req.override && this.store.fileState(req.profileId, req.target, req.path, size, mtimeMs).handled) {
      return { kind: 'ignored', why: 'already_handled' }
    }
    if (!req.override && !isAccepted(name, req.acceptedKinds))
      return this.skip(req, 'unsupported_kind', { size, mtimeMs })

    // Opened where it is checked: what is read is the file whose real path lies in the folder.
    const opened = await openInside(req.path, req.root)
    if (!opened.ok) {
      if (opened.why === 'outside') return this.skip(req, 'outside_folder', { size, mtimeMs, detail: opened.realPath })
      if (opened.why === 'changed') return { kind: 'ignored', why: 'changed' }
      if (opened.why === 'not_file') return this.skip(req, 'unreadable', { detail: 'not a regular file' })
      if (opened.code === 'ENOENT') return this.skip(req, 'vanished', { size, mtimeMs })
      return this.skip(req, 'unreadable', { size, mtimeMs, detail: opened.code })
    }
    let sha256: string
    let prepared: Prepared = NOT_PREPARED
    try {
      size = opened.stat.size
      mtimeMs = Math.floor(opened.stat.mtimeMs)
      if (size === 0) return this.skip(req, 'empty', { size, mtimeMs })
      const kind = fileKind(name)
      // A photo's limit is the prepared file's, checked once it is prepared.
      const photo = this.photos?.wants(name) ?? false
      if (size > req.maxFileBytes && !photo) return this.skip(req, 'too_large', { size, mtimeMs })
      // A receipt-sized file is read once: its windows are checked and its bytes hashed from memory.
      const whole = size <= WHOLE_READ_BYTES ? await readAll(opened.handle, size) : null
      if (!req.override) {
        const windows = whole
          ? { head: whole.subarray(0, HEAD_BYTES), tail: whole.subarray(Math.max(0, whole.length - tailBytesFor(kind))) }
          : await readWindows(opened.handle, size, HEAD_BYTES, tailBytesFor(kind))
        const verdict = await this.inspect({ kind, size, head: windows.head, tail: windows.tail })
        if (!verdict.matches) return this.skip(req, 'mismatch', { size, mtimeMs, detail: mismatchMessage(kind, verdict) })
      }
      if (whole && whole.length !== size) return { kind: 'ignored', why: 'changed' }
      // A photo is prepared first (HEIC → JPEG, oriented, scaled, location stripped), from the bytes
      // of the handle checked above: what is hashed, compared for duplicates and sent is the prepared
      // file; the row keeps the original's path and size.
      if (photo && this.photos) {
        const prep =
          size > this.photos.maxInputBytes
            ? ({ kind: 'failed', detail: `it is ${sizeText(size)}, over the ${sizeText(this.photos.maxInputBytes)} Bookdrop reads as a photo` } as const)
            : await this.photos.prepareRead(whole ?? (await readAll(opened.handle, size)), name)
        if (prep.kind === 'failed' && !req.override) return this.skip(req, 'not_prepared', { size, mtimeMs, detail: prep.detail })
        if (prep.kind === 'prepared') prepared = { preparedPath: prep.path, preparedSize: prep.size, preparedMtimeMs: prep.mtimeMs }
      }
      const sendSize = prepared.preparedSize ?? size
      if (sendSize > req.maxFileBytes) return this.skip(req, 'too_large', { size: sendSize, mtimeMs })
      // A mail's attachment was hashed as it was written (req.written): not read again for that.
      sha256 = prepared.preparedPath
        ? await sha256File(prepared.preparedPath, sendSize)
        : req.written && req.written.size === size
          ? req.written.sha256
          : whole
            ? createHash('sha256').update(whole).digest('hex')
            : await sha256Handle(opened.handle, size)
      const after = await opened.handle.stat()
      if (after.size !== size || Math.floor(after.mtimeMs) !== mtimeMs) return { kind: 'ignored', why: 'changed' }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      return this.skip(req, 'unreadable', { size, mtimeMs, detail: code ?? (e as Error).message })
    } finally {
      await opened.handle.close().catch(() => undefined)
    }

    // Rows of this content still on their way, or vanished before they were sent: is one of them
    // this file under its old name (that path gone)? Looked at before the transaction (it stats).
    const unsent = req.override ? [] : this.store.findUnsent(req.profileId, req.target, sha256)
    const gone = new Set<number>()
    for (const u of unsent) {
      if (u.path === req.path) continue
      const there = await stat(fsPath(u.path)).then(
        (s) => s.isFile(),
        () => false,
      )
      if (!there) gone.add(u.id)
    }

    // Check and insert in one transaction: two copies arriving together cannot both be queued.
    return this.store.transaction(() => {
      const file = this.store.fileState(req.profileId, req.target, req.path, size, mtimeMs)
      if (!req.override && file.handled) return { kind: 'ignored', why: 'already_handled' } as const
      const prior = file.retakeable ?? null
      /** A duplicate row of this file: `of` has the same content. */
      const duplicate = (of: Upload, lastError: string) =>
        ({
          kind: 'duplicate',
          upload: this.record(req, 'duplicate', { size, mtimeMs, sha256, ...prepared, duplicateOf: of.id, lastError }, prior),
        }) as const
      const earlier = req.override ? undefined : this.store.findContent(req.profileId, req.target, sha256)
      if (earlier) {
        return duplicate(
          earlier,
          `Same content as ${printable(earlier.name)} (upload #${earlier.id}), already sent to ${req.target}. Choose "Send anyway" to send it again.`,
        )
      }
      const waiting = req.override ? [] : this.store.findUnsent(req.profileId, req.target, sha256)
      // The same file under a new name: its row follows it (and is sent once).
      for (const u of waiting) {
        if (!gone.has(u.id) || u.status === 'uploading') continue
        const followed = this.follow(req, u, size, mtimeMs)
        if (followed) return { kind: 'queued', upload: followed } as const
      }
      // Another copy of content on its way: not sent twice; it goes in its place if that one is not sent.
      const onItsWay = waiting.find((u) => u.status !== 'skipped' && u.path !== req.path)
      if (onItsWay) {
        return duplicate(
          onItsWay,
          `Same content as ${printable(onItsWay.name)} (upload #${onItsWay.id}), which is on its way to ${req.target}: this copy is not sent. If that one is not sent, this one goes in its place.`,
        )
      }
      const upload = this.record(
        req,
        'queued',
        { size, mtimeMs, sha256, ...prepared, forced: !!req.override, ...(req.note ? { note: req.note } : {}) },
        prior,
      )
      return { kind: 'queued', upload } as const
    })
  }

  /**
   * A row whose file was renamed or moved (same content, old path gone) takes the new path: a
   * waiting row keeps its status and key; a row skipped because its file vanished goes back to the
   * queue. A row sent before keeps sending the name and prompt of its first send under that key
   * (queue/sent-file.ts): the new ones are for the history. Returns the row, or undefined when it
   * moved on meanwhile.
   */
  private follow(req: IntakeRequest, u: Upload, size: number, mtimeMs: number): Upload | undefined {
    const fields = {
      path: req.path,
      name: rowName(req.path),
      folderId: req.folderId,
      prompt: req.prompt,
      size,
      mtimeMs,
    }
    if (u.status === 'queued' || u.status === 'waiting_retry') {
      const next = this.store.note(u, u.status, fields)
      if (next) this.events.emit('upload', { upload: next, previous: u.status })
      return next
    }
    if (u.status === 'skipped') {
      const next = this.store.transition(u, 'skipped', 'queued', {
        ...fields,
        reason: null,
        lastError: null,
        note: req.note ?? `Found again as ${rowName(req.path)} (renamed or moved) after its old name was gone.`,
        errorCode: null,
        httpStatus: null,
        nextAttemptAt: null,
      })
      if (next) this.events.emit('upload', { upload: next, previous: 'skipped' })
      return next
    }
    return undefined
  }
}
