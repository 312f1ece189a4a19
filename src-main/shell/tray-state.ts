/**
 * What the tray icon shows: idle, uploading N, paused, or needs attention, with its tooltip and
 * menu labels — derived from the session (profile state and upload counts) and the failures the
 * person has not looked at yet. Plain data in, plain data out; src-main/electron/tray.ts renders it.
 */
import type { AiTarget } from '../../schemas'
import type { EngineEvents, ProfileState } from '../core/events'
import type { UploadStatus } from '../core/store/uploads'
import { type Say, englishSay } from './language'
import { TRAY } from './shell-messages'

/** 'paused' also stands for waiting on the network (offline, unreachable, not the API). */
export type TrayKind = 'idle' | 'uploading' | 'paused' | 'attention'

/** The parts of the contract's SessionState the tray needs (SessionState satisfies it). */
export interface TraySessionInput {
  profileId: string | null
  state: ProfileState
  message: string | null
  counts: Partial<Record<UploadStatus, number>>
}

export interface TrayView {
  kind: TrayKind
  /** Files on their way (queued, uploading, waiting to retry, processing). */
  active: number
  /** Files that failed or were skipped since the window was last opened. */
  attention: number
  tooltip: string
  /** First, disabled line of the menu. */
  status: string
  /** Short text next to the icon where the OS supports it (macOS); '' when nothing to say. */
  title: string
  openLabel: string
  pauseLabel: string
  /** False without a profile, or when the key or subscription must be fixed first. */
  pauseEnabled: boolean
  /** What the pause item does. */
  pauseAction: 'pause' | 'resume'
  quitLabel: string
}

const ACTIVE: readonly UploadStatus[] = ['queued', 'uploading', 'waiting_retry', 'processing']

/** The tray in the person's language: `say` formats the shell's messages (English by default). */
export function deriveTrayState(
  session: TraySessionInput | null,
  unseenAttention = 0,
  say: Say = englishSay,
): TrayView {
  const counts = session?.counts ?? {}
  const active = ACTIVE.reduce((sum, s) => sum + (counts[s] ?? 0), 0)
  const attention = Math.max(0, unseenAttention)
  const connected = Boolean(session?.profileId)
  const state = session?.state ?? 'active'
  const paused = connected && state === 'paused'

  let kind: TrayKind
  let status: string
  if (!connected) {
    kind = 'idle'
    status = say(TRAY.notConnected)
  } else if (state === 'auth_required') {
    kind = 'attention'
    status = say(TRAY.keyAttention)
  } else if (state === 'forbidden') {
    kind = 'attention'
    status = say(TRAY.subscription)
  } else if (state === 'out_of_credits') {
    kind = 'attention'
    status = say(TRAY.noCredits)
  } else if (state === 'unreachable' || state === 'not_api' || state === 'offline') {
    // Waiting for the path to the server: nothing is lost, and it resumes by itself.
    kind = 'paused'
    const why = say(state === 'offline' ? TRAY.offline : state === 'unreachable' ? TRAY.unreachable : TRAY.notApi)
    status = active > 0 ? say(TRAY.waiting, { why, count: active }) : why
  } else if (attention > 0) {
    kind = 'attention'
    status = say(TRAY.attention, { count: attention })
  } else if (paused) {
    kind = 'paused'
    status = active > 0 ? say(TRAY.pausedWaiting, { count: active }) : say(TRAY.paused)
  } else if (active > 0) {
    kind = 'uploading'
    status = say(state === 'rate_limited' ? TRAY.uploadingLimited : TRAY.uploading, { count: active })
  } else {
    kind = 'idle'
    status = say(TRAY.allSent)
  }

  const blocked = state === 'auth_required' || state === 'forbidden' || state === 'out_of_credits'
  return {
    kind,
    active,
    attention,
    tooltip: say(TRAY.tooltip, { status }),
    status,
    title:
      kind === 'uploading' ? String(active) : kind === 'attention' && attention > 0 ? `!${attention}` : '',
    openLabel: say(TRAY.open),
    pauseLabel: say(paused ? TRAY.resume : TRAY.pause),
    pauseAction: paused ? 'resume' : 'pause',
    pauseEnabled: connected && !blocked,
    quitLabel: say(TRAY.quit),
  }
}

/**
 * Failures the person has not seen yet: a row enters when it fails (or is skipped for a reason
 * that needs a person), leaves when it moves on (retried, overridden, cancelled), and all are
 * cleared when the window is shown — the Capture screen lists them from then on.
 */
export class AttentionTracker {
  private readonly ids = new Set<number>()

  get count(): number {
    return this.ids.size
  }

  /** Feed every engine `upload` event. Returns true when the count changed. */
  handle({ upload }: EngineEvents['upload']): boolean {
    const before = this.ids.size
    const needs =
      upload.status === 'failed' || (upload.status === 'skipped' && upload.reason !== 'existed_before')
    if (needs) this.ids.add(upload.id)
    else this.ids.delete(upload.id)
    return this.ids.size !== before
  }

  /** The person opened the window. Returns true when the count changed. */
  acknowledge(): boolean {
    const had = this.ids.size > 0
    this.ids.clear()
    return had
  }
}

/**
 * The target for files dropped on the tray icon (macOS): the one the person chose last for a drop
 * in the window — learnt from the `upload` rows the engine creates for drops — else expenses.
 */
export class DropTargetMemory {
  private last: AiTarget

  constructor(initial: AiTarget = 'expenses') {
    this.last = initial
  }

  get target(): AiTarget {
    return this.last
  }

  handle({ upload, previous }: EngineEvents['upload']): void {
    if (previous === null && upload.source === 'drop') this.last = upload.target
  }
}
