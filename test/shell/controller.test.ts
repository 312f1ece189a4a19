import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionState } from '../../contract'
import { ShellController, type ShellSettings } from '../../src-main/shell/controller'
import type { ShellNotification } from '../../src-main/shell/notify'
import type { TrayView } from '../../src-main/shell/tray-state'
import { uploadEvent } from './helpers'

const counts = (over: Partial<SessionState['counts']> = {}): SessionState['counts'] => ({
  queued: 0,
  uploading: 0,
  waiting_retry: 0,
  processing: 0,
  completed: 0,
  failed: 0,
  duplicate: 0,
  skipped: 0,
  cancelled: 0,
  superseded: 0,
  ...over,
})
const session = (over: Partial<SessionState> = {}): SessionState => ({
  profileId: 'p1',
  state: 'active',
  message: null,
  storage: null,
  rateLimit: null,
  counts: counts(),
  ...over,
})

describe('ShellController', () => {
  let notes: ShellNotification[]
  let trays: TrayView[]
  let login: boolean[]
  const make = (settings: Partial<ShellSettings> = {}): ShellController =>
    new ShellController({
      notify: (n) => notes.push(n),
      renderTray: (v) => trays.push(v),
      setLaunchAtLogin: (on) => login.push(on),
      settings: { notifications: true, closeToTray: true, launchAtLogin: false, ...settings },
    })

  beforeEach(() => {
    vi.useFakeTimers()
    notes = []
    trays = []
    login = []
  })
  afterEach(() => vi.useRealTimers())

  it('applies launch at login at start and when the setting changes', () => {
    const c = make()
    expect(login).toEqual([false])
    c.applySettings({ launchAtLogin: true, theme: 'dark' })
    c.applySettings({ concurrency: 3 })
    expect(login).toEqual([false, true])
    c.dispose()
  })

  it('coalesces a burst of session events into one tray redraw', () => {
    const c = make()
    c.flushTray()
    for (let i = 1; i <= 100; i++) c.handleEvent('session', session({ counts: counts({ queued: i }) }))
    expect(trays).toHaveLength(1)
    vi.advanceTimersByTime(250)
    expect(trays).toHaveLength(2)
    expect(trays[1]).toMatchObject({ kind: 'uploading', active: 100 })
    c.handleEvent('session', session({ counts: counts({ queued: 100 }) })) // no change: no redraw
    vi.advanceTimersByTime(250)
    expect(trays).toHaveLength(2)
    c.dispose()
  })

  it('batches notifications, marks failures on the tray until the window is shown', () => {
    const c = make()
    c.setSession(session())
    for (let i = 1; i <= 200; i++) c.handleEvent('upload', uploadEvent(i, 'completed', 'processing'))
    for (let i = 201; i <= 203; i++) c.handleEvent('upload', uploadEvent(i, 'failed', 'uploading'))
    vi.advanceTimersByTime(3000)
    expect(notes.map((n) => n.body)).toEqual(['200 receipts recorded; 3 files need attention'])
    expect(trays.at(-1)).toMatchObject({ kind: 'attention', attention: 3 })
    c.windowShown()
    vi.advanceTimersByTime(250)
    expect(trays.at(-1)).toMatchObject({ kind: 'idle', attention: 0 })
    c.dispose()
  })

  it('follows the settings event', () => {
    const c = make({ closeToTray: true })
    c.handleEvent('settings', { concurrency: 2, pollIntervalMs: 1000, maxFileBytes: 1 << 20, jobTimeoutMs: 86_400_000, notifications: false, closeToTray: false, launchAtLogin: true, theme: 'system', language: 'system', preparePhotos: true, photoMaxEdge: 2400, photoQuality: 80, phoneListen: '', keepCopiesDays: 30 })
    expect(c.currentSettings).toEqual({ notifications: false, closeToTray: false, launchAtLogin: true })
    expect(login).toEqual([false, true])
    expect(c.hideOnClose()).toBe(false)
    c.dispose()
  })

  it('follows the notifications setting', () => {
    const c = make({ notifications: false })
    c.handleEvent('upload', uploadEvent(1, 'completed', 'processing'))
    vi.advanceTimersByTime(5000)
    expect(notes).toEqual([])
    c.applySettings({ notifications: true })
    c.handleEvent('upload', uploadEvent(2, 'completed', 'processing'))
    vi.advanceTimersByTime(5000)
    expect(notes).toHaveLength(1)
    c.dispose()
  })

  it('hides to the tray on close only when closeToTray is on and the app is not quitting', () => {
    const c = make({ closeToTray: true })
    expect(c.hideOnClose()).toBe(true)
    expect(c.keepRunningWithoutWindows('linux')).toBe(true)
    c.applySettings({ closeToTray: false })
    expect(c.hideOnClose()).toBe(false)
    expect(c.keepRunningWithoutWindows('win32')).toBe(false)
    expect(c.keepRunningWithoutWindows('darwin')).toBe(true)
    c.applySettings({ closeToTray: true })
    c.beginQuit()
    expect(c.hideOnClose()).toBe(false)
    expect(c.keepRunningWithoutWindows('linux')).toBe(false)
    c.dispose()
  })

  it('shows pending notifications when quitting rather than losing them', () => {
    const c = make()
    c.handleEvent('upload', uploadEvent(1, 'completed', 'processing'))
    c.beginQuit()
    expect(notes).toHaveLength(1)
    c.dispose()
  })

  it('sends tray drops to the target of the last window drop', () => {
    const c = make()
    expect(c.dropTargetForTray).toBe('expenses')
    c.handleEvent('upload', uploadEvent(1, 'queued', null, { source: 'drop', target: 'invoices' }))
    expect(c.dropTargetForTray).toBe('invoices')
    c.dispose()
  })

  it('ignores events it has no use for', () => {
    const c = make()
    c.handleEvent('progress', { id: 1, sent: 10, total: 100 })
    c.handleEvent('notice', { level: 'info', message: 'x' })
    vi.advanceTimersByTime(10_000)
    expect(notes).toEqual([])
    expect(trays).toEqual([])
    c.dispose()
  })
})
