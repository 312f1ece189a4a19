/**
 * Photos prepared before they cost a credit (issue 25), for every source (drop, folder, mail,
 * phone): intake calls `prepareRead()` on the bytes it read before it hashes a file, and what is hashed, checked for
 * duplicates and sent is the prepared file. The original stays where it was; the prepared file is
 * written, private, under `<dataDir>/prepared/<day>/` and kept as long as it serves (engine/retention.ts).
 *
 * Reading the image runs in the images worker (./images.ts) with the limits of IMAGE_LIMITS: a
 * time limit, a JavaScript heap limit, an input size limit, and (since resourceLimits bounds only
 * the heap, not the pixels libvips or libheif decode) a pixel limit checked before decoding.
 */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { extname, join } from 'node:path'
import { fileKind } from '../../../schemas/routes'
import { TaskPool, type WorkerLimits } from '../../../workers/pool'
import { plainStem } from '../names'
import { writePrivateFile } from '../store/private-dir'
import { isStorageError } from '../store/storage-errors'
import { errnoCode, localDay, sizeText } from '../util'
import type { DocumentPage, ImageTasks, PrepareInput, PrepareOutput } from './images'

/** The photo settings (Settings → Photos), as saved with the app's settings. */
export interface PhotoSettings {
  /** Prepare photos before sending them (off: every file is sent as it is). */
  preparePhotos: boolean
  /** Longest edge of a prepared photo, px. */
  photoMaxEdge: number
  /** JPEG quality of a prepared photo. */
  photoQuality: number
}

export const PHOTO_DEFAULTS: PhotoSettings = { preparePhotos: true, photoMaxEdge: 2400, photoQuality: 80 }
export const PHOTO_EDGE_RANGE = { min: 800, max: 8000 } as const
export const PHOTO_QUALITY_RANGE = { min: 40, max: 95 } as const

/** The photo settings of a saved settings record, each field falling back to its default. */
export function photoSettings(saved: Record<string, unknown>): PhotoSettings {
  const int = (v: unknown, r: { min: number; max: number }, d: number) =>
    typeof v === 'number' && Number.isInteger(v) && v >= r.min && v <= r.max ? v : d
  return {
    preparePhotos: typeof saved.preparePhotos === 'boolean' ? saved.preparePhotos : PHOTO_DEFAULTS.preparePhotos,
    photoMaxEdge: int(saved.photoMaxEdge, PHOTO_EDGE_RANGE, PHOTO_DEFAULTS.photoMaxEdge),
    photoQuality: int(saved.photoQuality, PHOTO_QUALITY_RANGE, PHOTO_DEFAULTS.photoQuality),
  }
}

const MB = 1024 * 1024

/**
 * The images worker's limits. A 12-megapixel JPEG is prepared in a few hundred ms, a HEIC (decoded
 * in WebAssembly) in a few seconds; a hostile file meets one of these instead. `maxPixels` bounds
 * what libvips and libheif decode outside the JavaScript heap (50 MP: the largest phone cameras
 * save 48 MP); `maxInputBytes` is the largest original read.
 */
export const IMAGE_LIMITS: WorkerLimits & { maxPixels: number } = {
  timeoutMs: 30_000,
  maxHeapMb: 256,
  maxInputBytes: 64 * MB,
  maxPixels: 50_000_000,
}

/** A photo within the long edge, at most this size and without metadata, is sent as it is. */
export const KEEP_BELOW_BYTES = 1 * MB

/** Extensions of the files intake asks the worker about (what the bytes are is then sniffed). */
const IMAGE_KINDS: ReadonlySet<string> = new Set(['jpg', 'jpeg', 'png', 'webp', 'heic', 'heif', 'tif', 'tiff', 'avif'])

export type Preparation =
  /** Sent as it is: not an image, a PDF, a small image without metadata, or preparation is off. */
  | { kind: 'as_is' }
  | { kind: 'prepared'; path: string; size: number; mtimeMs: number; width: number; height: number }
  /** The photo could not be prepared; `detail` says why, for people. */
  | { kind: 'failed'; detail: string }

/** The name a prepared file is sent under: the original's, with the prepared file's extension. */
export function preparedName(name: string, preparedPath: string | null): string {
  if (!preparedPath) return name
  const ext = extname(preparedPath)
  const own = extname(name)
  return `${own ? name.slice(0, -own.length) : name}${ext}`
}

let sharpPinned = false
/**
 * sharp's advice for worker threads (sharp.pixelplumbing.com/install#worker-threads): load it once
 * on the main thread too, so its shared libraries stay loaded when a worker that used them ends.
 */
export function pinSharp(): void {
  if (sharpPinned) return
  sharpPinned = true
  try {
    createRequire(import.meta.url)('sharp')
  } catch {
    // The worker reports the same failure, for the file, in words.
  }
}

export class PhotoPreparer {
  private pool: TaskPool<ImageTasks> | null = null
  private closed = false

  constructor(
    private readonly dataDir: string,
    private readonly settings: () => PhotoSettings,
    private readonly limits: typeof IMAGE_LIMITS = IMAGE_LIMITS,
  ) {}

  /** The largest original read as a photo (IMAGE_LIMITS.maxInputBytes). */
  get maxInputBytes(): number {
    return this.limits.maxInputBytes
  }

  /**
   * True when a file of this name is looked at before it is sent (an image's extension, preparation
   * on). The name first: a PDF costs no read of the saved settings (one per file taken).
   */
  wants(name: string): boolean {
    return IMAGE_KINDS.has(fileKind(name)) && this.settings().preparePhotos
  }

  private tasks(): TaskPool<ImageTasks> {
    if (this.closed) throw new Error('Bookdrop is stopping.')
    if (!this.pool) {
      pinSharp()
      this.pool = new TaskPool<ImageTasks>('images', {
        limits: this.limits,
        size: Math.min(2, availableParallelism()),
      })
    }
    return this.pool
  }

  /** Runs the worker's preparation on bytes already read (the phone's pages). */
  async prepareBytes(bytes: Uint8Array, o: { force?: boolean } = {}): Promise<PrepareOutput> {
    const s = this.settings()
    const input: PrepareInput = {
      bytes,
      maxEdge: s.photoMaxEdge,
      quality: s.photoQuality,
      maxPixels: this.limits.maxPixels,
      keepBelowBytes: KEEP_BELOW_BYTES,
      force: o.force,
    }
    return this.tasks().run('prepareImage', input)
  }

  /** Several pages (prepared JPEGs, PDFs) as one PDF, in the worker. */
  async assemblePdf(pages: DocumentPage[]): Promise<Uint8Array> {
    return this.tasks().run('assemblePdf', { pages })
  }

  /**
   * Prepares a photo whose bytes intake has already read (through the handle it opened and checked,
   * so the file is read where the person put it, once) and writes the prepared file.
   */
  async prepareRead(bytes: Uint8Array, name: string): Promise<Preparation> {
    if (bytes.length > this.limits.maxInputBytes) {
      return { kind: 'failed', detail: `it is ${sizeText(bytes.length)}, over the ${sizeText(this.limits.maxInputBytes)} Bookdrop reads as a photo` }
    }
    let out: PrepareOutput
    try {
      out = await this.prepareBytes(bytes)
    } catch (e) {
      return { kind: 'failed', detail: (e as Error).message }
    }
    if (out.kind === 'as_is') return { kind: 'as_is' }
    try {
      const digest = createHash('sha256').update(out.bytes).digest('hex').slice(0, 16)
      const dir = join(this.dataDir, 'prepared', localDay())
      const file = `${plainStem(name, 'photo')}-${digest}.jpg`
      let target = join(dir, file)
      // The same photo prepared again (a retry, a second copy) is the same file: it is not written twice.
      const existing = await stat(target).catch(() => null)
      if (!existing || existing.size !== out.bytes.length) target = await writePrivateFile(dir, file, out.bytes)
      const st = await stat(target)
      return { kind: 'prepared', path: target, size: st.size, mtimeMs: Math.floor(st.mtimeMs), width: out.width, height: out.height }
    } catch (e) {
      // The disk is full or failing: not this photo's fault (the engine pauses and takes it again).
      if (isStorageError(e)) throw e
      return { kind: 'failed', detail: `the prepared photo could not be saved in Bookdrop's data folder (${errnoCode(e) ?? (e as Error).message})` }
    }
  }

  async close(): Promise<void> {
    this.closed = true
    await this.pool?.close()
    this.pool = null
  }
}
