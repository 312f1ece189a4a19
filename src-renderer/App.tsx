import { Suspense, lazy, useEffect, useState } from 'react'
import { defineMessages } from 'react-intl'
import { Nav, navItems } from './components/Nav'
import { ScreenView, loadScreen, preloadScreens, screenComponent } from './screens'
import { SessionBanner, StatusBar } from './components/StatusBar'
import { Toasts } from './components/Toasts'
import { BatchAnnouncer } from './components/BatchAnnouncer'
import { useApp } from './store'
import { applyLanguage, preferredLanguages, useI18n } from './lib/i18n'
import { COMMON } from './lib/common-messages'
import { isPartner } from './store/session'
import { type Screen, screenFromAddress } from './store/ui'
import messages from './App.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

const FirstRun = lazy(() => import('./screens/FirstRun').then((m) => ({ default: m.FirstRun })))

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

/**
 * The language: the Language setting, or the person's (the OS's, the browser's); switched without a
 * reload when the setting or the browser's languages change (issue 34). Boot applied the first one.
 */
function useLanguage() {
  const choice = useApp((s) => s.settings?.language)
  const info = useApp((s) => s.appInfo)
  useEffect(() => {
    if (choice === undefined) return
    const apply = () => void applyLanguage(choice, preferredLanguages(info))
    apply()
    window.addEventListener('languagechange', apply)
    return () => window.removeEventListener('languagechange', apply)
  }, [choice, info])
}

/** The address names the screen (see screenFromAddress): editing it switches screens. */
function useScreenAddress() {
  useEffect(() => {
    const onHash = () => {
      const s = screenFromAddress()
      if (s && s !== useApp.getState().screen) useApp.getState().setScreen(s)
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
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

/**
 * The screen to show: the chosen one once its code is in. Until then the screen shown before stays
 * (nothing at all before the first one: App says "Loading…"); see screens.tsx. A chunk that fails
 * to load (the web host stopped, a broken install) says so, with a way to try again.
 */
function useShownScreen(): { screen: Screen | null; failed: string | null; retry: () => void } {
  const wanted = useApp((s) => s.screen)
  const booted = useApp((s) => s.booted)
  const partner = useApp(isPartner)
  const [shown, setShown] = useState<Screen | null>(() => (screenComponent(wanted) ? wanted : null))
  const [failed, setFailed] = useState<{ screen: Screen; message: string } | null>(null)
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    if (screenComponent(wanted)) {
      setShown(wanted)
      return
    }
    let current = true
    loadScreen(wanted).then(
      () => current && setShown(wanted),
      (e: unknown) =>
        current && setFailed({ screen: wanted, message: e instanceof Error ? e.message : String(e) }),
    )
    return () => {
      current = false
    }
  }, [wanted, attempt])
  useEffect(() => {
    if (booted) preloadScreens(navItems(partner).map((i) => i.screen))
  }, [booted, partner])
  return {
    screen: screenComponent(wanted) ? wanted : shown,
    failed: failed?.screen === wanted ? failed.message : null,
    retry: () => {
      setFailed(null)
      setAttempt((n) => n + 1)
    },
  }
}

function Loading({ what }: { what: keyof typeof m }) {
  const intl = useI18n()
  return (
    <div className="loading" role="status">
      {intl.formatMessage(m[what])}
    </div>
  )
}

export function App() {
  const booted = useApp((s) => s.booted)
  const bootError = useApp((s) => s.bootError)
  const hasProfiles = useApp((s) => s.profiles.length > 0)
  const { screen, failed, retry } = useShownScreen()
  useShortcuts()
  useTheme()
  useLanguage()
  useNoStrayDrops()
  useScreenAddress()
  const intl = useI18n()

  if (!booted) return <Loading what="loadingApp" />
  if (bootError) {
    return (
      <main className="fatal" role="alert">
        <h1>{intl.formatMessage(m.couldNotStart)}</h1>
        <p>{bootError}</p>
        <button type="button" className="btn btn--primary" onClick={() => void useApp.getState().boot()}>
          {intl.formatMessage(COMMON.tryAgain)}
        </button>
      </main>
    )
  }
  if (!hasProfiles) {
    return (
      <>
        <Suspense fallback={<Loading what="loadingFirstRun" />}>
          <FirstRun />
        </Suspense>
        <Toasts />
      </>
    )
  }
  return (
    <div className="app">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // Focus the content without putting "#main" in the address, which names the screen.
          e.preventDefault()
          document.getElementById('main')?.focus()
        }}
      >
        {intl.formatMessage(m.skip)}
      </a>
      <Nav />
      <main id="main" className="main" tabIndex={-1}>
        <SessionBanner />
        {failed ? (
          <div className="loading" role="alert">
            <p>{intl.formatMessage(m.screenFailed, { reason: failed })}</p>
            <button type="button" className="btn" onClick={retry}>
              {intl.formatMessage(COMMON.tryAgain)}
            </button>
          </div>
        ) : screen ? (
          <ScreenView key={screen} screen={screen} />
        ) : (
          <Loading what="loadingScreen" />
        )}
      </main>
      <StatusBar />
      <Toasts />
      <BatchAnnouncer />
    </div>
  )
}
