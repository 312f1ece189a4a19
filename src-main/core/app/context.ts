/**
 * What the rooms of the app service share (issue 13): the one Engine, the profile registry (keys in
 * the OS keychain; the demo's in memory), the active profile, the API clients made for the person's
 * calls, the event stream to the renderer, and the files and folders the person gave this process.
 * Each room (./profiles.ts, ./uploads.ts, …) gets this context and handles its slice of the
 * contract; nothing here handles a call itself.
 *
 * Secrets held here, in memory only: the demo emulator's keys, and for at most 15 minutes the
 * business key a partner registration returned. Every event that leaves goes through `redact`.
 */
import { coded } from '../../../contract/coded'
import { MAIN_ERRORS as E } from '../../../contract/main-messages'
import {
  type Events,
  type EventName,
  type ProfileList,
  type ProfileView,
  type ReviewCounts,
  type SessionState,
  UPLOAD_STATUSES,
  type UploadStatus,
} from '../../../contract'
import type { BookkeepingClient, ResponseInfo } from '../api'
import type { Network } from '../api/network'
import { AppError } from '../app-error'
import type { Engine } from '../engine'
import type { EngineEventName } from '../events'
import type { ClientProvider } from '../queue/queue'
import {
  type NewProfileInput,
  type Profile,
  type ProfileClientOptions,
  ProfileError,
  type ProfileManager,
  type SecretStore,
  redact as redactSecrets,
} from '../secrets'
import type { Upload } from '../store/uploads'
import { PathGrants } from '../user-paths'
import { businessCurrency, localDay } from '../review/flags'

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
  /**
   * The OS's preferred languages, most preferred first (BCP 47 tags). The one place Bookdrop learns
   * them (desktop: Electron's app.getPreferredSystemLanguages()); tests give their own. Without it
   * (web host) the browser's languages speak for the person (issue 34).
   */
  preferredLanguages?(): readonly string[]
}

export type EventListener = <E extends EventName>(name: E, payload: Events[E]) => void

/** A profile and the registry (keychain or demo) it lives in. */
export interface Entry {
  profile: Profile
  manager: ProfileManager
  demo: boolean
}

/** The demo mode's registry: profiles whose keys live in memory, on the embedded emulator. */
export interface DemoProfiles {
  manager: ProfileManager
  /** The emulator's keys: redacted from every message. */
  secrets: string[]
  /** Where its control routes are, and the headers (this run's secret) they need (DemoServer.control). */
  control: { origin: string; headers: Record<string, string> }
  stop(): Promise<void>
}

/** A business key a partner registration returned, held until saved as a profile (or 15 minutes). */
export interface PendingRegistration {
  secret: string
  businessUuid: string
  name: string
  /** Registered from the demo's partner: the new profile lives in the demo's registry. */
  demo: boolean
  environment: Profile['environment']
  baseUrl: string | undefined
  timer: NodeJS.Timeout
}

const SESSION_THROTTLE_MS = 250
/** Anything shaped like a secret API key, whoever's it is: never in a message. */
const SECRET_KEY_RE = /svc_(?:partner_)?sk_[A-Za-z0-9_-]{4,}/g

export function isBusinessKind(p: Profile): boolean {
  return p.kind === 'business' || p.kind === 'oauth'
}

/** A provider failure the queue understands: the profile waits for a key instead of failing files one by one. */
function noKey(message: string): Error & { status: number; errorCode: string; retryable: boolean } {
  return Object.assign(new Error(message), { status: 0, errorCode: 'no_key', retryable: false })
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

export class AppContext {
  engine!: Engine
  real!: ProfileManager
  /**
   * Where real secrets live (the OS keychain): API keys through `real`; mail passwords and the
   * proxy's password directly.
   */
  secretStore: SecretStore | null = null
  keychainProblem: string | null = null
  demo: DemoProfiles | null = null
  active: string | null = null
  closed = false
  readonly pending = new Map<string, PendingRegistration>()
  /** Files and folders the person gave this process (drops, the open dialog, the folder picker). */
  readonly grants = new PathGrants()
  private readonly clients = new Map<string, Promise<BookkeepingClient>>()
  private readonly listeners = new Set<EventListener>()
  private sessionTimer: NodeJS.Timeout | null = null

  constructor(
    readonly dataDir: string,
    readonly host: 'electron' | 'web',
    readonly shell: ShellPort,
    readonly clientOptions: ProfileClientOptions,
    /** Where every client's requests go and whom they trust (the connection room changes it). */
    readonly network: Network,
  ) {}

  // ---- events -------------------------------------------------------------------------------------

  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit<E extends EventName>(name: E, payload: Events[E]): void {
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

  onEngineEvent<E extends EngineEventName>(name: E, payload: Events[E]): void {
    if (name === 'upload') {
      // The engine's rows carry main's own fields: the contract's view leaves them out.
      const e = payload as Events['upload']
      const u = e.upload as Upload
      // What a completed row became (issue 32), when the event does not carry it yet.
      const records = u.status === 'completed' && u.record === null && u.recordUuid ? this.engine.records.recordsOf(u.id) : undefined
      // A possible duplicate (issue 33) carries the receipt it looks like, named and dated.
      this.emit('upload', { ...e, upload: this.engine.uploads.view(u, records) })
      this.scheduleSession()
      return
    }
    if (name === 'review') {
      // The engine counts without the business's currency: counted again with it.
      const e = payload as Events['review']
      const counts = this.reviewCounts()
      this.emit('review', counts ? { ...e, counts } : e)
      return
    }
    this.emit(name, payload)
    if (name === 'storage') this.emitSession()
    else if ((name === 'rateLimit' || name === 'profile') && (payload as Events['profile']).profileId === this.active)
      this.emitSession()
  }

  /** Review's counts for the active business, with its currency (issue 32); null without one. */
  reviewCounts(): ReviewCounts | null {
    const e = this.active ? this.entry(this.active) : undefined
    if (!e || !isBusinessKind(e.profile)) return null
    try {
      return this.engine.records.store.counts(e.profile.id, { currency: businessCurrency(e.profile), today: localDay() })
    } catch {
      return null
    }
  }

  emitReviewCounts(): void {
    const counts = this.reviewCounts()
    if (counts) this.emit('review', { counts, uuids: [], uploadIds: [] })
  }

  /** Many uploads change status at once: one `session` event per SESSION_THROTTLE_MS at most. */
  scheduleSession(): void {
    if (this.sessionTimer || this.closed) return
    this.sessionTimer = setTimeout(() => {
      this.sessionTimer = null
      this.emitSession()
    }, SESSION_THROTTLE_MS)
    this.sessionTimer.unref?.()
  }

  emitSession(): void {
    if (this.closed) return
    this.emit('session', this.session())
  }

  emitProfiles(): void {
    this.emit('profiles', this.profileList())
  }

  /** Removes every secret this service holds, and anything shaped like a secret key, from text. */
  redact(text: string): string {
    const held = [...(this.demo?.secrets ?? []), ...[...this.pending.values()].map((p) => p.secret)]
    return redactSecrets(text, held).replace(SECRET_KEY_RE, '[redacted]')
  }

  /** The message of anything thrown, with every secret removed. */
  messageOf(e: unknown): string {
    return this.redact(e instanceof Error ? e.message : String(e))
  }

  // ---- the profile registry (keychain and demo) ----------------------------------------------------

  entry(id: string): Entry | undefined {
    const p = this.real.get(id)
    if (p) return { profile: p, manager: this.real, demo: false }
    const d = this.demo?.manager.get(id)
    if (d && this.demo) return { profile: d, manager: this.demo.manager, demo: true }
    return undefined
  }

  mustEntry(id: string): Entry {
    const e = this.entry(id)
    if (!e) throw new AppError('not_found', 'No such profile: it may have been removed.')
    return e
  }

  profileList(): ProfileList {
    const profiles: ProfileView[] = [
      ...this.real.list().map((p) => ({ ...p, demo: false })),
      ...(this.demo?.manager.list().map((p) => ({ ...p, demo: true })) ?? []),
    ]
    const activeId = this.active && profiles.some((p) => p.id === this.active) ? this.active : null
    return { profiles, activeId }
  }

  /** Names are unique across the keychain profiles and the demo's (each manager checks its own). */
  checkNameFree(name: unknown, exceptId?: string): void {
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

  async addTo(manager: ProfileManager, input: NewProfileInput): Promise<Profile> {
    this.checkNameFree(input.name)
    return manager.add(input)
  }

  async setActive(id: string | null): Promise<void> {
    if (id !== null) {
      const e = this.mustEntry(id)
      // Only keychain profiles are remembered: a demo profile does not outlive this run.
      if (!e.demo) await this.real.setActive(id)
    }
    this.active = id
    this.emitProfiles()
    this.emitSession()
  }

  activeEntry(): Entry {
    if (!this.active)
      throw new AppError('no_active_profile', coded(E.noProfile))
    const e = this.entry(this.active)
    if (!e) throw new AppError('no_active_profile', coded(E.profileGone))
    return e
  }

  /** The active profile, which must be a business (or OAuth) profile. */
  activeBusiness(): Entry {
    const e = this.activeEntry()
    if (!isBusinessKind(e.profile)) {
      throw new AppError('wrong_profile_kind', coded(E.partnerProfileHere, { name: e.profile.name }))
    }
    return e
  }

  activePartner(): Entry {
    const e = this.activeEntry()
    if (e.profile.kind !== 'partner') {
      throw new AppError('wrong_profile_kind', coded(E.businessProfileHere, { name: e.profile.name }))
    }
    return e
  }

  // ---- API clients --------------------------------------------------------------------------------

  forgetClient(id: string): void {
    this.clients.delete(id)
    this.engine.forgetClient(id)
  }

  /** The engine's client for a profile's uploads. A missing profile or key pauses that profile ('no_key'). */
  readonly uploadClients: ClientProvider = {
    clientFor: async (id, onRateLimit) => {
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
        throw noKey(this.messageOf(err))
      }
    },
  }

  /** The API client of a profile for calls made on the person's behalf (lists, forms), cached. */
  async clientOf(id: string): Promise<BookkeepingClient> {
    let c = this.clients.get(id)
    if (!c) {
      const e = this.mustEntry(id)
      c = e.manager.clientFor(id, {
        ...this.clientOptions,
        // The queue keeps the one rate-limit state of a profile; these calls report to it too.
        onResponse: (i) => {
          if (i.rateLimit) this.engine.noteRateLimit(id, i.rateLimit)
        },
        // And its connection state: a web page or no answer here says the same as for an upload.
        onConnection: (e) => this.engine.noteConnection(id, e),
      })
      this.clients.set(id, c)
      c.catch(() => this.clients.delete(id))
    }
    return c
  }

  async businessClient(): Promise<BookkeepingClient> {
    return this.clientOf(this.activeBusiness().profile.id)
  }

  async partnerClient(): Promise<{ client: BookkeepingClient; entry: Entry }> {
    const entry = this.activePartner()
    return { client: await this.clientOf(entry.profile.id), entry }
  }

  // ---- the session of the active profile ------------------------------------------------------------

  session(): SessionState {
    const id = this.profileList().activeId
    const zero = Object.fromEntries(UPLOAD_STATUSES.map((s) => [s, 0])) as Record<UploadStatus, number>
    const storage = this.engine.storageProblem()
    if (!id) return { profileId: null, state: 'active', message: null, storage, rateLimit: null, counts: zero }
    const q = this.engine.profileState(id)
    const r = q.rateLimit
    return {
      profileId: id,
      state: q.state,
      message: q.message,
      ...(q.messageCoded ? { messageCoded: q.messageCoded } : {}),
      storage,
      rateLimit:
        r || q.pausedUntil
          ? { limit: null, remaining: null, resetAt: null, ...r, pausedUntil: q.pausedUntil }
          : null,
      counts: { ...zero, ...this.engine.uploads.countByStatus(id) },
    }
  }

  /** Runs an engine action; its plain errors (sentences for people) get `code`. Zod errors pass through. */
  async engineAction<T>(code: string, fn: () => T | Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (e) {
      if (e instanceof Error && e.constructor === Error) throw new AppError(code, e.message)
      throw e
    }
  }

  close(): void {
    this.closed = true
    if (this.sessionTimer) clearTimeout(this.sessionTimer)
    this.sessionTimer = null
    this.listeners.clear()
    this.clients.clear()
  }
}
