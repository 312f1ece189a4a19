/**
 * From "a file is here" to a committed row: checks (kind, size, empty, readable), streaming sha256,
 * duplicate detection, and the INSERT that happens before any network call (design.md §2).
 * A file that cannot be sent is never touched: its row says why.
 */
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { type AiTarget, fileKind } from '../../../schemas/routes'
import type { EngineEmitter } from '../events'
import { isAccepted } from '../kinds'
import type { AfterUpload, SkipReason, Upload, UploadSource, UploadStore } from '../store/uploads'
import { sha256File } from './hash'
import { sizeText } from '../util'

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

export function skipMessage(
  reason: SkipReason,
  ctx: {
    name: string
    target: AiTarget
    kinds?: readonly string[]
    size?: number
    limit?: number
    detail?: string
  },
): string {
  switch (reason) {
    case 'unsupported_kind': {
      const kind = fileKind(ctx.name)
      return `${kind ? `.${kind}` : 'Files without an extension'} files are not sent to ${ctx.target}. Accepted: ${(ctx.kinds ?? []).join(', ')}. Rename or convert the file, or choose "Send anyway".`
    }
    case 'too_large':
      return `The file is ${sizeText(ctx.size ?? 0)}, over the ${sizeText(ctx.limit ?? 0)} limit. Compress it or raise the limit in Settings, then retry.`
    case 'empty':
      return 'The file is empty (0 bytes). Save it again, then retry.'
    case 'unreadable':
      return `Bookdrop cannot read this file${ctx.detail ? ` (${ctx.detail})` : ''}. Check its permissions, then retry.`
    case 'vanished':
      return 'The file was moved or deleted before it could be sent.'
    case 'existed_before':
      return 'The file was already in the folder when it was added.'
    case 'no_receipt':
      return 'No receipt in this mail (no PDF or image attached): it was left untouched. Choose "Send anyway" to send the text of the mail instead.'
  }
}

export class Intake {
  constructor(
    private readonly store: UploadStore,
    private readonly events: EngineEmitter,
  ) {}

  /**
   * Commits the outcome of a take: continues the earlier skipped row of this file when there is one
   * (skipped → queued or duplicate through the lifecycle table; still skipped: the same row, updated),
   * else a new row.
   */
  private record(
    req: IntakeRequest,
    status: 'queued' | 'duplicate' | 'skipped',
    extra: Partial<Upload>,
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
    extra: Partial<Upload>,
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
          patch.lastError === prior.lastError
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
      name: basename(req.path),
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
    const message = skipMessage(reason, {
      name,
      target: req.target,
      kinds: req.acceptedKinds,
      size: rest.size ?? undefined,
      limit: req.maxFileBytes,
      detail,
    })
    return { kind: 'skipped', upload: this.record(req, 'skipped', { ...rest, reason, lastError: message }) }
  }

  /** A file the watcher saw but that disappeared before it became stable. */
  vanished(req: IntakeRequest): IntakeResult {
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
      st = await stat(req.path)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT') return this.skip(req, 'vanished')
      return this.skip(req, 'unreadable', { detail: code ?? (e as Error).message })
    }
    if (!st.isFile()) return this.skip(req, 'unreadable', { detail: 'not a regular file' })
    const size = st.size
    const mtimeMs = Math.floor(st.mtimeMs)

    if (!req.override && this.store.fileState(req.profileId, req.target, req.path, size, mtimeMs).handled) {
      return { kind: 'ignored', why: 'already_handled' }
    }
    if (!req.override && !isAccepted(name, req.acceptedKinds))
      return this.skip(req, 'unsupported_kind', { size, mtimeMs })
    if (size === 0) return this.skip(req, 'empty', { size, mtimeMs })
    if (size > req.maxFileBytes) return this.skip(req, 'too_large', { size, mtimeMs })

    let sha256: string
    try {
      sha256 = req.written && req.written.size === size ? req.written.sha256 : await sha256File(req.path, size)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT') return this.skip(req, 'vanished', { size, mtimeMs })
      return this.skip(req, 'unreadable', { size, mtimeMs, detail: code ?? (e as Error).message })
    }
    try {
      const after = await stat(req.path)
      if (after.size !== size || Math.floor(after.mtimeMs) !== mtimeMs)
        return { kind: 'ignored', why: 'changed' }
    } catch {
      return this.skip(req, 'vanished', { size, mtimeMs })
    }

    // Check and insert in one transaction: two copies arriving together cannot both be queued.
    return this.store.transaction(() => {
      const file = this.store.fileState(req.profileId, req.target, req.path, size, mtimeMs)
      if (!req.override && file.handled) return { kind: 'ignored', why: 'already_handled' } as const
      const prior = file.retakeable ?? null
      const earlier = req.override ? undefined : this.store.findContent(req.profileId, req.target, sha256)
      if (earlier) {
        const upload = this.record(
          req,
          'duplicate',
          {
            size,
            mtimeMs,
            sha256,
            duplicateOf: earlier.id,
            lastError: `Same content as ${earlier.name} (upload #${earlier.id}), already sent to ${req.target}. Choose "Send anyway" to send it again.`,
          },
          prior,
        )
        return { kind: 'duplicate', upload } as const
      }
      const upload = this.record(req, 'queued', { size, mtimeMs, sha256, forced: !!req.override }, prior)
      return { kind: 'queued', upload } as const
    })
  }
}
