import { useEffect, useRef, useState } from 'react'
import { defineMessages } from 'react-intl'
import { getIntl, useI18n } from '../lib/i18n'
import { useApp } from '../store'
import { BUSINESS_SCREENS, PARTNER_SCREENS, activeProfile, isPartner } from '../store/session'
import type { Screen } from '../store/ui'
import messages from './Nav.messages.json' with { type: 'json' }

const LABELS = defineMessages(messages.LABELS satisfies Record<Screen, unknown>)

const m = defineMessages(messages.m)

/** The screens of the navigation, in order, with their names in the language in use. */
export function navItems(partner: boolean): { screen: Screen; label: string }[] {
  const intl = getIntl()
  return (partner ? PARTNER_SCREENS : BUSINESS_SCREENS).map((screen) => ({
    screen,
    label: intl.formatMessage(LABELS[screen]),
  }))
}

/** The Review item's count of records waiting (its accessible name reads "Review 5"). */
function ReviewCount() {
  const intl = useI18n()
  const count = useApp((s) => s.reviewCounts?.toReview ?? null)
  if (count === null || count === 0) return null
  return (
    <span className="badge nav__count" title={intl.formatMessage(m.reviewWaiting, { count })}>
      {intl.formatNumber(count)}
    </span>
  )
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
export const MOD = isMac ? '⌘' : 'Ctrl+'

/**
 * The left navigation: business screens for a business profile, the console for a partner. Below
 * 760 px of window (a small window, or 200 % zoom on a laptop) it folds into a menu button at the
 * top: Escape or choosing a screen closes it, and focus goes back to the button on Escape.
 */
export function Nav() {
  const partner = useApp(isPartner)
  const profile = useApp(activeProfile)
  const screen = useApp((s) => s.screen)
  const setScreen = useApp((s) => s.setScreen)
  const intl = useI18n()
  // The active profile says whether it is the demo's; it arrives with the profile list, not later.
  const demo = useApp((s) => activeProfile(s)?.demo ?? s.appInfo?.demo ?? false)
  const items = navItems(partner)
  const [open, setOpen] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const nav = useRef<HTMLElement>(null)

  useEffect(() => {
    if (!open) return
    const outside = (e: Event) => {
      if (!nav.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', outside)
    return () => document.removeEventListener('mousedown', outside)
  }, [open])

  const name = profile ? (profile.business?.name ?? profile.name) : null
  return (
    <nav
      ref={nav}
      className="nav"
      aria-label={intl.formatMessage(m.screens)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation()
          setOpen(false)
          toggle.current?.focus()
        }
      }}
    >
      <div className="nav__bar">
        <div className="nav__brand">
          <span className="nav__logo" aria-hidden="true">
            ▣
          </span>
          Bookdrop
          {demo ? <span className="badge badge--warn nav__demo">{intl.formatMessage(m.demo)}</span> : null}
        </div>
        {name ? (
          <div className="nav__profile" title={name} dir="auto">
            {name}
          </div>
        ) : null}
        <button
          ref={toggle}
          type="button"
          className="btn btn--small nav__toggle"
          aria-expanded={open}
          aria-controls="nav-screens"
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true">☰</span> {intl.formatMessage(m.menu)}
        </button>
      </div>
      <ul id="nav-screens" className="nav__list" data-open={open || undefined}>
        {items.map((item, i) => (
          <li key={item.screen}>
            <button
              type="button"
              className="nav__item"
              data-screen={item.screen}
              aria-current={screen === item.screen ? 'page' : undefined}
              aria-keyshortcuts={i < 9 ? `${isMac ? 'Meta' : 'Control'}+${i + 1}` : undefined}
              onClick={() => {
                setOpen(false)
                setScreen(item.screen)
              }}
            >
              <span className="nav__label">
                {item.label}
                {item.screen === 'review' ? <> <ReviewCount /></> : null}
              </span>
              {/* Ctrl/Cmd+1…9: the tenth screen on has no digit of its own. */}
              {i < 9 ? (
                <kbd className="nav__key" aria-hidden="true">
                  {MOD}
                  {i + 1}
                </kbd>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}
