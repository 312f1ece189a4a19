import type { AiTarget } from '../lib/types'
import type { SliceCreator } from './types'

/** Every screen, as named in the address (`#history`). */
export const SCREENS = [
  'overview',
  'capture',
  'folders',
  'history',
  // After the history: the shortcuts of the screens before it (Ctrl/Cmd+1…4) stay what they were.
  'review',
  'mail',
  'purchaseOrders',
  'invoices',
  'expensesBills',
  'bank',
  'partnerBusinesses',
  'partnerRegister',
  'partnerHealth',
  'settings',
] as const
export type Screen = (typeof SCREENS)[number]

function isScreen(name: string): name is Screen {
  return (SCREENS as readonly string[]).includes(name)
}

/**
 * The screen named in the page's address (`#history`): a reload, or a bookmark of the web host's
 * address, shows that screen again. (A partner-only screen for a business profile, or the reverse,
 * is corrected once the profile is known.)
 */
export function screenFromAddress(): Screen | null {
  if (typeof window === 'undefined') return null
  const name = window.location.hash.replace(/^#\/?/, '')
  return isScreen(name) ? name : null
}

const LAST_SCREEN_KEY = 'bookdrop.screen'

function lastScreen(): Screen | null {
  try {
    const last = typeof window === 'undefined' ? null : window.localStorage.getItem(LAST_SCREEN_KEY)
    return last && isScreen(last) ? last : null
  } catch {
    return null // no storage
  }
}

/**
 * The screen the app opens on: the one in the address, else the one open when the app was last
 * used (the desktop window reopens where it was left), else Capture. (With neither, the first
 * profile known may change it: see `openingScreen`.)
 */
export function initialScreen(): Screen {
  return screenFromAddress() ?? lastScreen() ?? 'capture'
}

/**
 * The first screen when nothing chose one: a partner's overview; a business's overview once
 * something it sent reached the server (completed or being processed), else Capture, to drop the
 * first files.
 */
export function openingScreen(partner: boolean, counts: Record<string, number> | undefined): Screen {
  if (partner) return 'overview'
  return (counts?.completed ?? 0) + (counts?.processing ?? 0) > 0 ? 'overview' : 'capture'
}

function showInAddress(screen: Screen): void {
  if (typeof window === 'undefined') return
  try {
    window.localStorage.setItem(LAST_SCREEN_KEY, screen)
  } catch {
    // No storage: the next start opens on Capture.
  }
  if (screenFromAddress() === screen) return
  try {
    const url = new URL(window.location.href)
    url.hash = screen
    window.history.replaceState(window.history.state, '', url)
  } catch {
    // An address that can't carry a hash: the screen is simply not remembered.
  }
}

export type ToastKind = 'info' | 'success' | 'warning' | 'error'
export interface Toast {
  id: number
  kind: ToastKind
  message: string
}

export interface UiSlice {
  screen: Screen
  /**
   * Neither the address nor the last visit chose the screen, and nobody has picked one yet: the
   * first active profile decides (openingScreen).
   */
  screenDefaulted: boolean
  toasts: Toast[]
  /** Ctrl/Cmd+O asked for the file picker; the capture screen opens it and clears this. */
  addFilesRequested: boolean
  /** The capture screen's choices, kept across screen switches. */
  captureTarget: AiTarget
  capturePrompt: string
  setCapture(patch: { captureTarget?: AiTarget; capturePrompt?: string }): void
  setScreen(screen: Screen): void
  toast(kind: ToastKind, message: string): number
  dismissToast(id: number): void
  requestAddFiles(): void
  consumeAddFiles(): boolean
}

let nextToastId = 1
const MAX_TOASTS = 5

export const createUiSlice: SliceCreator<UiSlice> = (set, get) => ({
  screen: initialScreen(),
  screenDefaulted: !screenFromAddress() && !lastScreen(),
  toasts: [],
  addFilesRequested: false,
  captureTarget: 'expenses',
  capturePrompt: '',
  setCapture: (patch) => set(patch),
  setScreen: (screen) => {
    set({ screen, screenDefaulted: false })
    showInAddress(screen)
    // The history's first page is asked for now, while the screen's code loads, not once it mounts.
    if (screen === 'history') get().ensureHistoryRows(0, 0)
    // The same for the Review list (its counts, and the first page of its filter).
    if (screen === 'review' && get().reviewTotal === null) get().setReviewFilter(get().reviewFilter)
  },
  toast: (kind, message) => {
    const id = nextToastId++
    set((s) => {
      // The same message twice in a row (a burst of notices) shows once.
      if (s.toasts.some((t) => t.message === message && t.kind === kind)) return s
      return { toasts: [...s.toasts, { id, kind, message }].slice(-MAX_TOASTS) }
    })
    return id
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  requestAddFiles: () => set({ addFilesRequested: true }),
  consumeAddFiles: () => {
    if (!get().addFilesRequested) return false
    set({ addFilesRequested: false })
    return true
  },
})
