/**
 * A small in-memory BookdropApi for component tests: the thin layer between the screens and main.
 * (The real bridge, main and the emulator are tested end to end in Chromium.) Every call is a
 * vi.fn, so tests can see what the screens asked for; events are sent with `emit`.
 *
 * Where main would check a payload with a shared schema (a purchase order), this fake checks it
 * with the same schema, so the messages match.
 */
import { vi } from 'vitest'
import { type ReferredBusinessRow, issuesByField, purchaseOrderSchema } from '../../schemas'
import {
  type BookdropApi,
  CALL_NAMES,
  type CallName,
  type EventName,
  type MailAccountView,
  type Events,
  type ProfileList,
  type Req,
  type Res,
  type Result,
  type SessionState,
  type Settings,
  UPLOAD_STATUSES,
} from '../../contract'

export type Upload = Res<'history'>['rows'][number]
export type Profile = ProfileList['profiles'][number]
type Handler<K extends CallName> = (
  req: Req<K>,
) => Res<K> | Promise<Res<K>> | Result<Res<K>> | Promise<Result<Res<K>>>

/** The session's counts: none of any status, but for `over`. */
export function counts(over: Partial<SessionState['counts']> = {}): SessionState['counts'] {
  return { ...(Object.fromEntries(UPLOAD_STATUSES.map((s) => [s, 0])) as SessionState['counts']), ...over }
}

export function profile(over: Partial<Profile> = {}): Profile {
  return {
    id: 'p1',
    name: 'Bakery',
    environment: 'sandbox',
    kind: 'business',
    createdAt: '2026-01-01T00:00:00.000Z',
    validatedAt: '2026-01-01T00:00:00.000Z',
    business: { uuid: 'b1', name: 'Bakery Ltd', currency: 'NGN', country: 'NG' },
    demo: false,
    ...over,
  }
}

/** A business of a partner's list, as the API gives it. */
export function referredBusiness(over: Partial<ReferredBusinessRow> = {}): ReferredBusinessRow {
  return {
    uuid: 'b1',
    name: 'Bakery',
    email: 'owner@bakery.test',
    currency: 'NGN',
    country: 'NG',
    credit_from_referral_partner: false,
    is_subscribed_to_svc: false,
    billing_currency: 'NGN',
    subscription_status: 'inactive',
    available_seats: 0,
    subscription_plan: 'free',
    credit_balance: 0,
    subscription_expires_at: null,
    gateway: 'none',
    ...over,
  }
}

let nextId = 1
export function upload(over: Partial<Upload> = {}): Upload {
  const id = over.id ?? nextId++
  const now = 1_767_000_000_000
  return {
    id,
    profileId: 'p1',
    target: 'expenses',
    source: 'drop',
    folderId: null,
    path: `/tmp/receipt-${id}.pdf`,
    name: `receipt-${id}.pdf`,
    size: 1000,
    mtimeMs: now,
    sha256: null,
    prompt: '',
    processType: 'async',
    status: 'queued',
    reason: null,
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    errorCode: null,
    httpStatus: null,
    jobReference: null,
    acceptedAt: null,
    polls: 0,
    recordUuid: null,
    recordType: null,
    duplicateOf: null,
    forced: false,
    afterUpload: 'leave',
    archiveDir: null,
    movedTo: null,
    note: null,
    createdAt: now - id * 1000,
    updatedAt: now - id * 1000,
    completedAt: null,
    preparedPath: null,
    preparedSize: null,
    preparedMtimeMs: null,
    mailFrom: null,
    mailSubject: null,
    record: null,
    recordCount: 0,
    ...over,
  }
}

export interface FakeState {
  profiles: Profile[]
  activeId: string | null
  session: SessionState
  settings: Settings
  uploads: Upload[]
  /** When set, history answers with this many made-up rows (ids total..1, newest first). */
  syntheticTotal: number | null
  /** The active profile's mail accounts (listMail). */
  mail: MailAccountView[]
  /** Passwords main was given (saveMailAccount), by account id: what a keychain would hold. */
  mailPasswords: Record<string, string>
}

function initialState(): FakeState {
  return {
    profiles: [profile()],
    activeId: 'p1',
    session: { profileId: 'p1', state: 'active', message: null, storage: null, rateLimit: null, counts: counts() },
    settings: {
      concurrency: 4,
      pollIntervalMs: 1000,
      maxFileBytes: 25 * 1024 * 1024,
      jobTimeoutMs: 24 * 60 * 60_000,
      notifications: true,
      closeToTray: true,
      launchAtLogin: false,
      theme: 'system',
      preparePhotos: true,
      photoMaxEdge: 2400,
      photoQuality: 80,
      phoneListen: '',
      keepCopiesDays: 30,
    },
    uploads: [],
    syntheticTotal: null,
    mail: [],
    mailPasswords: {},
  }
}

/** A mail account as listMail gives it. */
export function mailAccount(over: Partial<MailAccountView> = {}): MailAccountView {
  return {
    id: 'm1',
    profileId: 'p1',
    label: 'Shop inbox',
    kind: 'imap',
    host: 'imap.example.com',
    port: 993,
    security: 'tls',
    user: 'receipts@bakery.test',
    usePolling: false,
    pollSeconds: 60,
    enabled: true,
    addedAt: 1_767_000_000_000,
    status: { state: 'connected', message: null, problem: null, lastCheckAt: 1_767_000_000_000, idle: true },
    rules: [],
    demo: false,
    ...over,
  }
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value })

function wrap<T>(v: T | Result<T>): Result<T> {
  return v && typeof v === 'object' && 'ok' in (v as object) && typeof (v as { ok: unknown }).ok === 'boolean'
    ? (v as Result<T>)
    : ok(v as T)
}

export function syntheticRow(index: number, total: number): Upload {
  const id = total - index
  return upload({
    id,
    name: `scan-${String(id).padStart(6, '0')}.pdf`,
    status: id % 10 === 0 ? 'failed' : 'completed',
  })
}

export function createFakeBridge() {
  const state: FakeState = initialState()
  const listeners = new Map<EventName, Set<(p: unknown) => void>>()

  const handlers: { [K in CallName]?: Handler<K> } = {
    getAppInfo: () => ({
      version: '0.1.0-test',
      host: 'web',
      platform: 'linux',
      demo: false,
      keychain: { backend: 'memory', label: 'memory', persistent: true, problem: null },
    }),
    listProfiles: () => ({ profiles: state.profiles, activeId: state.activeId }),
    setActiveProfile: ({ id }) => {
      state.activeId = id
      return { profiles: state.profiles, activeId: id }
    },
    getSession: () => state.session,
    getSettings: () => state.settings,
    setSettings: (patch) => (state.settings = { ...state.settings, ...patch }),
    pauseUploads: () => (state.session = { ...state.session, state: 'paused' }),
    resumeUploads: () => (state.session = { ...state.session, state: 'active' }),
    listFolders: () => [],
    getPhone: () => ({ open: false, address: null, link: null, pending: [], paired: [], refused: 0, interfaces: [], problem: null }),
    history: (req) => {
      const offset = req.offset ?? 0
      const limit = req.limit ?? 100
      if (state.syntheticTotal !== null) {
        const total = state.syntheticTotal
        const rows: Upload[] = []
        for (let i = offset; i < Math.min(total, offset + limit); i++) rows.push(syntheticRow(i, total))
        return { rows, total }
      }
      const rows = state.uploads
        .filter((u) => !req.statuses?.length || req.statuses.includes(u.status))
        .filter((u) => !req.sources?.length || req.sources.includes(u.source))
        .filter((u) => !req.profileId || u.profileId === req.profileId)
        .filter((u) => !req.search || u.name.toLowerCase().includes(req.search.toLowerCase()))
        .sort((a, b) => b.createdAt - a.createdAt)
      return { rows: rows.slice(offset, offset + limit), total: rows.length }
    },
    retryUpload: ({ id }) => {
      const u = state.uploads.find((x) => x.id === id)
      if (!u) return { ok: false, error: { code: 'not_found', message: `There is no upload #${id}.` } }
      Object.assign(u, { status: 'queued', lastError: null, forced: u.status === 'duplicate' })
      return { ...u }
    },
    cancelUpload: ({ id }) => {
      const u = state.uploads.find((x) => x.id === id)
      if (!u) return { ok: false, error: { code: 'not_found', message: `There is no upload #${id}.` } }
      Object.assign(u, { status: 'cancelled', lastError: 'Cancelled by you.' })
      return { ...u }
    },
    addFiles: (req) =>
      req.paths.map((path) => {
        const u = upload({ name: path.split('/').pop()!, path, target: req.target })
        state.uploads.push(u)
        return { kind: 'queued' as const, upload: u }
      }),
    addFileContents: (req) =>
      req.files.map((f) => {
        const u = upload({ name: f.name, target: req.target, size: Math.floor((f.base64.length * 3) / 4) })
        state.uploads.push(u)
        return { kind: 'queued' as const, upload: u }
      }),
    listMail: () => state.mail,
    saveMailAccount: ({ id, account, password }) => {
      if (!id && !password) return { ok: false, error: { code: 'invalid_request', message: 'Give the password.', fields: { password: 'required' } } }
      const cur = state.mail.find((a) => a.id === id)
      const next = mailAccount({
        ...cur,
        id: id ?? `m${state.mail.length + 1}`,
        profileId: account.profileId,
        host: account.host,
        port: account.port ?? (account.security === 'starttls' ? 143 : 993),
        security: account.security ?? 'tls',
        user: account.user,
        label: account.label ?? `${account.user}@${account.host}`,
        status: { state: 'connecting', message: null, problem: null, lastCheckAt: null, idle: false },
      })
      if (password) state.mailPasswords[next.id] = password
      state.mail = [...state.mail.filter((a) => a.id !== next.id), next]
      return next
    },
    saveMailRule: ({ id, rule }) => {
      const a = state.mail.find((x) => x.id === rule.accountId)
      if (!a) return { ok: false, error: { code: 'not_found', message: 'That mail account is no longer there.' } }
      const r = {
        id: id ?? `r${a.rules.length + 1}`,
        accountId: a.id,
        mailbox: rule.mailbox ?? 'INBOX',
        fromContains: rule.fromContains ?? null,
        subjectContains: rule.subjectContains ?? null,
        since: rule.since ?? '2026-01-01',
        target: rule.target,
        promptTemplate: rule.promptTemplate ?? 'Record an expense from {filename}.',
        acceptedKinds: rule.acceptedKinds ?? ['pdf', 'jpg', 'png'],
        after: rule.after ?? 'seen',
        moveTo: rule.moveTo ?? 'Bookdrop/Done',
        sendBody: rule.sendBody ?? false,
        processType: rule.processType ?? 'async',
        enabled: rule.enabled ?? true,
        addedAt: 1_767_000_000_000,
      } as const
      a.rules = [...a.rules.filter((x) => x.id !== r.id), r]
      return a
    },
    checkMail: ({ accountId }) => state.mail.find((a) => a.id === accountId)!,
    addDemoMail: () => ({ uid: 6 }),
    listPurchaseOrders: (req) => ({
      data: [],
      meta: { page: req.page ?? 1, limit: req.limit ?? 20, total: 0 },
    }),
    createPurchaseOrder: ({ order }) => {
      const parsed = purchaseOrderSchema.safeParse(order)
      if (!parsed.success) {
        const fields = issuesByField(parsed.error)
        return {
          ok: false,
          error: { code: 'validation_error', message: Object.values(fields).join('; '), fields, status: 400 },
        }
      }
      return {
        uuid: 'po-1',
        transaction_type: 'purchase_order',
        status: 'draft',
        document_number: 'PO-00001',
        narration: parsed.data.narration ?? '',
        amount: 0,
        currency: parsed.data.currency ?? 'NGN',
      }
    },
  }

  const spies = Object.fromEntries(
    CALL_NAMES.map((name) => [
      name,
      vi.fn(async (req: unknown) => {
        const h = handlers[name] as ((r: unknown) => unknown) | undefined
        if (!h)
          return { ok: false, error: { code: 'not_implemented', message: `The fake bridge has no ${name}.` } }
        // Results cross the bridge as copies (IPC and HTTP both serialize), never as shared objects.
        return structuredClone(wrap(await h(structuredClone(req))))
      }),
    ]),
  ) as unknown as { [K in CallName]: ReturnType<typeof vi.fn<(req: Req<K>) => Promise<Result<Res<K>>>>> }

  const api = {
    ...spies,
    version: '0.1.0-test',
    on<E extends EventName>(name: E, fn: (payload: Events[E]) => void): () => void {
      let set = listeners.get(name)
      if (!set) listeners.set(name, (set = new Set()))
      set.add(fn as (p: unknown) => void)
      return () => set.delete(fn as (p: unknown) => void)
    },
  } as unknown as BookdropApi

  return {
    api,
    calls: spies,
    state,
    handlers,
    emit<E extends EventName>(name: E, payload: Events[E]): void {
      for (const fn of listeners.get(name) ?? []) fn(payload)
    },
    listenerCount(name: EventName): number {
      return listeners.get(name)?.size ?? 0
    },
    reset(): void {
      Object.assign(state, initialState())
      listeners.clear()
      for (const s of Object.values(spies)) (s as ReturnType<typeof vi.fn>).mockClear()
    },
  }
}

export type FakeBridge = ReturnType<typeof createFakeBridge>

/** The one fake the mocked bridge module hands out (see each test's vi.mock). */
export const fake = createFakeBridge()
