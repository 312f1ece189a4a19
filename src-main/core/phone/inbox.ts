/**
 * What the phone sends, kept and handed to intake (issue 25). A photo's bytes arrive in a temporary
 * file of `<dataDir>/phone/<day>/`; the listener has checked what they are (by their first bytes).
 * Each photo becomes a file of its own there, named by the server (the phone's name, cleaned, with
 * the extension of what the bytes are: nothing a phone sends is ever a path), and goes through the
 * one intake as source `phone`: prepared, hashed, checked for duplicates, queued with its own
 * Idempotency-Key. The original and the prepared file stay in the data folder as long as they serve
 * (engine/retention.ts).
 *
 * "One document": its pages wait in a folder of their own until the last one arrives; each is then
 * prepared, they become one PDF (pdf-lib, in the images worker) beside them, and that PDF is what
 * intake takes: one row, one create.
 */
import { randomBytes } from 'node:crypto'
import { link, readFile, readdir, rm, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { PhoneOutcome, PhoneTarget } from '../../../contract/phone'
import { DEFAULT_PROMPTS } from '../folders'
import type { IntakeResult } from '../intake/intake'
import type { PhotoPreparer } from '../prepare/preparer'
import type { SniffedKind } from '../prepare/sniff'
import { plainStem } from '../names'
import { privateDir, writePrivateFile } from '../store/private-dir'
import { createAtFreeName, localDay, numberedNames } from '../util'

/** What the listener takes from a phone, by their first bytes, and the extension each is kept under. */
export const PHONE_KINDS: Partial<Record<SniffedKind, string>> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  heic: 'heic',
  avif: 'avif',
  tiff: 'tif',
  pdf: 'pdf',
}

export interface InboxDeps {
  dataDir: string
  photos: PhotoPreparer
  /** Intake of one file as source `phone` for a business (Engine.addFiles). */
  take(path: string, o: { profileId: string; target: PhoneTarget; prompt?: string }): Promise<IntakeResult>
  now?: () => Date
}

/** One photo as the phone describes it (already checked by the listener). */
export interface PhotoMeta {
  profileId: string
  /** The session it came in (documents are per session). */
  sessionId: string
  target: PhoneTarget
  name: string
  note: string
  /** A page of "one document": its id (the phone's), this page's number and the count. */
  doc?: { id: string; page: number; pages: number }
}

/** A file that arrived: a temporary path and what its bytes are. */
export interface Arrived {
  tmp: string
  sniffed: SniffedKind
}

function clock(d: Date): string {
  return `${String(d.getHours()).padStart(2, '0')}.${String(d.getMinutes()).padStart(2, '0')}.${String(d.getSeconds()).padStart(2, '0')}`
}

/** Moves `tmp` to `dir/name` (or "name (2)"…), never replacing a file. Returns the new path. */
async function settle(tmp: string, dir: string, name: string): Promise<string> {
  await privateDir(dir)
  return createAtFreeName(dir, numberedNames(name), async (target) => {
    await link(tmp, target)
    await unlink(tmp)
  })
}

export function outcomeOf(r: IntakeResult): PhoneOutcome {
  if (r.kind === 'ignored') return { status: 'duplicate', message: 'Bookdrop already has this photo.' }
  if (r.kind === 'queued')
    return { status: 'sent', message: `In Bookdrop’s queue as upload #${r.upload.id}.`, upload: r.upload.id }
  // A possible duplicate (issue 33) waits on the computer for Send anyway or Discard.
  if (r.kind === 'held') return { status: 'duplicate', message: `${r.upload.lastError ?? 'Possible duplicate'} It waits on the computer.`, upload: r.upload.id }
  return { status: r.kind, message: r.upload.lastError ?? (r.kind === 'duplicate' ? 'Already sent.' : 'Not sent.'), upload: r.upload.id }
}

interface PendingDocument {
  dir: string
  pages: Map<number, { path: string; sniffed: SniffedKind }>
  /** Pages being moved into `dir` now (the same page sent twice at once is kept once). */
  arriving: Set<number>
  total: number
  /** Set once the last page arrived: its outcome, for every later retry. */
  done: Promise<PhoneOutcome> | null
  startedAt: Date
}

export class PhoneInbox {
  private readonly docs = new Map<string, PendingDocument>()
  private readonly now: () => Date

  constructor(private readonly deps: InboxDeps) {
    this.now = deps.now ?? (() => new Date())
  }

  /** The folder a phone's files of today go to (temporary files arrive there too). */
  async todayDir(): Promise<string> {
    const dir = join(this.deps.dataDir, 'phone', localDay(this.now()))
    await privateDir(dir)
    return dir
  }

  /** A temporary file name for bytes arriving now (in today's folder, hidden). */
  async incomingPath(): Promise<string> {
    return join(await this.todayDir(), `.incoming-${randomBytes(8).toString('hex')}`)
  }

  /** Takes one arrived file: a photo, or a page of a document. The temporary file is gone after. */
  async take(meta: PhotoMeta, file: Arrived): Promise<PhoneOutcome> {
    const ext = PHONE_KINDS[file.sniffed]
    if (!ext) {
      await rm(file.tmp, { force: true })
      return { status: 'skipped', message: 'Not a photo or a PDF: nothing was sent.' }
    }
    if (meta.doc) return this.page(meta, meta.doc, file, ext)
    const path = await settle(file.tmp, await this.todayDir(), `${plainStem(meta.name, `Photo ${clock(this.now())}`)}.${ext}`)
    return outcomeOf(await this.deps.take(path, this.intakeOptions(meta)))
  }

  private intakeOptions(meta: PhotoMeta): { profileId: string; target: PhoneTarget; prompt?: string } {
    const note = meta.note.trim()
    return {
      profileId: meta.profileId,
      target: meta.target,
      // The note goes with the target's default instructions, never instead of them.
      ...(note ? { prompt: `${DEFAULT_PROMPTS[meta.target]}\nNote from the phone: ${note}` } : {}),
    }
  }

  private async page(meta: PhotoMeta, doc: NonNullable<PhotoMeta['doc']>, file: Arrived, ext: string): Promise<PhoneOutcome> {
    const key = `${meta.sessionId}:${doc.id}`
    // Found or made before any await: two pages arriving at the same moment join one document.
    let d = this.docs.get(key)
    if (!d) {
      if (this.docs.size >= 50) this.forgetOldest()
      const at = this.now()
      const dir = join(this.deps.dataDir, 'phone', localDay(at), `Document ${clock(at)} ${randomBytes(3).toString('hex')}`)
      d = { dir, pages: new Map(), arriving: new Set(), total: doc.pages, done: null, startedAt: at }
      this.docs.set(key, d)
    }
    if (d.total !== doc.pages || doc.page > d.total) {
      await rm(file.tmp, { force: true })
      return { status: 'skipped', message: `This page says the document has ${doc.pages} pages; an earlier one said ${d.total}. Send the document again.` }
    }
    if (d.done || d.pages.has(doc.page) || d.arriving.has(doc.page)) {
      await rm(file.tmp, { force: true })
      return d.done ? d.done : { status: 'received', message: `Page ${doc.page} of ${d.total}: waiting for the other pages.` }
    }
    d.arriving.add(doc.page)
    let path: string
    try {
      path = await settle(file.tmp, d.dir, `page-${doc.page}.${ext}`)
    } finally {
      d.arriving.delete(doc.page)
    }
    d.pages.set(doc.page, { path, sniffed: file.sniffed })
    if (d.pages.size < d.total) return { status: 'received', message: `Page ${doc.page} of ${d.total}: waiting for the other pages.` }
    d.done = this.assemble(meta, d)
    return d.done
  }

  private forgetOldest(): void {
    const oldest = [...this.docs.entries()].sort((a, b) => a[1].startedAt.getTime() - b[1].startedAt.getTime())[0]
    if (oldest) this.docs.delete(oldest[0])
  }

  /** Every page prepared, one PDF of them beside the pages, and that PDF through intake. */
  private async assemble(meta: PhotoMeta, d: PendingDocument): Promise<PhoneOutcome> {
    const pages = []
    for (let n = 1; n <= d.total; n++) {
      const p = d.pages.get(n)!
      const bytes = new Uint8Array(await readFile(p.path))
      if (p.sniffed === 'pdf') {
        pages.push({ bytes, kind: 'pdf' as const })
        continue
      }
      let out
      try {
        out = await this.deps.photos.prepareBytes(bytes, { force: true })
      } catch (e) {
        return { status: 'skipped', message: `Page ${n} could not be prepared (${(e as Error).message}): nothing was sent. Send the document again.` }
      }
      if (out.kind !== 'prepared') return { status: 'skipped', message: `Page ${n} is not a photo Bookdrop can read: nothing was sent.` }
      pages.push({ bytes: out.bytes, kind: 'jpeg' as const })
    }
    let pdf: Uint8Array
    try {
      pdf = await this.deps.photos.assemblePdf(pages)
    } catch (e) {
      return { status: 'skipped', message: `The pages could not be made into one PDF (${(e as Error).message}): nothing was sent.` }
    }
    const at = d.startedAt
    const path = await writePrivateFile(d.dir, `Document ${localDay(at)} ${clock(at)}.pdf`, pdf)
    return outcomeOf(await this.deps.take(path, this.intakeOptions(meta)))
  }

  /**
   * Removes what a photo cut short left behind (`.incoming-*` of an upload the app stopped in the
   * middle of): never a photo that arrived whole, which has its own name.
   */
  async sweepIncoming(): Promise<void> {
    const root = join(this.deps.dataDir, 'phone')
    const days = await readdir(root, { withFileTypes: true }).catch(() => [])
    for (const d of days) {
      if (!d.isDirectory()) continue
      const files = await readdir(join(root, d.name)).catch(() => [] as string[])
      for (const f of files) if (f.startsWith('.incoming-')) await rm(join(root, d.name, f), { force: true })
    }
  }

  /** Forgets the documents of a session that ended (their pages stay in the data folder). */
  forgetSession(sessionId: string): void {
    for (const k of this.docs.keys()) if (k.startsWith(`${sessionId}:`)) this.docs.delete(k)
  }
}
