/**
 * A stand-in for the parts of the `electron` module the shell uses, so src-main/electron/main.ts can
 * run in plain Node (this machine cannot run the Electron binary). It records what the shell asked
 * for — window options, handlers, tray menus, notifications — and lets a test fire Electron's events.
 * It is a recorder, not a simulation: it proves the wiring, not Electron's behaviour.
 */
import { EventEmitter } from 'node:events'

type Handler = (...args: unknown[]) => unknown

export interface MenuItemTemplate {
  label?: string
  role?: string
  type?: string
  enabled?: boolean
  click?: () => void
}

/** A DOM-ish event object as Electron passes to listeners. */
export function fakeEvent<T extends object>(fields: T = {} as T): T & { defaultPrevented: boolean; preventDefault(): void } {
  const e = {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      e.defaultPrevented = true
    },
  }
  return e
}

export class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((d: { url: string }) => { action: string }) | null = null
  sent: { channel: string; payload: unknown }[] = []
  mainFrame: { url: string; parent: null; processId: number; frameToken: string }
  constructor(url = '') {
    super()
    this.mainFrame = { url, parent: null, processId: 1, frameToken: 'main' }
  }
  setWindowOpenHandler(fn: (d: { url: string }) => { action: string }): void {
    this.windowOpenHandler = fn
  }
  isDestroyed(): boolean {
    return false
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload })
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static all: FakeBrowserWindow[] = []
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.all.filter((w) => !w.destroyed)
  }
  readonly webContents = new FakeWebContents()
  visible = false
  destroyed = false
  maximized = false
  loaded: { file?: string; url?: string } = {}
  bounds: { x: number; y: number; width: number; height: number }
  constructor(readonly options: Record<string, unknown> & { webPreferences: Record<string, unknown> }) {
    super()
    this.bounds = {
      x: Number(options['x'] ?? 0),
      y: Number(options['y'] ?? 0),
      width: Number(options['width']),
      height: Number(options['height']),
    }
    FakeBrowserWindow.all.push(this)
    // Electron creates the webContents with the window, and app emits web-contents-created for it.
    fake.app.emit('web-contents-created', fakeEvent(), this.webContents)
  }
  async loadFile(file: string): Promise<void> {
    this.loaded = { file }
    this.webContents.mainFrame.url = `file://${file}`
    setImmediate(() => this.emit('ready-to-show'))
  }
  async loadURL(url: string): Promise<void> {
    this.loaded = { url }
    this.webContents.mainFrame.url = url
    setImmediate(() => this.emit('ready-to-show'))
  }
  show(): void {
    this.visible = true
    this.emit('show')
  }
  hide(): void {
    this.visible = false
  }
  focus(): void {}
  restore(): void {}
  maximize(): void {
    this.maximized = true
  }
  isMaximized(): boolean {
    return this.maximized
  }
  isMinimized(): boolean {
    return false
  }
  isFullScreen(): boolean {
    return false
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  getBounds(): { x: number; y: number; width: number; height: number } {
    return this.bounds
  }
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    return this.bounds
  }
  /** What Electron does on the close button: 'close' (cancellable), then 'closed'. */
  close(): void {
    const e = fakeEvent()
    this.emit('close', e)
    if (e.defaultPrevented) return
    this.destroyed = true
    this.emit('closed')
    if (FakeBrowserWindow.getAllWindows().length === 0) fake.app.emit('window-all-closed')
  }
}

export class FakeTray extends EventEmitter {
  static all: FakeTray[] = []
  tooltip = ''
  title = ''
  menu: MenuItemTemplate[] = []
  image: unknown
  destroyed = false
  constructor(image: unknown) {
    super()
    this.image = image
    FakeTray.all.push(this)
  }
  setImage(image: unknown): void {
    this.image = image
  }
  setToolTip(t: string): void {
    this.tooltip = t
  }
  setTitle(t: string): void {
    this.title = t
  }
  setContextMenu(menu: { items: MenuItemTemplate[] }): void {
    this.menu = menu.items
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  destroy(): void {
    this.destroyed = true
  }
}

export class FakeNotification extends EventEmitter {
  static shown: { title: string; body: string }[] = []
  static isSupported(): boolean {
    return true
  }
  constructor(readonly options: { title: string; body: string }) {
    super()
  }
  show(): void {
    FakeNotification.shown.push({ title: this.options.title, body: this.options.body })
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false
  userData = ''
  quitCalls = 0
  exitCode: number | null = null
  loginItem: unknown = null
  isReadyNow = false
  private readyResolve!: () => void
  private readonly ready = new Promise<void>((resolve) => (this.readyResolve = resolve))
  requestSingleInstanceLock(): boolean {
    return true
  }
  whenReady(): Promise<void> {
    return this.ready
  }
  /** The test says when Electron is "ready". */
  makeReady(): void {
    this.isReadyNow = true
    this.readyResolve()
  }
  getPath(name: string): string {
    if (name === 'userData') return this.userData
    return `/tmp/fake-${name}`
  }
  /** The OS's preferred languages (issue 34): a test sets them before the app starts. */
  systemLanguages: string[] = ['en-US']
  getPreferredSystemLanguages(): string[] {
    return [...this.systemLanguages]
  }
  getLocale(): string {
    return this.systemLanguages[0] ?? 'en-US'
  }
  getLoginItemSettings(): { wasOpenedAtLogin: boolean } {
    return { wasOpenedAtLogin: false }
  }
  setLoginItemSettings(s: unknown): void {
    this.loginItem = s
  }
  /** Like Electron: before-quit, then will-quit (cancellable), then the process would end. */
  quit(): void {
    this.quitCalls++
    this.emit('before-quit', fakeEvent())
    const e = fakeEvent()
    this.emit('will-quit', e)
    if (!e.defaultPrevented) this.emit('fake-quit-done')
  }
  exit(code: number): void {
    this.exitCode = code
  }
}

export const fake = {
  app: new FakeApp(),
  ipcHandlers: new Map<string, Handler>(),
  /** ipcMain.on listeners (one-way messages such as the preload's file grants). */
  ipcListeners: new Map<string, Handler>(),
  /** protocol.registerSchemesAsPrivileged calls, and whether the app was ready then. */
  privilegedSchemes: [] as { scheme: string; privileges: Record<string, unknown>; afterReady: boolean }[],
  /** protocol.handle handlers by scheme. */
  protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
  session: {
    headersHook: null as null | ((details: { responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void),
    permissionRequest: null as null | ((wc: unknown, permission: string, cb: (ok: boolean) => void, details: { requestingUrl: string; isMainFrame: boolean }) => void),
    permissionCheck: null as null | ((wc: unknown, permission: string, origin: string, details: { requestingUrl?: string; isMainFrame: boolean }) => boolean),
    deviceCheck: null as null | (() => boolean),
    events: new EventEmitter(),
    /** What resolveProxy answers (a PAC result), and the URLs it was asked about. */
    proxyAnswer: 'DIRECT',
    proxyAsked: [] as string[],
  },
  /** What net.isOnline() says. */
  online: true,
  powerMonitor: new EventEmitter(),
  openedExternally: [] as string[],
  /** dialog.showMessageBox calls, and the button index the "person" picks. */
  messageBoxes: [] as { message: string; buttons: string[]; detail?: string }[],
  messageBoxAnswer: 0,
  errorBoxes: [] as { title: string; content: string }[],
  shownInFolder: [] as string[],
  appMenu: undefined as unknown,
}

export function electronModule(): Record<string, unknown> {
  const s = fake.session
  return {
    app: fake.app,
    BrowserWindow: FakeBrowserWindow,
    Tray: FakeTray,
    Notification: FakeNotification,
    Menu: {
      buildFromTemplate: (items: MenuItemTemplate[]) => ({ items }),
      setApplicationMenu: (m: unknown) => (fake.appMenu = m),
    },
    nativeImage: {
      createFromBuffer: (buffer: Buffer) => ({ buffer, reps: [] as unknown[], addRepresentation(r: unknown) { this.reps.push(r) } }),
    },
    screen: {
      getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
      getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (fn: typeof s.headersHook) => (s.headersHook = fn) },
        setPermissionRequestHandler: (fn: typeof s.permissionRequest) => (s.permissionRequest = fn),
        setPermissionCheckHandler: (fn: typeof s.permissionCheck) => (s.permissionCheck = fn),
        setDevicePermissionHandler: (fn: typeof s.deviceCheck) => (s.deviceCheck = fn),
        on: (name: string, fn: Handler) => s.events.on(name, fn),
        resolveProxy: async (url: string) => {
          s.proxyAsked.push(url)
          return s.proxyAnswer
        },
      },
    },
    net: { isOnline: () => fake.online },
    powerMonitor: fake.powerMonitor,
    ipcMain: {
      handle: (channel: string, fn: Handler) => fake.ipcHandlers.set(channel, fn),
      removeHandler: (channel: string) => fake.ipcHandlers.delete(channel),
      on: (channel: string, fn: Handler) => fake.ipcListeners.set(channel, fn),
      removeListener: (channel: string) => fake.ipcListeners.delete(channel),
    },
    protocol: {
      registerSchemesAsPrivileged: (list: { scheme: string; privileges: Record<string, unknown> }[]) => {
        for (const l of list) fake.privilegedSchemes.push({ ...l, afterReady: fake.app.isReadyNow })
      },
      handle: (scheme: string, fn: (request: Request) => Promise<Response>) => fake.protocolHandlers.set(scheme, fn),
    },
    shell: {
      openExternal: async (url: string) => {
        fake.openedExternally.push(url)
      },
      showItemInFolder: (path: string) => fake.shownInFolder.push(path),
    },
    dialog: {
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      showSaveDialog: async () => ({ canceled: true }),
      showMessageBox: async (options: { message: string; buttons: string[] }) => {
        fake.messageBoxes.push(options)
        return { response: fake.messageBoxAnswer, checkboxChecked: false }
      },
      showErrorBox: (title: string, content: string) => fake.errorBoxes.push({ title, content }),
    },
  }
}
