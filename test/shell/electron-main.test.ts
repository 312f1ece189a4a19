/**
 * Runs the real src-main/electron/main.ts against a recording stand-in for `electron`
 * (./fake-electron.ts) and the real AppService (keychain replaced by memory): proves the wiring of
 * the security checklist, IPC, tray and window life cycle, since this machine cannot run Electron.
 */
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { CALL_NAMES, EVENT_CHANNEL, GRANT_FILE_CHANNEL, callChannel } from '../../contract'
import { APP_ENTRY_URL } from '../../src-main/shell/app-protocol'
import { contentSecurityPolicy } from '../../src-main/shell/csp'
import { FakeBrowserWindow, FakeNotification, FakeTray, FakeWebContents, fake, fakeEvent } from './fake-electron'
import { useDesktop } from './desktop'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
vi.mock(import('../../src-main/core/secrets'), async (real) =>
  (await import('./desktop')).withMemoryKeychain(await real()),
)

let win: FakeBrowserWindow
const desktop = useDesktop({
  prefix: 'bookdrop-shell-',
  ready: () => {
    expect(FakeBrowserWindow.all).toHaveLength(1)
    expect(FakeBrowserWindow.all[0]!.visible).toBe(true)
    win = FakeBrowserWindow.all[0]!
  },
})

describe('the main window', () => {
  it('is created with the hardened web preferences and the sandboxed preload', () => {
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    })
    expect(String(win.options.webPreferences['preload'])).toMatch(/preload[/\\]index\.cjs$/)
    // Not packaged here, so DevTools stay available; a packaged app has none (devTools: !isPackaged).
    expect(win.options.webPreferences).toMatchObject({ devTools: true, disableBlinkFeatures: 'Auxclick' })
    expect(win.loaded.url).toBe(APP_ENTRY_URL)
    expect(win.options).toMatchObject({ width: 1100, height: 760, minWidth: 720, minHeight: 480 })
  })

  it('refuses every navigation away from the app and opens only https links outside', () => {
    const wc = win.webContents
    const nav = (url: string): boolean => {
      const e = fakeEvent({ url })
      wc.emit('will-navigate', e)
      return e.defaultPrevented
    }
    expect(nav('https://example.com/help')).toBe(true)
    expect(nav('http://example.com/')).toBe(true)
    expect(nav('file:///etc/passwd')).toBe(true)
    expect(nav('javascript:alert(1)')).toBe(true)
    expect(nav(`${wc.mainFrame.url}#/history`)).toBe(false)
    expect(fake.openedExternally).toEqual(['https://example.com/help'])

    expect(wc.windowOpenHandler?.({ url: 'HTTPS://Docs.Example.com/x' })).toEqual({ action: 'deny' })
    expect(wc.windowOpenHandler?.({ url: 'file:///tmp/x.html' })).toEqual({ action: 'deny' })
    expect(wc.windowOpenHandler?.({ url: 'https://user:pw@example.com/' })).toEqual({ action: 'deny' })
    expect(wc.windowOpenHandler?.({ url: wc.mainFrame.url })).toEqual({ action: 'deny' })
    expect(fake.openedExternally).toEqual(['https://example.com/help', 'https://docs.example.com/x'])

    const redirect = fakeEvent({ url: 'https://evil.example/' })
    wc.emit('will-redirect', redirect)
    expect(redirect.defaultPrevented).toBe(true)
  })

  // Serving the built files is proven on the built bundle (built-main.test.ts); from the sources the
  // renderer folder next to main does not exist, so only the refusals are checked here.
  it('declares app:// before ready and serves nothing outside the renderer on it', async () => {
    expect(fake.privilegedSchemes).toEqual([
      expect.objectContaining({ scheme: 'app', afterReady: false, privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ])
    const serve = fake.protocolHandlers.get('app')!
    for (const url of [
      'app://bookdrop/../../package.json',
      'app://bookdrop/%2e%2e/%2e%2e/package.json',
      'app://bookdrop/assets/..%2f..%2fpackage.json',
      'app://elsewhere/index.html',
      'app://bookdrop/assets/missing.js',
    ]) {
      const r = await serve(new Request(url))
      expect(r.status, url).toBe(404)
    }
    // Only reads: the renderer's files are never written through the scheme.
    const post = await serve(new Request(APP_ENTRY_URL, { method: 'POST', body: 'x' }))
    expect(post.status).toBe(405)
  })

  it('guards any other webContents too: no webview, no windows', () => {
    const other = new FakeWebContents()
    fake.app.emit('web-contents-created', fakeEvent(), other)
    const attach = fakeEvent()
    other.emit('will-attach-webview', attach, {}, {})
    expect(attach.defaultPrevented).toBe(true)
    expect(other.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
  })
})

describe('the session', () => {
  it('sets the strict CSP header on every response', () => {
    let headers: Record<string, string[]> = {}
    fake.session.headersHook?.({ responseHeaders: { 'content-security-policy': ['default-src *'], 'X-A': ['1'] } }, (r) => {
      headers = r.responseHeaders
    })
    expect(headers).toEqual({ 'X-A': ['1'], 'Content-Security-Policy': [contentSecurityPolicy({ dev: false })] })
  })

  it('denies permissions by default', () => {
    const app = win.webContents.mainFrame.url
    const ask = (permission: string, requestingUrl = app): boolean => {
      let granted: boolean | null = null
      fake.session.permissionRequest?.(win.webContents, permission, (ok) => (granted = ok), { requestingUrl, isMainFrame: true })
      return granted!
    }
    for (const p of ['media', 'geolocation', 'notifications', 'midi', 'openExternal', 'fullscreen', 'hid']) expect(ask(p)).toBe(false)
    expect(ask('clipboard-sanitized-write')).toBe(true)
    expect(ask('clipboard-sanitized-write', 'https://evil.example/')).toBe(false)
    expect(fake.session.permissionCheck?.(win.webContents, 'geolocation', 'file://', { isMainFrame: true })).toBe(false)
    expect(fake.session.deviceCheck?.()).toBe(false)
  })
})

describe('IPC', () => {
  it('registers exactly the calls of the contract', () => {
    expect([...fake.ipcHandlers.keys()].sort()).toEqual(CALL_NAMES.map(callChannel).sort())
  })

  it('answers the app page and refuses any other sender', async () => {
    const handler = fake.ipcHandlers.get(callChannel('getAppInfo'))!
    const from = (url: string): unknown =>
      handler({ sender: win.webContents, senderFrame: { ...win.webContents.mainFrame, url } }, {})
    expect(await from(win.webContents.mainFrame.url)).toMatchObject({ ok: true, value: { host: 'electron' } })
    expect(await from('https://evil.example/')).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } })
    expect(await from('file:///tmp/evil.html')).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } })
  })

  it("sends the OS's preferred languages (Electron's app.getPreferredSystemLanguages) to the window", async () => {
    const handler = fake.ipcHandlers.get(callChannel('getAppInfo'))!
    fake.app.systemLanguages = ['de-DE', 'fr-FR']
    const info = await handler({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, {})
    expect(info).toMatchObject({ ok: true, value: { languages: ['de-DE', 'fr-FR'] } })
  })

  it('addFiles reads only a path the preload registered for a drop from the app page', async () => {
    const addFiles = fake.ipcHandlers.get(callChannel('addFiles'))!
    const grant = fake.ipcListeners.get(GRANT_FILE_CHANNEL)!
    const app = { sender: win.webContents, senderFrame: win.webContents.mainFrame }
    const evil = { sender: win.webContents, senderFrame: { ...win.webContents.mainFrame, url: 'https://evil.example/' } }
    const add = (path: string) => addFiles(app, { paths: [path], target: 'expenses' }) as Promise<{ ok: boolean; error?: { code: string; message: string } }>

    const never = await add('/etc/shadow')
    expect(never).toMatchObject({ ok: false, error: { code: 'path_not_allowed' } })
    expect(never.error!.message).toMatch(/drop the file on the window again/)
    grant(evil, '/etc/shadow') // another page cannot register a path
    expect(await add('/etc/shadow')).toMatchObject({ ok: false, error: { code: 'path_not_allowed' } })
    grant(app, '/tmp/dropped-receipt.pdf')
    // Registered by the app page: the path is taken, and the call goes on to its next check (no profile yet).
    const taken = await add('/tmp/dropped-receipt.pdf')
    expect(taken.ok ? null : taken.error!.code).not.toBe('path_not_allowed')
  })

  it('refuses a call payload over 1 MiB unless it carries files', async () => {
    const rename = fake.ipcHandlers.get(callChannel('renameProfile'))!
    const res = await rename({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, { id: 'x', name: 'n'.repeat(1024 * 1024 + 1) })
    expect(res).toMatchObject({ ok: false, error: { code: 'too_large' } })
  })

  it('forwards service events to the window', async () => {
    const setSettings = fake.ipcHandlers.get(callChannel('setSettings'))!
    const res = await setSettings({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, { launchAtLogin: false })
    expect(res).toMatchObject({ ok: true })
    await vi.waitFor(() => expect(win.webContents.sent.some((m) => m.channel === EVENT_CHANNEL)).toBe(true))
  })
})

describe('the tray', () => {
  it('shows the state and the Open, Pause and Quit items', async () => {
    expect(FakeTray.all).toHaveLength(1)
    const tray = FakeTray.all[0]!
    expect(tray.tooltip).toBe('Bookdrop — Not connected')
    expect(tray.menu.map((i) => i.label ?? i.type)).toEqual([
      'Not connected',
      'separator',
      'Open Bookdrop',
      'Pause uploads',
      'separator',
      'Quit Bookdrop',
    ])
    expect(tray.menu[3]!.enabled).toBe(false) // nothing to pause without a profile
  })

  it('sends files dropped on it to the service, and tells what went wrong in a notification', async () => {
    FakeTray.all[0]!.emit('drop-files', fakeEvent(), ['/tmp/receipt.pdf'])
    await vi.waitFor(() => expect(FakeNotification.shown).toHaveLength(1))
    expect(FakeNotification.shown[0]!.body).toMatch(/profile/i)
  })
})

describe('closing and quitting', () => {
  it('hides the window to the tray when closeToTray is on (the default)', () => {
    win.close()
    expect(win.isDestroyed()).toBe(false)
    expect(win.visible).toBe(false)
  })

  it('remembers the window bounds', async () => {
    await vi.waitFor(async () => {
      const saved = JSON.parse(await readFile(join(desktop.dataDir, 'window-state.json'), 'utf8')) as Record<string, unknown>
      expect(saved).toMatchObject({ width: 1100, height: 760, maximized: false })
    })
  })

  it('the tray brings it back', () => {
    FakeTray.all[0]!.menu.find((i) => i.label === 'Open Bookdrop')!.click!()
    return vi.waitFor(() => expect(win.visible).toBe(true))
  })

  it('quits for real from the tray: the window closes and the service stops', async () => {
    const done = once(fake.app, 'fake-quit-done')
    FakeTray.all[0]!.menu.find((i) => i.label === 'Quit Bookdrop')!.click!()
    await done
    expect(fake.app.quitCalls).toBe(2) // once asked, once after the engine stopped
    expect(FakeTray.all[0]!.destroyed).toBe(true)
    expect(fake.ipcHandlers.size).toBe(0)
    win.close()
    expect(win.isDestroyed()).toBe(true) // no longer hidden: quitting
  })
})
