import { bookdrop } from '../lib/bridge'
import { callEarlyOr, rememberActiveProfile } from '../lib/early'
import { settle } from '../lib/result'
import { applyLanguage, preferredLanguages } from '../lib/i18n'
import type {
  AppInfo,
  Events,
  Profile,
  ProfileList,
  ProfileState,
  Req,
  Result,
  SessionState,
} from '../lib/types'
import { CONNECTION_STATES } from '../lib/labels'
import type { AppState, SliceCreator } from './types'
import { SCREENS, type Screen, openingScreen } from './ui'

export interface SessionSlice {
  appInfo: AppInfo | null
  profiles: Profile[]
  activeId: string | null
  session: SessionState | null
  /** The first load finished (profiles known: first run or not). */
  booted: boolean
  bootError: string | null
  boot(): Promise<void>
  loadSession(): Promise<void>
  /** `sessionLoaded`: the caller has just loaded the session of `list.activeId` (boot). */
  applyProfiles(list: ProfileList, sessionLoaded?: boolean, booting?: boolean): void
  applySession(s: SessionState): void
  applyProfileEvent(e: Events['profile']): void
  /** The API answers again after a connection state: every list that failed to load is asked again. */
  afterReconnect(): void
  /** Asks again for every list that failed to load (Try again for all of them). */
  retryFailedLists(): void
  applyRateLimit(e: Events['rateLimit']): void
  addProfile(req: Req<'addProfile'>, activate: boolean): Promise<Result<Profile>>
  switchProfile(id: string): Promise<Result<ProfileList>>
  renameProfile(id: string, name: string): Promise<Result<Profile>>
  removeProfile(id: string): Promise<Result<ProfileList>>
  rotateKey(id: string, secret: string): Promise<Result<Profile>>
  startDemo(): Promise<Result<ProfileList>>
  pauseUploads(): Promise<void>
  resumeUploads(): Promise<void>
  /** Everything that belongs to one profile is dropped and loaded again for the new one. */
  onActiveProfileChanged(sessionLoaded?: boolean): void
}

export function activeProfile(s: Pick<AppState, 'profiles' | 'activeId'>): Profile | null {
  return s.profiles.find((p) => p.id === s.activeId) ?? null
}

/** Partner profiles see the partner console; business and OAuth profiles see the business screens. */
export function isPartner(s: Pick<AppState, 'profiles' | 'activeId'>): boolean {
  return activeProfile(s)?.kind === 'partner'
}

/** Puts the server's copy of a changed profile (renamed, new key) in the list; returns the call's result. */
function keepProfile(
  set: Parameters<SliceCreator<SessionSlice>>[0],
  id: string,
  r: Result<Profile>,
): Result<Profile> {
  if (r.ok) set((s) => ({ profiles: s.profiles.map((p) => (p.id === id ? r.value : p)) }))
  return r
}

export const createSessionSlice: SliceCreator<SessionSlice> = (set, get) => ({
  appInfo: null,
  profiles: [],
  activeId: null,
  session: null,
  booted: false,
  bootError: null,

  boot: async () => {
    const [info, profiles, session, settings] = await Promise.all([
      settle(callEarlyOr('getAppInfo', {})),
      settle(callEarlyOr('listProfiles', {})),
      settle(callEarlyOr('getSession', {})),
      settle(callEarlyOr('getSettings', {})),
    ])
    if (info.ok) set({ appInfo: info.value })
    if (settings.ok) set({ settings: settings.value })
    // The first screen shows in the person's language, not English for a moment (issue 34).
    await applyLanguage(settings.ok ? settings.value.language : 'system', preferredLanguages(info.ok ? info.value : null))
    if (!profiles.ok) {
      set({ booted: true, bootError: profiles.error.message })
      return
    }
    if (session.ok) set({ session: session.value })
    // From "no profile known" to the active one: applyProfiles loads what that profile needs. That
    // goes first, then the app renders: its first render takes a while and would hold them back.
    set({ bootError: null })
    get().applyProfiles(profiles.value, session.ok, true)
    set({ booted: true })
    if (!settings.ok) void get().loadSettings()
    void get().loadFolders()
  },

  loadSession: async () => {
    const r = await settle(bookdrop.getSession({}))
    if (r.ok) set({ session: r.value })
  },

  applyProfiles: (list, sessionLoaded, booting) => {
    const prev = get().activeId
    set({ profiles: list.profiles, activeId: list.activeId })
    rememberActiveProfile(list.activeId)
    if (prev !== list.activeId && (get().booted || booting)) {
      if (prev !== null || list.activeId !== null) get().onActiveProfileChanged(sessionLoaded)
    }
  },

  applySession: (s) => {
    const before = get().session?.state
    set({ session: s })
    connectionChanged(get, before, s.state)
  },

  applyProfileEvent: (e) => {
    const before = get().session?.state
    set((st) =>
      st.session && e.profileId === st.activeId
        ? { session: { ...st.session, state: e.state, message: e.message } }
        : st,
    )
    if (e.profileId === get().activeId) connectionChanged(get, before, e.state)
  },

  afterReconnect: () => {
    const s = get()
    s.retryFailedLists()
    if (s.activeId) void s.loadAttention()
  },

  retryFailedLists: () => {
    const s = get()
    for (const key of Object.keys(s.lists) as (keyof typeof s.lists)[])
      if (s.lists[key].error && !s.lists[key].loading) void s.loadList(key)
    if (s.referred.error && !s.referred.loading) void s.loadReferred()
    if (s.health.error && !s.health.loading) void s.loadHealth()
    const o = s.overview
    if (!o.loading && (o.error || (o.data?.kind === 'partner' && o.data.error))) void s.loadOverview()
    if (s.historyError) s.reloadHistory()
  },

  applyRateLimit: (e) =>
    set((st) => {
      if (!st.session || e.profileId !== st.activeId) return st
      const { profileId: _p, ...rateLimit } = e
      return { session: { ...st.session, rateLimit } }
    }),

  addProfile: async (req, activate) => {
    const r = await settle(bookdrop.addProfile(req))
    if (r.ok) {
      const list = await settle(bookdrop.listProfiles({}))
      if (list.ok) get().applyProfiles(list.value)
      if (activate && get().activeId !== r.value.id) await get().switchProfile(r.value.id)
    }
    return r
  },

  switchProfile: async (id) => {
    const r = await settle(bookdrop.setActiveProfile({ id }))
    if (r.ok) get().applyProfiles(r.value)
    else get().toast('error', r.error.message)
    return r
  },

  renameProfile: async (id, name) => keepProfile(set, id, await settle(bookdrop.renameProfile({ id, name }))),

  removeProfile: async (id) => {
    const r = await settle(bookdrop.removeProfile({ id }))
    if (r.ok) get().applyProfiles(r.value)
    else get().toast('error', r.error.message)
    return r
  },

  rotateKey: async (id, secret) =>
    keepProfile(set, id, await settle(bookdrop.rotateProfileKey({ id, secret }))),

  startDemo: async () => {
    const r = await settle(bookdrop.startDemo({}))
    if (r.ok) {
      // App info first (it now says "demo"), so the app appears with its Demo badge at once.
      const info = await settle(bookdrop.getAppInfo({}))
      if (info.ok) set({ appInfo: info.value })
      get().applyProfiles(r.value)
    }
    return r
  },

  pauseUploads: async () => {
    const r = await settle(bookdrop.pauseUploads({}))
    if (r.ok) set({ session: r.value })
    else get().toast('error', r.error.message)
  },

  resumeUploads: async () => {
    const r = await settle(bookdrop.resumeUploads({}))
    if (r.ok) set({ session: r.value })
    else get().toast('error', r.error.message)
  },

  onActiveProfileChanged: (sessionLoaded) => {
    const s = get()
    s.resetUploadsForProfile()
    s.resetRecords()
    s.resetPartner()
    s.resetHistory()
    s.resetMail()
    s.resetOverview()
    s.resetReview()
    const partner = isPartner(s)
    const screens: readonly Screen[] = partner ? PARTNER_SCREENS : BUSINESS_SCREENS
    // The first profile of a start where nothing named a screen, or a screen this kind of profile
    // does not have (a partner's, for a business): the app chooses (openingScreen).
    if (s.screenDefaulted || !screens.includes(s.screen)) {
      const want = openingScreen(partner, sessionLoaded ? s.session?.counts : undefined)
      if (want !== s.screen) s.setScreen(want)
      set({ screenDefaulted: false })
    }
    // Opened on the history (a reload, a link): its first page is asked for first, as soon as the
    // profile is known, alongside the screen's code.
    else if (s.screen === 'history' && s.activeId) s.ensureHistoryRows(0, 0)
    // The same for Review: its first page is asked for alongside its code.
    else if (s.screen === 'review' && s.activeId && !partner) s.setReviewFilter(s.reviewFilter)
    if (!sessionLoaded) void s.loadSession()
    if (s.activeId) void s.loadAttention()
    // The navigation's count (opened on Review, its first page brings the counts already).
    if (s.activeId && !partner && s.screen !== 'review') void s.loadReviewCounts()
  },
})

/** While the server cannot be reached, the lists that failed are asked again this often. */
export const LIST_RETRY_MS = 30_000
let listRetry: ReturnType<typeof setInterval> | null = null

/**
 * The active profile's state changed from `before` to `now`. Back to 'active' from a connection
 * state: what could not be loaded meanwhile is asked for again. Into a connection state: the lists
 * that failed are asked again every LIST_RETRY_MS (the queue retries uploads by itself; a profile
 * with nothing to upload, a partner's, learns the server is back from these), until it is over.
 */
function connectionChanged(get: () => AppState, before: ProfileState | undefined, now: ProfileState): void {
  const wasDown = before !== undefined && CONNECTION_STATES.includes(before)
  const isDown = CONNECTION_STATES.includes(now)
  if (isDown && !listRetry) {
    listRetry = setInterval(() => {
      const s = get()
      if (!CONNECTION_STATES.includes(s.session?.state ?? 'active')) {
        if (listRetry) clearInterval(listRetry)
        listRetry = null
        return
      }
      s.retryFailedLists()
    }, LIST_RETRY_MS)
  }
  if (!isDown && listRetry) {
    clearInterval(listRetry)
    listRetry = null
  }
  if (wasDown && now === 'active') get().afterReconnect()
}

const partnerOnly = (screen: Screen) => screen.startsWith('partner')
/** A business profile's screens, in the navigation's order: all but the partner's own. */
export const BUSINESS_SCREENS: readonly Screen[] = SCREENS.filter((screen) => !partnerOnly(screen))
/** A partner profile's: the overview, the partner's own screens and settings. */
export const PARTNER_SCREENS: readonly Screen[] = SCREENS.filter(
  (screen) => screen === 'overview' || screen === 'settings' || partnerOnly(screen),
)
