import { Suspense, lazy, useEffect } from 'react'
import { Nav, navItems } from './components/Nav'
import { SessionBanner, StatusBar } from './components/StatusBar'
import { Toasts } from './components/Toasts'
import { useApp } from './store'
import { isPartner } from './store/session'
import type { Screen } from './store/ui'

const named = <K extends string>(p: Promise<Record<K, React.ComponentType>>, k: K) =>
  p.then((m) => ({ default: m[k] }))

const SCREENS: Record<Screen, React.LazyExoticComponent<React.ComponentType>> = {
  capture: lazy(() => named(import('./screens/Capture'), 'Capture')),
  folders: lazy(() => named(import('./screens/Folders'), 'Folders')),
  history: lazy(() => named(import('./screens/History'), 'History')),
  purchaseOrders: lazy(() => named(import('./screens/PurchaseOrders'), 'PurchaseOrders')),
  invoices: lazy(() => named(import('./screens/Invoices'), 'Invoices')),
  expensesBills: lazy(() => named(import('./screens/ExpensesBills'), 'ExpensesBills')),
  bank: lazy(() => named(import('./screens/Bank'), 'Bank')),
  partnerBusinesses: lazy(() => named(import('./screens/partner/Businesses'), 'Businesses')),
  partnerRegister: lazy(() => named(import('./screens/partner/Register'), 'Register')),
  partnerHealth: lazy(() => named(import('./screens/partner/ClientHealth'), 'ClientHealth')),
  settings: lazy(() => named(import('./screens/Settings'), 'Settings')),
}
const FirstRun = lazy(() => named(import('./screens/FirstRun'), 'FirstRun'))

function isTyping(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false
  return t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName)
}

/** Keyboard shortcuts: Ctrl/Cmd+O add files, Ctrl/Cmd+1…9 screens, / search. */
function useShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('[aria-modal="true"]')) return
      const s = useApp.getState()
      if (s.profiles.length === 0) return
      const mod = e.ctrlKey || e.metaKey
      if (mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'o') {
        if (isPartner(s)) return
        e.preventDefault()
        s.setScreen('capture')
        s.requestAddFiles()
        return
      }
      if (mod && !e.altKey && /^[1-9]$/.test(e.key)) {
        const item = navItems(isPartner(s))[Number(e.key) - 1]
        if (item) {
          e.preventDefault()
          s.setScreen(item.screen)
        }
        return
      }
      if (e.key === '/' && !mod && !e.altKey && !isTyping(e.target)) {
        const search = document.querySelector<HTMLInputElement>('[data-shortcut="search"]')
        if (search) {
          e.preventDefault()
          search.focus()
          search.select()
        }
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}

/** Theme: follows the OS unless Settings says light or dark. */
function useTheme() {
  const theme = useApp((s) => s.settings?.theme ?? 'system')
  useEffect(() => {
    const root = document.documentElement
    if (theme === 'system') delete root.dataset.theme
    else root.dataset.theme = theme
  }, [theme])
}

/** A file dropped outside a drop zone must not navigate the window away. */
function useNoStrayDrops() {
  useEffect(() => {
    const stop = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault()
    }
    window.addEventListener('dragover', stop)
    window.addEventListener('drop', stop)
    return () => {
      window.removeEventListener('dragover', stop)
      window.removeEventListener('drop', stop)
    }
  }, [])
}

function Loading({ what }: { what: string }) {
  return (
    <div className="loading" role="status">
      Loading {what}…
    </div>
  )
}

export function App() {
  const booted = useApp((s) => s.booted)
  const bootError = useApp((s) => s.bootError)
  const hasProfiles = useApp((s) => s.profiles.length > 0)
  const screen = useApp((s) => s.screen)
  useShortcuts()
  useTheme()
  useNoStrayDrops()

  if (!booted) return <Loading what="Bookdrop" />
  if (bootError) {
    return (
      <main className="fatal" role="alert">
        <h1>Bookdrop could not start</h1>
        <p>{bootError}</p>
        <button type="button" className="btn btn--primary" onClick={() => void useApp.getState().boot()}>
          Try again
        </button>
      </main>
    )
  }
  if (!hasProfiles) {
    return (
      <>
        <Suspense fallback={<Loading what="the first-run screen" />}>
          <FirstRun />
        </Suspense>
        <Toasts />
      </>
    )
  }
  const Current = SCREENS[screen]
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Nav />
      <main id="main" className="main">
        <SessionBanner />
        <Suspense fallback={<Loading what="the screen" />}>
          <Current key={screen} />
        </Suspense>
      </main>
      <StatusBar />
      <Toasts />
    </div>
  )
}
