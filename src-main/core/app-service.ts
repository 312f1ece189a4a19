/**
 * Everything the renderer can ask of main, in plain Node (design.md §1). The calls of the contract
 * are handled by rooms with one job each (./app/*: profiles, session, folders, uploads, records,
 * partner, settings, demo, health), over one shared context (./app/context.ts). This class composes
 * them, owns their life cycle, and is what the hosts hold: the Electron shell (IPC) and the web
 * host (HTTP) reach it through `dispatch` (./bridge.ts), which validates payloads and turns every
 * exception into a BridgeError; here, handlers simply throw.
 */
import { mkdir } from 'node:fs/promises'
import { EVENT_NAMES } from '../../contract/names'
import { AppContext, type EventListener, type ShellPort } from './app/context'
import { type DemoLauncher, type DemoRoom, demoRoom } from './app/demo'
import { type FoldersRoom, foldersRoom } from './app/folders'
import { type HealthRoom, healthRoom } from './app/health'
import { type PartnerRoom, partnerRoom } from './app/partner'
import { type PhoneRoom, type PhoneRoomOptions, phoneRoom } from './app/phone'
import { type ProfilesRoom, profilesRoom } from './app/profiles'
import { type RecordsRoom, recordsRoom } from './app/records'
import { type ReviewDocumentRoom, reviewDocumentRoom } from './app/review-document'
import { type CallHandlers, type Unhandled, composeRooms } from './app/room'
import { type ConnectionRoom, applyConnection, connectionRoom, proxyCredentials } from './app/connection'
import { Network } from './api/network'
import { type SessionRoom, sessionRoom } from './app/session'
import { type SettingsRoom, readSettings, settingsRoom } from './app/settings'
import { type UploadsRoom, uploadsHelpers, uploadsRoom } from './app/uploads'
import { type DuplicatesRoom, duplicatesRoom } from './app/duplicates'
import { type MailRoom, mailRoom } from './app/mail'
import { type DataFolderRoom, dataFolderRoom } from './app/data-folder'
import { type ReviewRoom, reviewRoom } from './app/review'
import { mailPasswords } from './mail/secrets'
import { Engine, type EngineOptions } from './engine'
import type { EngineEventName } from './events'
import { ProfileManager, type ProfileClientOptions, type SecretStore, openSecretStore } from './secrets'

export type { CallHandlers } from './app/room'
export type { EventListener, ShellPort } from './app/context'
export type { DemoLauncher, DemoServer } from './app/demo'
export { DEFAULT_SETTINGS } from './app/settings'
export { REGISTRATION_TTL_MS } from './app/partner'
export { STUCK_AFTER_MS } from './app/health'
export { storedName } from './names'

export interface AppServiceOptions {
  /** Where bookdrop.db, profiles.json, dropped files and exports live. */
  dataDir: string
  host: 'electron' | 'web'
  shell: ShellPort
  /** Where real keys live; the OS keychain (openSecretStore) by default. */
  secretStore?: SecretStore
  /** When there is no profile at all, start the demo mode (embedded emulator) by itself. */
  demo?: boolean
  /** How the host starts the demo's emulator (core never imports it); without it there is no demo. */
  demoLauncher?: DemoLauncher
  /** Engine timing (tests shorten these). */
  engine?: Pick<EngineOptions, 'queue' | 'watch' | 'hashConcurrency' | 'mail'>
  /** Added to every API client (timeouts, user agent). */
  clientOptions?: ProfileClientOptions
  /**
   * The OS's proxy for a URL, as a PAC result ("PROXY host:port; DIRECT"): the desktop app's
   * Electron session (resolveProxy). Without it, the system's proxy is the environment's.
   */
  systemProxy?: (url: string) => Promise<string>
  /** The queue database cannot be read: move it aside and start fresh (see Engine.open). */
  resetQueue?: boolean
  /** "Add from phone": the web host's --phone-listen, and where the phone's page is built. */
  phone?: PhoneRoomOptions
}

/** The contract's events the engine emits (the service adds `session`, `profiles` and `settings`). */
const SERVICE_EVENTS: readonly string[] = ['session', 'profiles', 'settings', 'phone']
const ENGINE_EVENTS = EVENT_NAMES.filter((n): n is EngineEventName => !SERVICE_EVENTS.includes(n))

/** The service's handlers: the intersection of its rooms' slices of the contract. */
type Handlers = ProfilesRoom &
  SessionRoom &
  SettingsRoom &
  FoldersRoom &
  UploadsRoom &
  RecordsRoom &
  ReviewDocumentRoom &
  Pick<DemoRoom, 'startDemo' | 'addSampleReceipts'> &
  Omit<PartnerRoom, 'discardAll'> &
  HealthRoom &
  PhoneRoom &
  ConnectionRoom &
  MailRoom &
  DataFolderRoom &
  ReviewRoom &
  DuplicatesRoom

/** Compile-time check: `Assert<false>` does not compile. */
type Assert<T extends true> = T
type _EveryCallHasARoom = Assert<[Unhandled<Handlers>] extends [never] ? true : false>

function rooms(ctx: AppContext, launcher: DemoLauncher | undefined, phoneOptions: PhoneRoomOptions | undefined) {
  const files = uploadsHelpers(ctx)
  const demo = demoRoom(ctx, launcher, files)
  const partner = partnerRoom(ctx)
  const { shutdown: shutdownPhone, ...phone } = phoneRoom(ctx, phoneOptions)
  const handlers = composeRooms<Handlers>(
    profilesRoom(ctx),
    sessionRoom(ctx),
    settingsRoom(ctx),
    foldersRoom(ctx),
    uploadsRoom(ctx, files),
    recordsRoom(ctx),
    reviewDocumentRoom(ctx),
    { startDemo: demo.startDemo, addSampleReceipts: demo.addSampleReceipts },
    {
      listReferredBusinesses: partner.listReferredBusinesses,
      getBillingStatus: partner.getBillingStatus,
      registerBusiness: partner.registerBusiness,
      saveRegisteredBusiness: partner.saveRegisteredBusiness,
      discardRegistration: partner.discardRegistration,
      addSeats: partner.addSeats,
      addCredits: partner.addCredits,
    },
    healthRoom(ctx),
    phone,
    connectionRoom(ctx),
    mailRoom(ctx, async () => (launcher ? launcher.sampleReceipts() : [])),
    dataFolderRoom(ctx),
    reviewRoom(ctx),
    duplicatesRoom(ctx),
  )
  return { handlers, demo, partner, shutdownPhone }
}

// The handlers are composed from the rooms at open() (Object.assign below): the class carries them
// as its own members, and this declaration tells TypeScript so.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- see above
export interface AppService extends CallHandlers {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class AppService {
  private stopDemo: () => Promise<void> = async () => {}
  private discardRegistrations: () => void = () => {}
  private shutdownPhone: () => Promise<void> = async () => {}

  private constructor(private readonly ctx: AppContext) {}

  static async open(opts: AppServiceOptions): Promise<AppService> {
    // One network for every client: the proxy and the trust the connection settings say, with the
    // proxy's password read from the keychain when a proxy asks.
    let ctxRef: AppContext | null = null
    const network =
      opts.clientOptions?.network ??
      new Network({
        ...(opts.systemProxy ? { systemProxy: opts.systemProxy } : {}),
        proxyCredentials: async () => (ctxRef ? proxyCredentials(ctxRef) : null),
      })
    const ctx = new AppContext(opts.dataDir, opts.host, opts.shell, { ...opts.clientOptions, network }, network)
    ctxRef = ctx
    await mkdir(opts.dataDir, { recursive: true, mode: 0o700 })
    let store = opts.secretStore
    if (store) {
      ctx.keychainProblem = store.describe().problem ?? null
    } else {
      const opened = await openSecretStore()
      store = opened.store
      ctx.keychainProblem = opened.problem
    }
    ctx.secretStore = store
    ctx.real = await ProfileManager.open({ dataDir: opts.dataDir, store, clientOptions: ctx.clientOptions })
    ctx.active = ctx.real.activeId
    ctx.engine = await Engine.open({
      dataDir: opts.dataDir,
      clients: ctx.uploadClients,
      isPickedDirectory: (p) => ctx.grants.isDirectoryGranted(p),
      resetQueue: opts.resetQueue ?? false,
      ...opts.engine,
      // Mail passwords from the keychain only (BOOKDROP_MAIL_PASSWORD is the headless mode's).
      mail: { ...opts.engine?.mail, passwords: mailPasswords(store, {}) },
    })
    // Saved settings win over the queue defaults, unless the caller fixed them (tests).
    const settings = readSettings(ctx)
    const fixed = opts.engine?.queue
    ctx.engine.applyQueueSettings({
      concurrency: fixed?.concurrency === undefined ? settings.concurrency : undefined,
      maxFileBytes: fixed?.maxFileBytes === undefined ? settings.maxFileBytes : undefined,
      pollIntervalMs: fixed?.poll === undefined ? settings.pollIntervalMs : undefined,
      jobTimeoutMs: fixed?.jobTimeoutMs === undefined ? settings.jobTimeoutMs : undefined,
    })
    for (const name of ENGINE_EVENTS) ctx.engine.events.on(name, (payload) => ctx.onEngineEvent(name, payload))
    if (!opts.clientOptions?.network) applyConnection(ctx)

    const s = new AppService(ctx)
    const { handlers, demo, partner, shutdownPhone } = rooms(ctx, opts.demoLauncher, opts.phone)
    Object.assign(s, handlers)
    s.stopDemo = demo.stopDemo
    s.discardRegistrations = partner.discardAll
    s.shutdownPhone = shutdownPhone
    if (opts.demo && ctx.real.list().length === 0) {
      try {
        await s.startDemo({})
      } catch (e) {
        // The app still opens (a key can be added); nobody listens to events yet, so say it here.
        console.warn(`bookdrop: the demo could not start: ${ctx.messageOf(e)}`)
      }
    }
    return s
  }

  get dataDir(): string {
    return this.ctx.dataDir
  }

  get host(): 'electron' | 'web' {
    return this.ctx.host
  }

  /** The engine (a façade: its database and queue stay inside). */
  get engine(): Engine {
    return this.ctx.engine
  }

  /**
   * The running demo emulator's control routes (faults, the create log, the clock) and the headers
   * of this run they need; null without a demo. For the host and tests: never a call of the contract.
   */
  get demoControl(): { origin: string; headers: Record<string, string> } | null {
    return this.ctx.demo?.control ?? null
  }

  /** Every engine event, plus `session`, `profiles` and `settings`. Returns the unsubscribe function. */
  onEvent(listener: EventListener): () => void {
    return this.ctx.onEvent(listener)
  }

  /** Removes every secret this service holds, and anything shaped like a secret key, from text. */
  redact(text: string): string {
    return this.ctx.redact(text)
  }

  /**
   * Files the person dropped on the window or chose in the open dialog (the preload's
   * webUtils.getPathForFile results, or the tray's drop): `addFiles` takes these for a few minutes.
   * Not a call of the contract: only the shell registers them.
   */
  grantFiles(paths: readonly string[]): void {
    for (const p of paths) this.ctx.grants.grantFile(p)
  }

  /**
   * The OS says the network went away or came back (or the computer woke up): kept connections
   * are dropped when it comes back, and what waited for the network goes at once.
   */
  networkChanged(online: boolean): void {
    if (this.ctx.closed) return
    if (online) this.ctx.network.reset()
    this.ctx.engine.networkChanged(online)
  }

  /** Stops the engine (unfinished uploads resume next time), the demo emulator, and forgets held keys. */
  async close(): Promise<void> {
    if (this.ctx.closed) return
    this.discardRegistrations()
    // Phones first: nothing more arrives while the engine closes.
    await this.shutdownPhone()
    this.ctx.close()
    await this.ctx.engine.close()
    await this.stopDemo()
  }
}
