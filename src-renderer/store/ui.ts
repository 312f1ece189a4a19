import type { AiTarget } from '../lib/types'
import type { SliceCreator } from './types'

export type Screen =
  | 'capture'
  | 'folders'
  | 'history'
  | 'purchaseOrders'
  | 'invoices'
  | 'expensesBills'
  | 'bank'
  | 'partnerBusinesses'
  | 'partnerRegister'
  | 'partnerHealth'
  | 'settings'

export type ToastKind = 'info' | 'success' | 'warning' | 'error'
export interface Toast {
  id: number
  kind: ToastKind
  message: string
}

export interface UiSlice {
  screen: Screen
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
  screen: 'capture',
  toasts: [],
  addFilesRequested: false,
  captureTarget: 'expenses',
  capturePrompt: '',
  setCapture: (patch) => set(patch),
  setScreen: (screen) => set({ screen }),
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
