/**
 * The screens, each in its own chunk, and how they are loaded.
 *
 * No React.lazy/Suspense here: a screen is rendered only once its chunk is in (App's
 * useShownScreen keeps the current screen meanwhile, or shows "Loading…" before the first one).
 * React holds back revealing a Suspense boundary for 300 ms after its fallback was shown, so a
 * chunk arriving a few milliseconds after the app booted cost the history its first paint budget.
 * The first screen's chunk is fetched while the app boots (main.tsx), the others in the
 * background once the app has settled (preloadScreens).
 */
import type { ComponentType } from 'react'
import type { Screen } from './store/ui'

const LOADERS: Record<Screen, () => Promise<ComponentType>> = {
  overview: () => import('./screens/Overview').then((m) => m.Overview),
  capture: () => import('./screens/Capture').then((m) => m.Capture),
  review: () => import('./screens/Review').then((m) => m.Review),
  folders: () => import('./screens/Folders').then((m) => m.Folders),
  mail: () => import('./screens/Mail').then((m) => m.Mail),
  history: () => import('./screens/History').then((m) => m.History),
  purchaseOrders: () => import('./screens/PurchaseOrders').then((m) => m.PurchaseOrders),
  invoices: () => import('./screens/Invoices').then((m) => m.Invoices),
  expensesBills: () => import('./screens/ExpensesBills').then((m) => m.ExpensesBills),
  bank: () => import('./screens/Bank').then((m) => m.Bank),
  partnerBusinesses: () => import('./screens/partner/Businesses').then((m) => m.Businesses),
  partnerRegister: () => import('./screens/partner/Register').then((m) => m.Register),
  partnerHealth: () => import('./screens/partner/ClientHealth').then((m) => m.ClientHealth),
  settings: () => import('./screens/Settings').then((m) => m.Settings),
}

const loaded = new Map<Screen, ComponentType>()
const loading = new Map<Screen, Promise<ComponentType>>()

/** Loads a screen's chunk once (a failed load is tried again next time). */
export function loadScreen(screen: Screen): Promise<ComponentType> {
  let p = loading.get(screen)
  if (!p) {
    p = LOADERS[screen]().then((c) => {
      loaded.set(screen, c)
      return c
    })
    p.catch(() => loading.delete(screen))
    loading.set(screen, p)
  }
  return p
}

/** A loaded screen's component (undefined until loadScreen has brought its chunk in). */
export function screenComponent(screen: Screen): ComponentType | undefined {
  return loaded.get(screen)
}

/** A screen whose code is loaded (see screenComponent); renders nothing otherwise. */
export function ScreenView({ screen }: { screen: Screen }) {
  const Component = loaded.get(screen)
  return Component ? <Component /> : null
}

/** After this long, then whenever the browser is idle, the other screens' chunks are fetched. */
const PRELOAD_AFTER_MS = 1_500

/**
 * Fetches every screen's chunk in the background once the app has settled, so later switches are
 * instant. Not at once: evaluating a chunk (the shared schemas take ~50 ms) must not compete
 * with the first screen the person opens.
 */
export function preloadScreens(order: readonly Screen[]): void {
  const idle: (cb: () => void) => void =
    typeof window.requestIdleCallback === 'function'
      ? (cb) => window.requestIdleCallback(cb, { timeout: 2_000 })
      : (cb) => setTimeout(cb, 200)
  const next = (i: number): void => {
    const s = order[i]
    if (s === undefined) return
    idle(() => {
      void loadScreen(s)
        .catch(() => undefined)
        .then(() => next(i + 1))
    })
  }
  setTimeout(() => next(0), PRELOAD_AFTER_MS)
}
