import { useApp } from '../store'
import { BUSINESS_SCREENS, PARTNER_SCREENS, activeProfile, isPartner } from '../store/session'
import type { Screen } from '../store/ui'

const LABELS: Record<Screen, string> = {
  overview: 'Overview',
  capture: 'Capture',
  folders: 'Watched folders',
  mail: 'Mail',
  history: 'Upload history',
  purchaseOrders: 'Purchase orders',
  invoices: 'Invoices',
  expensesBills: 'Expenses & bills',
  bank: 'Bank statements',
  partnerBusinesses: 'Referred businesses',
  partnerRegister: 'Register a business',
  partnerHealth: 'Client health',
  settings: 'Settings',
}

export function navItems(partner: boolean): { screen: Screen; label: string }[] {
  return (partner ? PARTNER_SCREENS : BUSINESS_SCREENS).map((screen) => ({ screen, label: LABELS[screen] }))
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
export const MOD = isMac ? '⌘' : 'Ctrl+'

/** The left navigation: business screens for a business profile, the console for a partner. */
export function Nav() {
  const partner = useApp(isPartner)
  const profile = useApp(activeProfile)
  const screen = useApp((s) => s.screen)
  const setScreen = useApp((s) => s.setScreen)
  // The active profile says whether it is the demo's; it arrives with the profile list, not later.
  const demo = useApp((s) => activeProfile(s)?.demo ?? s.appInfo?.demo ?? false)
  const items = navItems(partner)
  return (
    <nav className="nav" aria-label="Screens">
      <div className="nav__brand">
        <span className="nav__logo" aria-hidden="true">
          ▣
        </span>
        Bookdrop
        {demo ? <span className="badge badge--warn nav__demo">Demo</span> : null}
      </div>
      {profile ? (
        <div className="nav__profile" title={profile.business?.name ?? profile.name}>
          {profile.business?.name ?? profile.name}
        </div>
      ) : null}
      <ul>
        {items.map((item, i) => (
          <li key={item.screen}>
            <button
              type="button"
              className="nav__item"
              aria-current={screen === item.screen ? 'page' : undefined}
              aria-keyshortcuts={i < 9 ? `${isMac ? 'Meta' : 'Control'}+${i + 1}` : undefined}
              onClick={() => setScreen(item.screen)}
            >
              <span>{item.label}</span>
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
