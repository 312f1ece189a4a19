/**
 * Everything the renderer can ask of main, in plain Node (design.md §1): one method per call of the
 * contract (contract.ts). The Electron shell (IPC) and the web host (HTTP) both reach it
 * through `dispatch` (./bridge.ts), which validates payloads and turns every exception into a
 * BridgeError; here, methods simply throw.
 *
 * It owns the one Engine of the app, the profiles (keys in the OS keychain; the demo's in memory),
 * the settings, the active profile, and the event stream the renderer listens to.
 *
 * Secrets held here, in memory only: the demo emulator's keys, and for at most 15 minutes the
 * business key a partner registration returned (until it is saved as a profile or discarded). Every
 * message that leaves goes through `redact`.
 */
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, extname, isAbsolute, join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import type { Sandbox } from '../../sandbox'
import { AI_CREDITS_PER_CREATE, type AiTarget, type ReferredBusinessRow } from '../../schemas'
import {
  type CallName,
  type Calls,
  type ClientHealth,
  type Events,
  type EventName,
  type FolderView,
  type IntakeOutcome,
  type ListPage,
  type Overview,
  type ParsedReq,
  type ProfileList,
  type ProfileView,
  type RecordRow,
  type SessionState,
  type Settings,
  settingsSchema,
} from '../../contract'
import type { BookkeepingClient, ResponseInfo } from './api'
import { AppError } from './app-error'
import { Engine, type EngineOptions } from './engine'
import type { EngineEventName } from './events'
import type { IntakeResult } from './intake/intake'
import { type ClientProvider, DEFAULT_QUEUE_OPTIONS } from './queue/queue'
import {
  MemorySecretStore,
  type NewProfileInput,
  type Profile,
  type ProfileClientOptions,
  ProfileError,
  ProfileManager,
  type SecretStore,
  openSecretStore,
  redact as redactSecrets,
} from './secrets'
import {
  ATTENTION_STATUSES,
  GrantStore,
  type Month,
  type NewGrant,
  monthOf,
  uploadMonth,
} from './store/overview'
import { UPLOAD_STATUSES, type Upload, type UploadStatus, type UploadView, toUploadView } from './store/uploads'
import { PathGrants } from './user-paths'
import { errnoCode, numberedNames } from './util'

// ---------------------------------------------------------------------------------------------
// Ports and options
// ---------------------------------------------------------------------------------------------

/** What the app needs of its host: Electron gives native dialogs, the web host does without. */
export interface ShellPort {
  /** A folder chosen by the person, or null (cancelled, or no native picker: the UI shows a path field). */
  pickDirectory(): Promise<string | null>
  /** Shows the file in the OS file manager; false when that is not possible (web host). */
  showItemInFolder(path: string): Promise<boolean>
  openExternal?(url: string): Promise<void>
  /** Where to save an export (a native save dialog); null when cancelled. Without it, exports go to <dataDir>/exports. */
  chooseExportPath?(defaultName: string): Promise<string | null>
  /** Web host: the URL the browser downloads a file of <dataDir>/exports from (it carries the host's token). */
  downloadUrl?(fileName: string): string
}

export interface AppServiceOptions {
  /** Where bookdrop.db, profiles.json, dropped files and exports live. */
  dataDir: string
  host: 'electron' | 'web'
  shell: ShellPort
  /** Where real keys live; the OS keychain (openSecretStore) by default. */
  secretStore?: SecretStore
  /** When there is no profile at all, start the demo mode (embedded emulator) by itself. */
  demo?: boolean
  /** Engine timing (tests shorten these). */
  engine?: Pick<EngineOptions, 'queue' | 'watch' | 'hashConcurrency'>
  /** Added to every API client (timeouts, user agent). */
  clientOptions?: ProfileClientOptions
  /** The queue database cannot be read: move it aside and start fresh (see Engine.open). */
  resetQueue?: boolean
}

export type CallHandlers = { [K in CallName]: (req: ParsedReq<K>) => Promise<Calls[K]> }

export type EventListener = <E extends EventName>(name: E, payload: Events[E]) => void

// ---------------------------------------------------------------------------------------------
// Constants and small helpers
// ---------------------------------------------------------------------------------------------

export const DEFAULT_SETTINGS: Settings = {
  concurrency: DEFAULT_QUEUE_OPTIONS.concurrency,
  pollIntervalMs: DEFAULT_QUEUE_OPTIONS.poll.firstMs,
  maxFileBytes: DEFAULT_QUEUE_OPTIONS.maxFileBytes,
  jobTimeoutMs: DEFAULT_QUEUE_OPTIONS.jobTimeoutMs,
  notifications: true,
  closeToTray: true,
  launchAtLogin: false,
  theme: 'system',
}
const SETTINGS_KEY = 'app'
/** How long a registered business's secret key is held in memory, waiting to be saved. */
export const REGISTRATION_TTL_MS = 15 * 60 * 1000
/** A job still processing this long after its file was added counts as stuck (client health). */
export const STUCK_AFTER_MS = 60 * 60 * 1000
const SESSION_THROTTLE_MS = 250
const DEMO_BUSINESS_NAME = 'Demo Bakery (demo)'
const DEMO_PARTNER_NAME = 'Demo Partner (demo)'
/** Anything shaped like a secret API key, whoever's it is: never in a message. */
const SECRET_KEY_RE = /svc_(?:partner_)?sk_[A-Za-z0-9_-]{4,}/g

const ENGINE_EVENTS: readonly EngineEventName[] = [
  'upload',
  'progress',
  'folder',
  'rateLimit',
  'profile',
  'notice',
  'storage',
]

/** A provider failure the queue understands: the profile waits for a key instead of failing files one by one. */
function noKey(message: string): Error & { status: number; errorCode: string; retryable: boolean } {
  return Object.assign(new Error(message), { status: 0, errorCode: 'no_key', retryable: false })
}

function localDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/**
 * A file name that is safe to create in one directory: no path separators, no `..`, no leading dot,
 * no control or reserved characters, not a Windows device name, at most 180 characters (extension kept).
 */
export function sanitizeFileName(raw: string): string {
  let n = raw.normalize('NFC')
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  n = n.replace(/[\u0000-\u001f\u007f]/g, '')
  n = n.replace(/[\\/]/g, '_').replace(/[<>:"|?*]/g, '_')
  n = n.replace(/\.{2,}/g, '.')
  n = n
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(n)) n = `_${n}`
  if (n === '') n = 'file'
  if (n.length > 180) {
    const ext = extname(n).slice(0, 20)
    n = n.slice(0, 180 - ext.length) + ext
  }
  return n
}

/** Writes `bytes` as `name` in `dir`, or "name (2).ext", "name (3).ext"… never replacing a file. */
async function writeUnique(dir: string, name: string, bytes: Buffer): Promise<string> {
  for (const n of numberedNames(name)) {
    const candidate = join(dir, n)
    try {
      await writeFile(candidate, bytes, { flag: 'wx' })
      return candidate
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST') throw e
    }
  }
  throw new AppError('internal', `Could not find a free file name for ${name} in ${dir}.`)
}

function isBusinessKind(p: Profile): boolean {
  return p.kind === 'business' || p.kind === 'oauth'
}

/** Replaces the strings inside plain data for which `fn` returns something else (copying only what changes). */
function mapStrings<T>(value: T, fn: (s: string) => string): T {
  if (typeof value === 'string') return fn(value) as T
  if (Array.isArray(value)) {
    let changed = false
    const out = value.map((v: unknown) => {
      const n = mapStrings(v, fn)
      if (n !== v) changed = true
      return n
    })
    return (changed ? out : value) as T
  }
  if (value && typeof value === 'object') {
    let out: Record<string, unknown> | null = null
    for (const [k, v] of Object.entries(value)) {
      const n = mapStrings(v, fn)
      if (n !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = n
    }
    return (out ?? value) as T
  }
  return value
}

interface DemoSession {
  sandbox: Sandbox
  /** Temp folder of the demo's profiles.json (names and the emulator's URL; never a key). */
  dir: string
  manager: ProfileManager
  secrets: string[]
}

interface PendingRegistration {
  secret: string
  businessUuid: string
  name: string
  /** The manager of the partner profile that registered it: the new profile lives next to it. */
  demo: boolean
  environment: Profile['environment']
  baseUrl: string | undefined
  timer: NodeJS.Timeout
}

interface Entry {
  profile: Profile
  manager: ProfileManager
  demo: boolean
}

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

export class AppService implements CallHandlers {
  readonly dataDir: string
  readonly host: 'electron' | 'web'
  engine!: Engine
  /** Seat and credit grants made from this app (the API lists none): the partner overview. */
  private grantStore: GrantStore | null = null
  private readonly shell: ShellPort
  private readonly clientOptions: ProfileClientOptions
  private real!: ProfileManager
  private keychainProblem: string | null = null
  private demo: DemoSession | null = null
  private demoStarting: Promise<void> | null = null
  private active: string | null = null
  private readonly clients = new Map<string, Promise<BookkeepingClient>>()
  private readonly rate = new Map<
    string,
    Pick<NonNullable<SessionState['rateLimit']>, 'limit' | 'remaining' | 'resetAt'>
  >()
  private readonly pending = new Map<string, PendingRegistration>()
  private readonly listeners = new Set<EventListener>()
  private sessionTimer: NodeJS.Timeout | null = null
  private closed = false
  /** Files and folders the person gave this process (drops, the open dialog, the folder picker). */
  private readonly grants = new PathGrants()

  private constructor(opts: AppServiceOptions) {
    this.dataDir = opts.dataDir
    this.host = opts.host
    this.shell = opts.shell
    this.clientOptions = opts.clientOptions ?? {}
  }

  static async open(opts: AppServiceOptions): Promise<AppService> {
    const s = new AppService(opts)
    await mkdir(opts.dataDir, { recursive: true })
    let store = opts.secretStore
    if (store) {
      s.keychainProblem = store.describe().problem ?? null
    } else {
      const opened = await openSecretStore()
      store = opened.store
      s.keychainProblem = opened.problem
    }
    s.real = await ProfileManager.open({ dataDir: opts.dataDir, store, clientOptions: s.clientOptions })
    s.active = s.real.activeId

    const provider: ClientProvider = { clientFor: (id, onRateLimit) => s.uploadClient(id, onRateLimit) }
    s.engine = await Engine.open({
      dataDir: opts.dataDir,
      clients: provider,
      isPickedDirectory: (p) => s.grants.isDirectoryGranted(p),
      resetQueue: opts.resetQueue ?? false,
      ...opts.engine,
    })
    // Saved settings win over the queue defaults, unless the caller fixed them (tests).
    const settings = s.readSettings()
    if (opts.engine?.queue?.concurrency === undefined) s.engine.queue.setConcurrency(settings.concurrency)
    if (opts.engine?.queue?.maxFileBytes === undefined) s.engine.queue.setMaxFileBytes(settings.maxFileBytes)
    if (opts.engine?.queue?.poll === undefined) s.engine.queue.setPollInterval(settings.pollIntervalMs)
    if (opts.engine?.queue?.jobTimeoutMs === undefined) s.engine.setJobTimeout(settings.jobTimeoutMs)
    for (const name of ENGINE_EVENTS) {
      s.engine.events.on(name, (payload) => s.onEngineEvent(name, payload))
    }

    if (opts.demo && s.real.list().length === 0) {
      try {
        await s.startDemo()
      } catch (e) {
        // The app still opens (a key can be added); nobody listens to events yet, so say it here.
        console.warn(`bookdrop: the demo could not start: ${s.redact((e as Error).message)}`)
      }
    }
    return s
  }

  // ---- events -------------------------------------------------------------------------------------

  /** Every engine event, plus `session`, `profiles` and `settings`. Returns the unsubscribe function. */
  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private emit<E extends EventName>(name: E, payload: Events[E]): void {
    if (this.closed) return
    const clean = mapStrings(payload, (s) => this.redact(s))
    for (const l of this.listeners) {
      try {
        l(name, clean)
      } catch {
        // A listener's failure (a closed window, a dropped socket) is its own business.
      }
    }
  }

  private onEngineEvent<E extends EngineEventName>(name: E, payload: Events[E]): void {
    if (name === 'upload') {
      // The engine's rows carry main's own fields: the contract's view leaves them out.
      const e = payload as Events['upload']
      this.emit('upload', { ...e, upload: toUploadView(e.upload as Upload) })
    } else this.emit(name, payload)
    if (name === 'upload') this.scheduleSession()
    else if (name === 'storage') this.emitSession()
    else if (name === 'rateLimit' || name === 'profile') {
      const p = payload as Events['rateLimit'] | Events['profile']
      if (name === 'rateLimit') {
        const r = payload as Events['rateLimit']
        this.rate.set(r.profileId, { limit: r.limit, remaining: r.remaining, resetAt: r.resetAt })
      }
      if (p.profileId === this.active) this.emitSession()
    }
  }

  /** Many uploads change status at once: one `session` event per SESSION_THROTTLE_MS at most. */
  private scheduleSession(): void {
    if (this.sessionTimer || this.closed) return
    this.sessionTimer = setTimeout(() => {
      this.sessionTimer = null
      this.emitSession()
    }, SESSION_THROTTLE_MS)
    this.sessionTimer.unref?.()
  }

  private emitSession(): void {
    if (this.closed) return
    this.emit('session', this.session())
  }

  private emitProfiles(): void {
    this.emit('profiles', this.profileList())
  }

  // ---- secrets ------------------------------------------------------------------------------------

  /** Removes every secret this service holds, and anything shaped like a secret key, from text. */
  redact(text: string): string {
    const held = [...(this.demo?.secrets ?? []), ...[...this.pending.values()].map((p) => p.secret)]
    return redactSecrets(text, held).replace(SECRET_KEY_RE, '[redacted]')
  }

  // ---- profiles -----------------------------------------------------------------------------------

  // ---- paths the person gave (the shell registers them) ------------------------------------------

  /**
   * Files the person dropped on the window or chose in the open dialog (the preload's
   * webUtils.getPathForFile results, or the tray's drop): `addFiles` takes these for a few minutes.
   * Not a call of the contract: only the shell registers them.
   */
  grantFiles(paths: readonly string[]): void {
    for (const p of paths) this.grants.grantFile(p)
  }

  private entry(id: string): Entry | undefined {
    const p = this.real.get(id)
    if (p) return { profile: p, manager: this.real, demo: false }
    const d = this.demo?.manager.get(id)
    if (d && this.demo) return { profile: d, manager: this.demo.manager, demo: true }
    return undefined
  }

  private mustEntry(id: string): Entry {
    const e = this.entry(id)
    if (!e) throw new AppError('not_found', 'No such profile: it may have been removed.')
    return e
  }

  private profileList(): ProfileList {
    const profiles: ProfileView[] = [
      ...this.real.list().map((p) => ({ ...p, demo: false })),
      ...(this.demo?.manager.list().map((p) => ({ ...p, demo: true })) ?? []),
    ]
    const activeId = this.active && profiles.some((p) => p.id === this.active) ? this.active : null
    return { profiles, activeId }
  }

  private view(e: Entry | undefined): ProfileView {
    if (!e) throw new AppError('not_found', 'No such profile: it may have been removed.')
    return { ...e.profile, demo: e.demo }
  }

  /** Names are unique across the keychain profiles and the demo's (each manager checks its own). */
  private checkNameFree(name: unknown, exceptId?: string): void {
    if (typeof name !== 'string') return
    const n = name.trim().normalize('NFC').toLocaleLowerCase('en-US')
    const clash = this.profileList().profiles.find(
      (p) => p.id !== exceptId && p.name.normalize('NFC').toLocaleLowerCase('en-US') === n,
    )
    if (clash) {
      throw new ProfileError(
        'duplicate_name',
        `A profile named "${clash.name}" already exists (names are compared without regard to case): choose another name.`,
        { field: 'name' },
      )
    }
  }

  private async addTo(manager: ProfileManager, input: NewProfileInput): Promise<Profile> {
    this.checkNameFree(input.name)
    return manager.add(input)
  }

  private async setActive(id: string | null): Promise<void> {
    if (id !== null) {
      const e = this.mustEntry(id)
      // Only keychain profiles are remembered: a demo profile does not outlive this run.
      if (!e.demo) await this.real.setActive(id)
    }
    this.active = id
    this.emitProfiles()
    this.emitSession()
  }

  private forgetClient(id: string): void {
    this.clients.delete(id)
    this.engine.queue.forgetClient(id)
  }

  /** The engine's client for a profile's uploads. A missing profile or key pauses that profile ('no_key'). */
  private async uploadClient(id: string, onRateLimit: Parameters<ClientProvider['clientFor']>[1]) {
    const e = this.entry(id)
    if (!e) {
      throw noKey(
        'The profile these files were queued for is gone (removed, or a demo profile of an earlier run): add its key again, then retry.',
      )
    }
    if (!isBusinessKind(e.profile))
      throw noKey(`"${e.profile.name}" is a partner profile: files are uploaded with a business profile.`)
    try {
      return await e.manager.clientFor(id, {
        ...this.clientOptions,
        onResponse: (i: ResponseInfo) => {
          if (i.rateLimit) onRateLimit(i.rateLimit)
        },
      })
    } catch (err) {
      throw noKey(this.redact(err instanceof Error ? err.message : String(err)))
    }
  }

  /** The API client of a profile for calls made on the person's behalf (lists, forms), cached. */
  private async clientOf(id: string): Promise<BookkeepingClient> {
    let c = this.clients.get(id)
    if (!c) {
      const e = this.mustEntry(id)
      c = e.manager.clientFor(id, {
        ...this.clientOptions,
        onResponse: (i) => this.observeResponse(id, i),
      })
      this.clients.set(id, c)
      c.catch(() => this.clients.delete(id))
    }
    return c
  }

  private observeResponse(profileId: string, i: ResponseInfo): void {
    if (!i.rateLimit) return
    const r = {
      limit: i.rateLimit.limit ?? null,
      remaining: i.rateLimit.remaining ?? null,
      resetAt: i.rateLimit.resetAt ?? null,
    }
    this.rate.set(profileId, r)
    this.emit('rateLimit', {
      profileId,
      ...r,
      pausedUntil: this.engine.queue.profileState(profileId).pausedUntil,
    })
    if (profileId === this.active) this.scheduleSession()
  }

  private activeEntry(): Entry {
    if (!this.active)
      throw new AppError(
        'no_active_profile',
        'No profile is selected: add a key in Settings, or try the demo.',
      )
    const e = this.entry(this.active)
    if (!e)
      throw new AppError('no_active_profile', 'The selected profile is gone: choose another one in Settings.')
    return e
  }

  /** The active profile, which must be a business (or OAuth) profile. */
  private activeBusiness(): Entry {
    const e = this.activeEntry()
    if (!isBusinessKind(e.profile)) {
      throw new AppError(
        'wrong_profile_kind',
        `"${e.profile.name}" is a partner profile. Uploads, purchase orders, invoices, expenses, bills and bank transactions belong to a business: switch to a business profile.`,
      )
    }
    return e
  }

  private activePartner(): Entry {
    const e = this.activeEntry()
    if (e.profile.kind !== 'partner') {
      throw new AppError(
        'wrong_profile_kind',
        `"${e.profile.name}" is a business profile. Registering businesses, seats and credits need a partner profile (a svc_partner_sk_ key): switch to a partner profile.`,
      )
    }
    return e
  }

  private async businessClient(): Promise<BookkeepingClient> {
    return this.clientOf(this.activeBusiness().profile.id)
  }

  private async partnerClient(): Promise<{ client: BookkeepingClient; entry: Entry }> {
    const entry = this.activePartner()
    return { client: await this.clientOf(entry.profile.id), entry }
  }

  // ---- session and settings -------------------------------------------------------------------------

  private session(): SessionState {
    const id = this.profileList().activeId
    const zero = Object.fromEntries(UPLOAD_STATUSES.map((s) => [s, 0])) as Record<UploadStatus, number>
    const storage = this.engine.queue.storageProblem()
    if (!id) return { profileId: null, state: 'active', message: null, storage, rateLimit: null, counts: zero }
    const q = this.engine.queue.profileState(id)
    const r = this.rate.get(id)
    return {
      profileId: id,
      state: q.state,
      message: q.message,
      storage,
      rateLimit:
        r || q.pausedUntil
          ? { limit: null, remaining: null, resetAt: null, ...r, pausedUntil: q.pausedUntil }
          : null,
      counts: { ...zero, ...this.engine.uploads.countByStatus(id) },
    }
  }

  private readSettings(): Settings {
    const stored = this.engine.settings.get<Partial<Settings>>(SETTINGS_KEY, {})
    const merged = { ...DEFAULT_SETTINGS, ...stored }
    const r = settingsSchema.safeParse(merged)
    if (r.success) return r.data
    // A damaged value falls back field by field.
    const out = { ...DEFAULT_SETTINGS }
    for (const k of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
      const one = settingsSchema.shape[k].safeParse(merged[k])
      if (one.success) (out as Record<string, unknown>)[k] = one.data
    }
    return out
  }

  // ---- records -------------------------------------------------------------------------------------

  private async page(
    resource: 'purchase-orders' | 'invoices' | 'expenses' | 'bills' | 'bank-transactions',
    q: ParsedReq<'listInvoices'>,
  ): Promise<ListPage<RecordRow>> {
    const client = await this.businessClient()
    const res = await client.list(resource, q)
    return { data: res.data.map((r): RecordRow => ({ ...r })), meta: res.meta }
  }

  private outcomes(results: IntakeResult[], paths: string[]): IntakeOutcome[] {
    return results.map((r, i) =>
      r.kind === 'ignored'
        ? { kind: 'ignored', why: r.why, path: paths[i] ?? '' }
        : { kind: r.kind, upload: toUploadView(r.upload) },
    )
  }

  private async writeDropped(files: { name: string; base64: string }[]): Promise<string[]> {
    const dir = join(this.dataDir, 'dropped', localDate(new Date()))
    await mkdir(dir, { recursive: true })
    const paths: string[] = []
    for (const f of files) {
      paths.push(await writeUnique(dir, sanitizeFileName(f.name), Buffer.from(f.base64, 'base64')))
    }
    return paths
  }

  private async addPaths(
    paths: string[],
    o: { target: AiTarget; prompt?: string; processType?: 'async' | 'direct' },
  ): Promise<IntakeOutcome[]> {
    const { profile } = this.activeBusiness()
    const results = await this.engine.addFiles(paths, {
      profileId: profile.id,
      target: o.target,
      prompt: o.prompt,
      processType: o.processType,
      source: 'drop',
    })
    return this.outcomes(results, paths)
  }

  /** Runs an engine action; its plain errors (sentences for people) get `code`. Zod errors pass through. */
  private async engineAction<T>(code: string, fn: () => T | Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (e) {
      if (e instanceof Error && e.constructor === Error) throw new AppError(code, e.message)
      throw e
    }
  }

  private folderView(id: string): FolderView {
    const f = this.engine.listFolders().find((x) => x.id === id)
    if (!f) throw new AppError('not_found', 'That folder is no longer watched.')
    return f
  }

  private checkFolderProfile(profileId: string): void {
    const e = this.entry(profileId)
    if (!e)
      throw new AppError('invalid_request', 'Choose the profile (business) this folder uploads to.', {
        profileId: 'no such profile',
      })
    if (!isBusinessKind(e.profile)) {
      throw new AppError(
        'wrong_profile_kind',
        `"${e.profile.name}" is a partner profile: a watched folder uploads to a business profile.`,
        {
          profileId: 'choose a business profile',
        },
      )
    }
  }

  // ===================================================================================================
  // The calls (one method per entry of CALLS)
  // ===================================================================================================

  // ---- app and profiles -----------------------------------------------------------------------------

  async getAppInfo(): Promise<Calls['getAppInfo']> {
    const info = this.real.describeStore()
    return {
      version: pkg.version,
      host: this.host,
      platform: process.platform,
      demo: this.demo !== null,
      keychain: {
        backend: info.backend,
        label: info.label,
        persistent: info.persistent,
        problem: this.keychainProblem ?? info.problem ?? null,
      },
    }
  }

  async listProfiles(): Promise<ProfileList> {
    return this.profileList()
  }

  async addProfile(req: ParsedReq<'addProfile'>): Promise<Calls['addProfile']> {
    const profile = await this.addTo(this.real, req)
    const current = this.active ? this.entry(this.active) : undefined
    // The first real profile takes over from nothing, or from the demo.
    if (!current || current.demo) await this.setActive(profile.id)
    else this.emitProfiles()
    return { ...profile, demo: false }
  }

  async rotateProfileKey(req: ParsedReq<'rotateProfileKey'>): Promise<Calls['rotateProfileKey']> {
    const e = this.mustEntry(req.id)
    const profile = await e.manager.rotate(
      req.id,
      req.secret,
      req.bearerToken === undefined ? {} : { bearerToken: req.bearerToken },
    )
    this.forgetClient(req.id)
    const state = this.engine.queue.profileState(req.id).state
    if (state === 'auth_required' || state === 'forbidden') {
      this.engine.resume(req.id)
      // Files refused for the old key go again; other failures stay for a person to look at.
      for (const row of [...this.engine.uploads.iterate({ statuses: ['failed'], profileId: req.id })]) {
        if (row.httpStatus === 401 || row.httpStatus === 403 || row.errorCode === 'no_key') {
          await this.engine.retry(row.id).catch(() => undefined)
        }
      }
    }
    this.emitProfiles()
    if (req.id === this.active) this.emitSession()
    return { ...profile, demo: e.demo }
  }

  async renameProfile(req: ParsedReq<'renameProfile'>): Promise<Calls['renameProfile']> {
    const e = this.mustEntry(req.id)
    this.checkNameFree(req.name, req.id)
    const profile = await e.manager.rename(req.id, req.name)
    this.emitProfiles()
    return { ...profile, demo: e.demo }
  }

  async removeProfile(req: ParsedReq<'removeProfile'>): Promise<ProfileList> {
    const e = this.mustEntry(req.id)
    await e.manager.remove(req.id)
    this.forgetClient(req.id)
    this.rate.delete(req.id)
    // Its folders stop; its files still waiting will not be sent (history keeps them, cancelled).
    for (const f of this.engine.folders.list().filter((f) => f.profileId === req.id))
      await this.engine.removeFolder(f.id)
    for (const row of [
      ...this.engine.uploads.iterate({
        statuses: ['queued', 'waiting_retry', 'processing'],
        profileId: req.id,
      }),
    ]) {
      try {
        this.engine.cancel(row.id)
      } catch {
        // It moved on meanwhile.
      }
    }
    if (this.active === req.id) {
      const next = this.profileList().profiles.find((p) => !p.demo) ?? this.profileList().profiles[0]
      await this.setActive(next?.id ?? null)
    } else {
      this.emitProfiles()
    }
    return this.profileList()
  }

  async setActiveProfile(req: ParsedReq<'setActiveProfile'>): Promise<ProfileList> {
    await this.setActive(req.id)
    return this.profileList()
  }

  /**
   * Demo mode: the embedded emulator in this process (demo data, fresh keys), and two profiles whose
   * keys live in a MemorySecretStore, never in the keychain or on disk. The business one becomes active.
   */
  async startDemo(): Promise<ProfileList> {
    if (!this.demo) {
      this.demoStarting ??= this.launchDemo().finally(() => (this.demoStarting = null))
      await this.demoStarting
    }
    const biz = this.demo?.manager.list().find((p) => p.kind === 'business')
    if (biz) await this.setActive(biz.id)
    return this.profileList()
  }

  private async launchDemo(): Promise<void> {
    const { startSandbox } = await import('../../sandbox')
    const sandbox = await startSandbox({ port: 0 })
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-demo-'))
    try {
      const keys = sandbox.demo
      if (!keys) throw new Error('the emulator started without demo keys')
      const manager = await ProfileManager.open({
        dataDir: dir,
        store: new MemorySecretStore(),
        clientOptions: this.clientOptions,
      })
      this.demo = {
        sandbox,
        dir,
        manager,
        secrets: [keys.businessKey, keys.partnerKey, keys.businessPublicKey],
      }
      const env = { environment: 'custom' as const, baseUrl: sandbox.url }
      await this.addTo(manager, {
        ...env,
        name: DEMO_BUSINESS_NAME,
        kind: 'business',
        secret: keys.businessKey,
      })
      await this.addTo(manager, { ...env, name: DEMO_PARTNER_NAME, kind: 'partner', secret: keys.partnerKey })
    } catch (e) {
      this.demo = null
      await sandbox.stop()
      await rm(dir, { recursive: true, force: true })
      throw e
    }
    this.emitProfiles()
  }

  async getSession(): Promise<SessionState> {
    return this.session()
  }

  async getSettings(): Promise<Settings> {
    return this.readSettings()
  }

  async setSettings(req: ParsedReq<'setSettings'>): Promise<Settings> {
    const next = settingsSchema.parse({ ...this.readSettings(), ...req })
    this.engine.settings.set(SETTINGS_KEY, next)
    // The engine reads this key itself (queue options, the intake limit included, at the next start).
    this.engine.settings.set('queue', {
      ...this.engine.settings.get<Record<string, unknown>>('queue', {}),
      concurrency: next.concurrency,
      maxFileBytes: next.maxFileBytes,
      jobTimeoutMs: next.jobTimeoutMs,
    })
    this.engine.setJobTimeout(next.jobTimeoutMs)
    this.engine.queue.setConcurrency(next.concurrency)
    this.engine.queue.setMaxFileBytes(next.maxFileBytes)
    this.engine.queue.setPollInterval(next.pollIntervalMs)
    this.emit('settings', next)
    return next
  }

  // ---- uploads --------------------------------------------------------------------------------------

  async addFiles(req: ParsedReq<'addFiles'>): Promise<IntakeOutcome[]> {
    if (this.host === 'web') {
      // In a browser the page sends files as bytes (addFileContents); a path it sends is not the
      // person's choice, so nothing here reads one.
      throw new AppError(
        'path_not_allowed',
        'In the browser, add files by dropping them on the window or choosing them with Add files: Bookdrop does not read a file from a path the page sends.',
      )
    }
    const relative = req.paths.findIndex((p) => !isAbsolute(p))
    if (relative >= 0) {
      throw new AppError('invalid_request', `paths.${relative}: give the full path of the file.`, {
        [`paths.${relative}`]: 'must be an absolute path',
      })
    }
    const refused = req.paths.findIndex((p) => !this.grants.isFileGranted(p))
    if (refused >= 0) {
      throw new AppError(
        'path_not_allowed',
        `${req.paths[refused]} was not dropped on Bookdrop or chosen in its open dialog in the last few minutes: drop the file on the window again, or choose it with Add files.`,
        { [`paths.${refused}`]: 'drop or choose this file again' },
      )
    }
    return this.addPaths(req.paths, req)
  }

  async addFileContents(req: ParsedReq<'addFileContents'>): Promise<IntakeOutcome[]> {
    this.activeBusiness() // refuse before writing anything
    const paths = await this.writeDropped(req.files)
    return this.addPaths(paths, req)
  }

  async history(req: ParsedReq<'history'>): Promise<Calls['history']> {
    const page = this.engine.history(req)
    return { rows: page.rows.map(toUploadView), total: page.total }
  }

  async retryUpload(req: ParsedReq<'retryUpload'>): Promise<UploadView> {
    return toUploadView(await this.engineAction('not_retryable', () => this.engine.retry(req.id)))
  }

  async cancelUpload(req: ParsedReq<'cancelUpload'>): Promise<UploadView> {
    return toUploadView(await this.engineAction('not_cancellable', () => this.engine.cancel(req.id)))
  }

  async retryFailed(): Promise<Calls['retryFailed']> {
    const e = this.active ? this.entry(this.active) : undefined
    const profileId = e && isBusinessKind(e.profile) ? e.profile.id : undefined
    return { retried: await this.engine.retryFailed(profileId) }
  }

  /**
   * Demo only: the sample receipts dropped as expenses, exactly as a person's drop (written under
   * <dataDir>/dropped/, then sent with the default prompt). Refused for a real key: they would
   * become expenses in real books.
   */
  async addSampleReceipts(): Promise<IntakeOutcome[]> {
    const e = this.activeBusiness()
    if (!e.demo) {
      throw new AppError(
        'not_demo',
        'The sample receipts are for the demo only: they would become expenses in your real books. Switch to the demo profile, or drop your own receipts.',
      )
    }
    const { SAMPLE_RECEIPTS } = await import('../../sandbox/sample-receipts')
    const paths = await this.writeDropped(SAMPLE_RECEIPTS.map((r) => ({ name: r.name, base64: r.base64 })))
    return this.addPaths(paths, { target: 'expenses' })
  }

  async pauseUploads(): Promise<SessionState> {
    this.engine.pause(this.activeBusiness().profile.id)
    return this.session()
  }

  async resumeUploads(): Promise<SessionState> {
    const id = this.activeBusiness().profile.id
    this.forgetClient(id)
    this.engine.resume(id)
    return this.session()
  }

  async exportHistory(req: ParsedReq<'exportHistory'>): Promise<Calls['exportHistory']> {
    const name = `history-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`
    let path: string
    if (this.shell.chooseExportPath) {
      const chosen = await this.shell.chooseExportPath(name)
      if (!chosen) return { path: null, rows: 0, downloadUrl: null }
      path = chosen
    } else {
      const dir = join(this.dataDir, 'exports')
      await mkdir(dir, { recursive: true })
      path = join(dir, name)
    }
    const rows = await this.engine.exportCsv(req.filter, path)
    const downloadUrl = this.shell.chooseExportPath
      ? null
      : (this.shell.downloadUrl?.(basename(path)) ?? `/api/download/${encodeURIComponent(basename(path))}`)
    return { path, rows, downloadUrl }
  }

  async showSourceFile(req: ParsedReq<'showSourceFile'>): Promise<Calls['showSourceFile']> {
    const row = this.engine.uploads.get(req.id)
    if (!row) throw new AppError('not_found', `There is no upload #${req.id}.`)
    const path = row.movedTo || row.path
    return { shown: await this.shell.showItemInFolder(path), path }
  }

  // ---- watched folders ------------------------------------------------------------------------------

  async listFolders(): Promise<FolderView[]> {
    return this.engine.listFolders()
  }

  async addFolder(req: ParsedReq<'addFolder'>): Promise<FolderView> {
    this.checkFolderProfile(req.profileId)
    const f = await this.engineAction('folder_exists', () => this.engine.addFolder(req))
    return this.folderView(f.id)
  }

  async updateFolder(req: ParsedReq<'updateFolder'>): Promise<FolderView> {
    if (!this.engine.folders.get(req.id)) throw new AppError('not_found', 'That folder is no longer watched.')
    if (req.patch.profileId !== undefined) this.checkFolderProfile(req.patch.profileId)
    const f = await this.engineAction('not_found', () => this.engine.updateFolder(req.id, req.patch))
    return this.folderView(f.id)
  }

  async removeFolder(req: ParsedReq<'removeFolder'>): Promise<FolderView[]> {
    if (!this.engine.folders.get(req.id)) throw new AppError('not_found', 'That folder is no longer watched.')
    await this.engine.removeFolder(req.id)
    return this.engine.listFolders()
  }

  async pickDirectory(): Promise<Calls['pickDirectory']> {
    const path = await this.shell.pickDirectory()
    if (path) this.grants.grantDirectory(path)
    return { path }
  }

  // ---- records of the active business -----------------------------------------------------------------

  async listPurchaseOrders(req: ParsedReq<'listPurchaseOrders'>): Promise<ListPage<RecordRow>> {
    return this.page('purchase-orders', req)
  }

  async createPurchaseOrder(req: ParsedReq<'createPurchaseOrder'>): Promise<Calls['createPurchaseOrder']> {
    const client = await this.businessClient()
    // The client checks the order with purchaseOrderSchema before sending: a bad one is an ApiError with fields.
    return client.createPurchaseOrder(
      req.order as unknown as Parameters<BookkeepingClient['createPurchaseOrder']>[0],
    )
  }

  async listInvoices(req: ParsedReq<'listInvoices'>): Promise<ListPage<RecordRow>> {
    return this.page('invoices', req)
  }

  async getInvoice(req: ParsedReq<'getInvoice'>): Promise<Calls['getInvoice']> {
    return (await this.businessClient()).getInvoice(req.id)
  }

  async createInvoiceFromPrompt(
    req: ParsedReq<'createInvoiceFromPrompt'>,
  ): Promise<Calls['createInvoiceFromPrompt']> {
    const client = await this.businessClient()
    const res = await client.aiCreate('invoices', { prompt: req.prompt, process_type: req.processType })
    if (res.process_type === 'direct') return { jobReference: null, recordUuid: res.record.uuid }
    if (res.process_type === 'async') return { jobReference: res.job_reference, recordUuid: null }
    return { jobReference: null, recordUuid: null }
  }

  async listExpenses(req: ParsedReq<'listExpenses'>): Promise<ListPage<RecordRow>> {
    return this.page('expenses', req)
  }

  async listBills(req: ParsedReq<'listBills'>): Promise<ListPage<RecordRow>> {
    return this.page('bills', req)
  }

  async updateExpense(req: ParsedReq<'updateExpense'>): Promise<RecordRow> {
    return (await this.businessClient()).patchExpense(req.id, req.patch)
  }

  async updateBill(req: ParsedReq<'updateBill'>): Promise<RecordRow> {
    return (await this.businessClient()).patchBill(req.id, req.patch)
  }

  async replaceBill(req: ParsedReq<'replaceBill'>): Promise<RecordRow> {
    return (await this.businessClient()).putBill(req.id, req.body)
  }

  async listBankTransactions(req: ParsedReq<'listBankTransactions'>): Promise<ListPage<RecordRow>> {
    return this.page('bank-transactions', req)
  }

  async deleteBankTransaction(
    req: ParsedReq<'deleteBankTransaction'>,
  ): Promise<Calls['deleteBankTransaction']> {
    return (await this.businessClient()).deleteBankTransaction(req.id)
  }

  async uploadBankStatement(req: ParsedReq<'uploadBankStatement'>): Promise<IntakeOutcome[]> {
    this.activeBusiness()
    const paths = await this.writeDropped(req.files)
    return this.addPaths(paths, { target: 'bank-transactions', prompt: req.prompt })
  }

  // ---- partner console ----------------------------------------------------------------------------

  async listReferredBusinesses(
    req: ParsedReq<'listReferredBusinesses'>,
  ): Promise<Calls['listReferredBusinesses']> {
    return (await this.partnerClient()).client.listReferredBusinesses(req)
  }

  async getBillingStatus(req: ParsedReq<'getBillingStatus'>): Promise<Calls['getBillingStatus']> {
    return (await this.partnerClient()).client.billingStatus(req.businessUuid)
  }

  /**
   * Registers a business for the active partner. With admin access the server returns the business's
   * secret key: it stays here, in memory, under a random registrationId for 15 minutes; only its last
   * 4 characters go back.
   */
  async registerBusiness(req: ParsedReq<'registerBusiness'>): Promise<Calls['registerBusiness']> {
    const { client, entry } = await this.partnerClient()
    const res = await client.registerBusiness(req.input)
    const { api_secret_key: secret, ...rest } = res
    if (!secret) return { ...rest, registrationId: null, secretKeyHint: null }
    const registrationId = randomUUID()
    const timer = setTimeout(() => this.pending.delete(registrationId), REGISTRATION_TTL_MS)
    timer.unref?.()
    this.pending.set(registrationId, {
      secret,
      businessUuid: res.business_uuid,
      name: res.name,
      demo: entry.demo,
      environment: entry.profile.environment,
      baseUrl: entry.profile.baseUrl,
      timer,
    })
    return { ...rest, registrationId, secretKeyHint: secret.slice(-4) }
  }

  /** Saves a registration's key as a business profile (validated by the server), then forgets it here. */
  async saveRegisteredBusiness(
    req: ParsedReq<'saveRegisteredBusiness'>,
  ): Promise<Calls['saveRegisteredBusiness']> {
    const reg = this.pending.get(req.registrationId)
    if (!reg) {
      throw new AppError(
        'registration_expired',
        'The key of that registration is no longer held (it is kept for 15 minutes, until saved). Ask the business for its key and add it as a profile.',
      )
    }
    if (reg.businessUuid !== req.businessUuid) {
      throw new AppError('invalid_request', 'That registration is for another business.', {
        businessUuid: 'does not match the registration',
      })
    }
    const manager = reg.demo ? this.demo?.manager : this.real
    if (!manager)
      throw new AppError('registration_expired', 'The demo that registered this business has stopped.')
    const profile = await this.addTo(manager, {
      name: req.name,
      environment: reg.environment,
      ...(reg.environment === 'custom' ? { baseUrl: reg.baseUrl } : {}),
      kind: 'business',
      secret: reg.secret,
    })
    this.discard(req.registrationId)
    this.emitProfiles()
    return { ...this.profileList(), profile: { ...profile, demo: reg.demo } }
  }

  async discardRegistration(req: ParsedReq<'discardRegistration'>): Promise<Calls['discardRegistration']> {
    return { discarded: this.discard(req.registrationId) }
  }

  private discard(registrationId: string): boolean {
    const reg = this.pending.get(registrationId)
    if (!reg) return false
    clearTimeout(reg.timer)
    return this.pending.delete(registrationId)
  }

  async addSeats(req: ParsedReq<'addSeats'>): Promise<Calls['addSeats']> {
    const { client, entry } = await this.partnerClient()
    const res = await client.addSeats(req.businessUuid, req.grant)
    this.noteGrant({
      profileId: entry.profile.id,
      businessUuid: req.businessUuid,
      kind: 'seats',
      seats: res.allocation.seats,
      months: res.allocation.months,
      credits: 0,
      holdingCharged: res.holding_credits_charged,
      holdingAfter: res.partner_holding_balance,
      prorated: res.allocation.prorated,
    })
    return res
  }

  async addCredits(req: ParsedReq<'addCredits'>): Promise<Calls['addCredits']> {
    const { client, entry } = await this.partnerClient()
    const res = await client.addCredits(req.businessUuid, req.grant)
    this.noteGrant({
      profileId: entry.profile.id,
      businessUuid: req.businessUuid,
      kind: 'credits',
      seats: 0,
      months: 0,
      // The answer's fields are not shown by the spec: what was asked for stands in.
      credits: res.credits_granted ?? req.grant.credits,
      holdingCharged: res.credits_granted ?? req.grant.credits,
      holdingAfter: res.partner_holding_balance,
      prorated: false,
    })
    return res
  }

  /**
   * One row per business profile on this machine: its folders, last completed upload, jobs stuck in
   * processing for over an hour, failed files, and — when the active profile is a partner that
   * referred it — its AI credit balance.
   */
  async getClientHealth(): Promise<ClientHealth[]> {
    const list = this.profileList()
    const activeEntry = list.activeId ? this.entry(list.activeId) : undefined
    let credits: Map<string, number> | null = null
    let creditError: string | null = null
    if (activeEntry?.profile.kind === 'partner') {
      try {
        const rows = await this.allReferred(activeEntry.profile.id)
        credits = new Map(rows.map((b) => [b.uuid, b.credit_balance]))
      } catch (e) {
        credits = null
        creditError = `Credit balances unavailable: ${this.redact(e instanceof Error ? e.message : String(e))}`
      }
    }
    const folders = this.engine.listFolders()
    const stuckBefore = Date.now() - STUCK_AFTER_MS
    const sameServer = (p: Profile) =>
      !!activeEntry &&
      p.environment === activeEntry.profile.environment &&
      p.baseUrl === activeEntry.profile.baseUrl

    return list.profiles.filter(isBusinessKind).map((p): ClientHealth => {
      const last = this.engine.db.get<{ t: number | null }>(
        `SELECT MAX(completed_at) AS t FROM uploads WHERE profile_id = ? AND status = 'completed'`,
        p.id,
      )
      const stuck = this.engine.db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM uploads WHERE profile_id = ? AND status = 'processing' AND created_at < ?`,
        p.id,
        stuckBefore,
      )
      const uuid = p.business?.uuid ?? null
      const balance = credits && uuid && sameServer(p) ? credits.get(uuid) : undefined
      return {
        profileId: p.id,
        profileName: p.name,
        businessUuid: uuid,
        folders: folders
          .filter((f) => f.profileId === p.id)
          .map((f) => ({ path: f.path, state: f.state, message: f.message })),
        lastSuccessAt: last?.t ?? null,
        stuckJobs: stuck?.n ?? 0,
        failed: this.engine.uploads.countByStatus(p.id).failed,
        creditBalance: balance ?? null,
        error: creditError,
      }
    })
  }

  /** Every business the partner profile referred: up to 100 pages of 100. */
  private async allReferred(profileId: string): Promise<ReferredBusinessRow[]> {
    const client = await this.clientOf(profileId)
    const rows: ReferredBusinessRow[] = []
    for (let page = 1; page <= 100; page++) {
      const res = await client.listReferredBusinesses({ page, limit: 100 })
      rows.push(...res.data)
      if (res.data.length === 0 || page * res.per_page >= res.total) break
    }
    return rows
  }

  /** The grants table, opened on first use (in the engine's database). */
  private get partnerGrants(): GrantStore {
    return (this.grantStore ??= new GrantStore(this.engine.db))
  }

  /** Notes a grant the server made, for the partner overview. Never fails the grant itself. */
  private noteGrant(grant: NewGrant): void {
    try {
      this.partnerGrants.record(grant)
    } catch (e) {
      this.emit('notice', {
        level: 'warning',
        message: `The grant was made, but the overview could not note it: ${this.redact(e instanceof Error ? e.message : String(e))}`,
      })
    }
  }

  // ---- overview -----------------------------------------------------------------------------------

  /**
   * The overview of the active profile for a local month. A business: its uploads by day, from the
   * history in SQLite (files sent, records created, credits those creates cost, what needs attention
   * now). A partner: the grants this app made that month, the holding as the last grant left it, and
   * its referred businesses without seats (listed from the server).
   */
  async getOverview(req: ParsedReq<'getOverview'>): Promise<Overview> {
    const e = this.activeEntry()
    const m = monthOf(req.month)
    if (e.profile.kind === 'partner') return this.partnerOverview(e.profile.id, m)
    const counts = this.engine.uploads.countByStatus(e.profile.id)
    return {
      kind: 'business',
      month: m.month,
      ...uploadMonth(this.engine.db, e.profile.id, m),
      needsAttention: ATTENTION_STATUSES.reduce((n, st) => n + counts[st], 0),
      creditsPerCreate: AI_CREDITS_PER_CREATE,
    }
  }

  private async partnerOverview(profileId: string, m: Month): Promise<Overview> {
    const grants = this.partnerGrants.month(profileId, m)
    let referred: ReferredBusinessRow[] | null = null
    let error: string | null = null
    try {
      referred = await this.allReferred(profileId)
    } catch (err) {
      error = `Your referred businesses could not be listed: ${this.redact(err instanceof Error ? err.message : String(err))}`
    }
    const names = new Map(referred?.map((r) => [r.uuid, r.name]))
    return {
      kind: 'partner',
      month: m.month,
      ...grants,
      grants: grants.grants.map((g) => ({ ...g, businessName: names.get(g.businessUuid) ?? null })),
      businesses: referred?.length ?? null,
      withoutSeats: referred?.filter((r) => !(r.available_seats > 0)) ?? null,
      error,
    }
  }

  // ---- life cycle ---------------------------------------------------------------------------------

  /** Stops the engine (unfinished uploads resume next time), the demo emulator, and forgets held keys. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    if (this.sessionTimer) clearTimeout(this.sessionTimer)
    this.sessionTimer = null
    for (const id of [...this.pending.keys()]) this.discard(id)
    this.listeners.clear()
    await this.engine.close()
    if (this.demoStarting) await this.demoStarting.catch(() => undefined)
    const demo = this.demo
    this.demo = null
    if (demo) {
      await demo.sandbox.stop()
      await rm(demo.dir, { recursive: true, force: true })
    }
    this.clients.clear()
  }
}
