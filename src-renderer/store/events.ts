/**
 * One subscription to every bridge event, made once at start. Events are applied incrementally;
 * `upload` and `progress` events are gathered and applied once per animation frame, so a burst of
 * hundreds of files costs one store update per frame, not one per event.
 */
import { bookdrop } from '../lib/bridge'
import type { ProgressEvent, UploadEvent } from '../lib/types'
import type { AppState } from './types'

type GetState = () => AppState

let unsubscribe: (() => void) | null = null
let pendingUploads: UploadEvent[] = []
const pendingProgress = new Map<number, ProgressEvent>()
type Scheduled = { kind: 'frame'; id: number } | { kind: 'timer'; id: ReturnType<typeof setTimeout> }
let scheduled: Scheduled | null = null
let getState: GetState | null = null

function schedule(): void {
  if (scheduled !== null) return
  // A hidden window gets no animation frames: fall back to a timer so the state stays current.
  scheduled =
    typeof requestAnimationFrame === 'function' &&
    typeof document !== 'undefined' &&
    document.visibilityState !== 'hidden'
      ? { kind: 'frame', id: requestAnimationFrame(() => flushEvents()) }
      : { kind: 'timer', id: setTimeout(() => flushEvents(), 16) }
}

function cancelScheduled(): void {
  if (scheduled?.kind === 'frame') cancelAnimationFrame(scheduled.id)
  else if (scheduled?.kind === 'timer') clearTimeout(scheduled.id)
  scheduled = null
}

/** Applies the gathered upload and progress events now (tests call it instead of waiting a frame). */
export function flushEvents(): void {
  cancelScheduled()
  const s = getState?.()
  if (!s) return
  const uploads = pendingUploads
  pendingUploads = []
  const progress = [...pendingProgress.values()]
  pendingProgress.clear()
  // Status first: a row that finished drops its progress even if a late progress event came too.
  if (uploads.length) s.applyUploads(uploads)
  if (progress.length) s.applyProgress(progress)
}

export function startEvents(get: GetState): () => void {
  if (unsubscribe) return unsubscribe
  getState = get
  const offs = [
    bookdrop.on('upload', (e) => {
      pendingUploads.push(e)
      schedule()
    }),
    bookdrop.on('progress', (e) => {
      pendingProgress.set(e.id, e)
      schedule()
    }),
    bookdrop.on('folder', (e) => get().applyFolderEvent(e)),
    bookdrop.on('mail', (e) => get().applyMailEvent(e)),
    bookdrop.on('rateLimit', (e) => get().applyRateLimit(e)),
    bookdrop.on('profile', (e) => get().applyProfileEvent(e)),
    bookdrop.on('notice', (e) => get().toast(e.level, e.message)),
    bookdrop.on('session', (e) => {
      flushEvents()
      get().applySession(e)
    }),
    bookdrop.on('profiles', (e) => get().applyProfiles(e)),
    bookdrop.on('phone', (e) => get().applyPhone(e)),
    bookdrop.on('review', (e) => get().applyReviewEvent(e)),
  ]
  unsubscribe = () => {
    for (const off of offs) off()
    unsubscribe = null
  }
  return unsubscribe
}

export function stopEvents(): void {
  unsubscribe?.()
  unsubscribe = null
  pendingUploads = []
  pendingProgress.clear()
  cancelScheduled()
  getState = null
}
