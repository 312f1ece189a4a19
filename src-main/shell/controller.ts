/**
 * The desktop shell's decisions in one plain-Node object: it reads the engine's events and the
 * settings, and tells the Electron side what to show (tray view, notifications) and what to do
 * (hide or close the window, launch at login). src-main/electron/* only renders what it says,
 * so everything here is unit-tested without Electron (test/shell/controller.test.ts).
 */
import type { AiTarget } from '../../schemas'
import type { BridgeError, Events, EventName, SessionState, Settings } from '../../contract'
import { MAIN_MESSAGE_BY_ID } from '../../contract/main-messages'
import { NotificationBatcher, type ShellNotification, type Timers } from './notify'
import { AttentionTracker, DropTargetMemory, deriveTrayState, type TrayView } from './tray-state'
import { type Say, chooseLocale, sayIn } from './language'

export type ShellSettings = Pick<Settings, 'notifications' | 'closeToTray' | 'launchAtLogin'>

export interface ShellControllerOptions {
  /** Show a native notification. */
  notify: (n: ShellNotification) => void
  /** Redraw the tray (called at most once per `trayDelayMs`, and only when the view changed). */
  renderTray: (view: TrayView) => void
  /** Turn launch at login on or off (called when the setting changes, and once at start). */
  setLaunchAtLogin: (enabled: boolean) => void
  settings: ShellSettings
  timers?: Timers
  notificationWindowMs?: number
  /** Tray redraws are coalesced: a burst of events makes one redraw. Default 250 ms. */
  trayDelayMs?: number
  /**
   * The OS's preferred languages, most preferred first (Electron's
   * `app.getPreferredSystemLanguages()`): the tray and notifications follow them unless the
   * Language setting names one. None: English.
   */
  systemLanguages?: () => readonly string[]
  /** The Language setting at start ('system' or a language tag), when there is one. */
  language?: string
}

export class ShellController {
  private readonly batcher: NotificationBatcher
  private readonly attention = new AttentionTracker()
  private readonly dropTarget = new DropTargetMemory()
  private readonly timers: Timers
  private readonly trayDelayMs: number
  private readonly opts: ShellControllerOptions
  private settings: ShellSettings
  private session: SessionState | null = null
  private trayTimer: unknown = null
  private lastTrayKey = ''
  private quitting = false
  private languageSetting: string | undefined
  private say: Say

  constructor(opts: ShellControllerOptions) {
    this.opts = opts
    this.settings = { ...opts.settings }
    this.languageSetting = opts.language
    this.say = this.chooseSay()
    this.timers = opts.timers ?? {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    }
    this.trayDelayMs = opts.trayDelayMs ?? 250
    this.batcher = new NotificationBatcher({
      show: opts.notify,
      enabled: this.settings.notifications,
      timers: this.timers,
      say: () => this.say,
      ...(opts.notificationWindowMs !== undefined ? { windowMs: opts.notificationWindowMs } : {}),
    })
    opts.setLaunchAtLogin(this.settings.launchAtLogin)
  }

  /** The tray as it should look now. */
  get trayView(): TrayView {
    return deriveTrayState(this.session, this.attention.count, this.say)
  }

  /** The shell's words in the language in use (the setting, else the OS's, else English). */
  private chooseSay(): Say {
    return sayIn(chooseLocale(this.languageSetting, this.opts.systemLanguages?.() ?? []))
  }

  /** A failed call's message in the shell's language (for a notification: there may be no window). */
  errorText(e: BridgeError): string {
    const known = e.coded ? MAIN_MESSAGE_BY_ID.get(e.coded.code) : undefined
    return known && e.coded ? this.say(known, e.coded.params) : e.message
  }

  /** Where files dropped on the tray icon go. */
  get dropTargetForTray(): AiTarget {
    return this.dropTarget.target
  }

  get currentSettings(): ShellSettings {
    return { ...this.settings }
  }

  /** Feed every event the service emits (the same stream the renderer gets). */
  handleEvent<E extends EventName>(name: E, payload: Events[E]): void {
    if (name === 'upload') {
      const event = payload as Events['upload']
      this.batcher.handle(event)
      this.dropTarget.handle(event)
      if (this.attention.handle(event)) this.scheduleTray()
    } else if (name === 'session') {
      this.session = payload as Events['session']
      this.scheduleTray()
    } else if (name === 'settings') {
      this.applySettings(payload as Events['settings'])
    }
  }

  /** The session as read at start (before any event arrived). */
  setSession(session: SessionState): void {
    this.session = session
    this.scheduleTray()
  }

  /** Settings as saved (also arrive as the `settings` event); only the shell's own three matter here. */
  applySettings(next: Partial<Settings>): void {
    const before = this.settings
    this.settings = {
      notifications: next.notifications ?? before.notifications,
      closeToTray: next.closeToTray ?? before.closeToTray,
      launchAtLogin: next.launchAtLogin ?? before.launchAtLogin,
    }
    if (this.settings.notifications !== before.notifications)
      this.batcher.setEnabled(this.settings.notifications)
    if (this.settings.launchAtLogin !== before.launchAtLogin)
      this.opts.setLaunchAtLogin(this.settings.launchAtLogin)
    // The Language setting (issue 34) when the settings carry one: the tray is redrawn in it.
    const language = next.language
    if (language !== undefined && language !== this.languageSetting) {
      this.languageSetting = language
      this.say = this.chooseSay()
      this.scheduleTray()
    }
  }

  /** The window was shown or focused: the person can now see what needs attention. */
  windowShown(): void {
    if (this.attention.acknowledge()) this.scheduleTray()
  }

  /** Quit was asked for (menu, tray, OS): closing the window must close it from now on. */
  beginQuit(): void {
    this.quitting = true
    this.batcher.flush()
  }

  get isQuitting(): boolean {
    return this.quitting
  }

  /** On the window's `close`: true to hide it to the tray instead (uploads keep running). */
  hideOnClose(): boolean {
    return !this.quitting && this.settings.closeToTray
  }

  /** After the last window closed: quit (false) or stay in the tray. macOS apps stay anyway. */
  keepRunningWithoutWindows(platform: NodeJS.Platform): boolean {
    return platform === 'darwin' || (!this.quitting && this.settings.closeToTray)
  }

  /** Redraw now (at start, and from tests). */
  flushTray(): void {
    if (this.trayTimer !== null) this.timers.clearTimeout(this.trayTimer)
    this.trayTimer = null
    const view = this.trayView
    const key = JSON.stringify(view)
    if (key === this.lastTrayKey) return
    this.lastTrayKey = key
    this.opts.renderTray(view)
  }

  dispose(): void {
    this.batcher.dispose()
    if (this.trayTimer !== null) this.timers.clearTimeout(this.trayTimer)
    this.trayTimer = null
  }

  private scheduleTray(): void {
    this.trayTimer ??= this.timers.setTimeout(() => this.flushTray(), this.trayDelayMs)
  }
}
