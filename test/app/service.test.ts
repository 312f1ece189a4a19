/**
 * The app service against the emulator, over real HTTP, with real files and SQLite. Every call goes
 * through the bridge's dispatch, as the desktop app and the web host do.
 */
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AI_CREDITS_PER_CREATE } from '../../schemas'
import { storedName } from '../../src-main/core/app-service'
import type { Upload } from '../../src-main/core/store/uploads'
import {
  type AppRig,
  OTHER_BUSINESS_KEY,
  PARTNER_KEY,
  SECRET_SHAPE,
  addProfile,
  useAppRig,
  b64,
  profileInput,
  receiptText,
  waitFor,
} from './helpers'

const rigs = useAppRig()
const withBusiness = rigs.business

const addPartner = (r: AppRig) => addProfile(r, 'partner')

/** Every file under dir, recursively, with its content. */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = []
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue
    const path = join(e.parentPath, e.name)
    out.push({ path, text: (await readFile(path)).toString('latin1') })
  }
  return out
}

describe('profiles', () => {
  it('a bad key is refused in words, nothing is saved; then a good one is saved and becomes active', async () => {
    const r = await rigs.open()
    const bad = 'svc_sk_not_a_real_key_9999'
    const res = await r.call('addProfile', profileInput(r, 'business', { secret: bad }))
    expect(res.ok).toBe(false)
    if (res.ok) return
    expect(res.error.code).toBe('invalid_key')
    expect(res.error.status).toBe(401)
    expect(res.error.fields).toHaveProperty('secret')
    expect(res.error.message).toMatch(/refused the key/)
    expect(res.error.message).toContain('Nothing was saved')
    expect(JSON.stringify(res)).not.toContain(bad)
    expect((await r.ok('listProfiles', {})).profiles).toEqual([])
    const file = join(r.dataDir, 'profiles.json')
    if (existsSync(file)) expect(JSON.parse(await readFile(file, 'utf8')).profiles).toEqual([])

    // A partner key given as a business key: said plainly, with the field.
    const wrong = await r.call('addProfile', profileInput(r, 'business', { secret: PARTNER_KEY }))
    expect(wrong.ok || wrong.error.code).toBe('wrong_key_kind')
    expect(JSON.stringify(wrong)).not.toContain(PARTNER_KEY)

    const good = await r.ok('addProfile', profileInput(r))
    expect(good).toMatchObject({
      name: 'Bakery',
      kind: 'business',
      demo: false,
      business: { uuid: 'b1', name: 'Bakery' },
    })
    const list = await r.ok('listProfiles', {})
    expect(list.activeId).toBe(good.id)
    expect((await r.ok('getSession', {})).profileId).toBe(good.id)
    expect(r.eventsOf('profiles').at(-1)?.activeId).toBe(good.id)
    // Names are unique (case-insensitive), said on the field.
    const dup = await r.call('addProfile', profileInput(r, 'partner', { name: 'BAKERY' }))
    expect(dup.ok ? null : [dup.error.code, Object.keys(dup.error.fields ?? {})]).toEqual([
      'duplicate_name',
      ['name'],
    ])
    expect(r.transcript.join('\n')).not.toMatch(SECRET_SHAPE)
  })

  it('a rotation with a bad key keeps the old one and never echoes the new', async () => {
    const { r, id } = await withBusiness()
    const res = await r.call('rotateProfileKey', { id, secret: 'svc_sk_rotated_but_wrong_1234' })
    expect(res.ok ? null : res.error.code).toBe('invalid_key')
    expect(JSON.stringify(res)).not.toContain('svc_sk_rotated_but_wrong_1234')
    expect((await r.ok('listInvoices', { page: 1, limit: 5 })).data.length).toBe(1)
  })

  it('demo mode: no profile and demo → the emulator in process, two demo profiles, business active, keys never on disk', async () => {
    const r = await rigs.open({ fixtures: null, demo: true })
    const list = await r.ok('listProfiles', {})
    expect(list.profiles.map((p) => [p.name, p.kind, p.demo])).toEqual([
      ['Demo Bakery (demo)', 'business', true],
      ['Demo Partner (demo)', 'partner', true],
    ])
    const biz = list.profiles.find((p) => p.kind === 'business')!
    expect(list.activeId).toBe(biz.id)
    const info = await r.ok('getAppInfo', {})
    expect(info).toMatchObject({ demo: true, host: 'web' })
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/)
    // Demo data is there, through the active profile's client.
    const invoices = await r.ok('listInvoices', { page: 1, limit: 20 })
    expect(invoices.data.length).toBe(3)
    // startDemo again: same profiles, business active again.
    await r.ok('setActiveProfile', { id: list.profiles[1]!.id })
    const again = await r.ok('startDemo', {})
    expect(again.profiles.length).toBe(2)
    expect(again.activeId).toBe(biz.id)
    // No key in the data dir, and the keychain profiles list is still empty.
    for (const f of await filesUnder(r.dataDir))
      expect(f.text, relative(r.dataDir, f.path)).not.toMatch(SECRET_SHAPE)
    const file = join(r.dataDir, 'profiles.json')
    if (existsSync(file)) expect(JSON.parse(await readFile(file, 'utf8')).profiles).toEqual([])
    expect(r.transcript.join('\n')).not.toMatch(SECRET_SHAPE)
  })
})

describe('uploads', () => {
  it('addFileContents: files land under dropped/<date>/ with safe names and reach completed', async () => {
    const { r, id } = await withBusiness()
    const out = await r.ok('addFileContents', {
      target: 'expenses',
      files: [
        { name: '../../escape/receipt one.txt', base64: b64(receiptText('one')) },
        { name: 'receipt-two.txt', base64: b64(receiptText('two')) },
      ],
    })
    expect(out.map((o) => o.kind)).toEqual(['queued', 'queued'])
    const rows = out.map((o) => (o.kind === 'ignored' ? null : o.upload)) as Upload[]
    const dropped = join(r.dataDir, 'dropped')
    for (const row of rows) {
      expect(relative(dropped, row.path).startsWith('..')).toBe(false)
      expect(relative(dropped, row.path).split(/[\\/]/)).toHaveLength(2) // <date>/<name>
      expect(row.profileId).toBe(id)
    }
    expect(rows[0]!.name).not.toContain('/')
    expect(rows[0]!.name).not.toContain('..')
    await waitFor('both completed', async () => {
      const h = await r.ok('history', { statuses: ['completed'] })
      return h.total === 2
    })
    // Status changes only (a completed row is told again once its record is read: issue 32).
    const done = r.eventsOf('upload').filter((e) => e.upload.status === 'completed' && e.previous !== 'completed')
    expect(done.length).toBe(2)
    expect(done.every((e) => e.upload.recordUuid)).toBe(true)
    const session = await waitFor('session counts', async () => {
      const s = await r.ok('getSession', {})
      return s.counts.completed === 2 && s
    })
    expect(session.state).toBe('active')
    await waitFor('a session event with the counts', () =>
      r.eventsOf('session').some((s) => s.counts.completed === 2),
    )

    // The same bytes again: a duplicate, with the reason.
    const dup = await r.ok('addFileContents', {
      target: 'expenses',
      files: [{ name: 'again.txt', base64: b64(await readFile(rows[1]!.path, 'utf8')) }],
    })
    expect(dup[0]?.kind).toBe('duplicate')

    // Bad Base64 and no files are refused by the schema, with fields.
    const bad = await r.call('addFileContents', {
      target: 'expenses',
      files: [{ name: 'x.txt', base64: 'data:text/plain;base64,AAAA' }],
    })
    expect(bad.ok ? null : bad.error.code).toBe('invalid_request')
    expect(bad.ok ? null : Object.keys(bad.error.fields ?? {})).toEqual(['files.0.base64'])
  })

  it('storedName never yields a path, a dot-dot or a hidden file', () => {
    const cases: [name: string, safe: string][] = [
      ['../../etc/passwd', '_._etc_passwd'],
      ['..', 'file'],
      ['.bashrc', 'bashrc'],
      ['a\\b/c.pdf', 'a_b_c.pdf'],
      ['CON.txt', '_CON.txt'],
      ['x\u0000y\n.pdf', 'x_y_.pdf'],
    ]
    for (const [name, safe] of cases) expect(storedName(name), JSON.stringify(name)).toBe(safe)
    expect(storedName(`${'a'.repeat(300)}.pdf`)).toMatch(/^a{251}\.pdf$/)
    for (const n of ['../x', 'a/../../b', '....//....//x', '/abs/path.pdf', 'C:\\Windows\\x.ini']) {
      const s = storedName(n)
      expect(s).not.toMatch(/[\\/]/)
      expect(s).not.toContain('..')
      expect(s.startsWith('.')).toBe(false)
    }
  })

  it('settings persist, validate, and set the queue concurrency live', async () => {
    const { r } = await withBusiness()
    expect(await r.ok('getSettings', {})).toMatchObject({
      concurrency: 3,
      theme: 'system',
      closeToTray: true,
    })
    const next = await r.ok('setSettings', { concurrency: 6, theme: 'dark' })
    expect(next).toMatchObject({ concurrency: 6, theme: 'dark' })
    expect(r.service.engine.queueSettings().concurrency).toBe(6)
    expect(r.eventsOf('settings').at(-1)?.concurrency).toBe(6)
    const bad = await r.call('setSettings', { concurrency: 99 })
    expect(bad.ok ? null : [bad.error.code, Object.keys(bad.error.fields ?? {})]).toEqual([
      'invalid_request',
      ['concurrency'],
    ])
    expect((await r.ok('getSettings', {})).concurrency).toBe(6)
  })

  it('the job check interval setting decides when a new job is first polled', async () => {
    const { r } = await withBusiness()
    expect((await r.ok('setSettings', { pollIntervalMs: 3000 })).pollIntervalMs).toBe(3000)
    await r.ok('addFileContents', {
      target: 'expenses',
      files: [{ name: 'poll.txt', base64: b64(receiptText('poll')) }],
    })
    const row = await waitFor('processing', () =>
      r.service.engine.history().rows.find((u) => u.status === 'processing'),
    )
    // ±10% jitter around the chosen first delay.
    expect(row.nextAttemptAt! - row.updatedAt).toBeGreaterThanOrEqual(2700)
    expect(row.nextAttemptAt! - row.updatedAt).toBeLessThanOrEqual(3300)
    expect((await r.ok('getSettings', {})).pollIntervalMs).toBe(3000)
    const bad = await r.call('setSettings', { pollIntervalMs: 10 })
    expect(bad.ok).toBe(false)
  })

  it('pause and resume act on the active profile and say so in the session', async () => {
    const { r, id } = await withBusiness()
    expect(await r.ok('pauseUploads', {})).toMatchObject({ profileId: id, state: 'paused' })
    await waitFor('session event', () => r.eventsOf('session').some((s) => s.state === 'paused'))
    expect((await r.ok('resumeUploads', {})).state).toBe('active')
  })
})

describe('watched folders', () => {
  it('add, list with live status, pick up a file, update, remove; bad folders refused with fields', async () => {
    const { r, id } = await withBusiness()
    const inbox = join(r.dir, 'Receipts')
    await mkdir(inbox)
    const f = await r.ok('addFolder', { profileId: id, path: inbox, target: 'expenses' })
    expect(f).toMatchObject({ path: inbox, target: 'expenses', enabled: true, profileId: id })
    expect(['starting', 'watching', 'polling']).toContain(f.state)
    await waitFor('watching', async () => (await r.ok('listFolders', {}))[0]?.state === 'watching')
    expect(r.eventsOf('folder').some((e) => e.folderId === f.id && e.state === 'watching')).toBe(true)

    await writeFile(join(inbox, 'taxi.txt'), receiptText('taxi'))
    await waitFor('the folder file completed', async () => {
      const h = await r.ok('history', { folderId: f.id, statuses: ['completed'] })
      return h.total === 1
    })

    const off = await r.ok('updateFolder', { id: f.id, patch: { enabled: false } })
    expect(off).toMatchObject({ enabled: false, state: 'disabled' })

    // Refusals: same folder twice, a missing folder, a relative path, a partner profile.
    await r.ok('updateFolder', { id: f.id, patch: { enabled: true } })
    const twice = await r.call('addFolder', { profileId: id, path: inbox, target: 'expenses' })
    expect(twice.ok ? null : twice.error.code).toBe('folder_exists')
    const missing = await r.call('addFolder', {
      profileId: id,
      path: join(r.dir, 'nope'),
      target: 'expenses',
    })
    expect(missing.ok ? null : [missing.error.code, Object.keys(missing.error.fields ?? {})]).toEqual([
      'folder_not_found',
      ['path'],
    ])
    const rel = await r.call('addFolder', { profileId: id, path: 'Receipts', target: 'expenses' })
    expect(rel.ok ? null : [rel.error.code, Object.keys(rel.error.fields ?? {})]).toEqual([
      'invalid_request',
      ['path'],
    ])
    const partnerId = await addPartner(r)
    const wrongKind = await r.call('addFolder', { profileId: partnerId, path: inbox, target: 'bills' })
    expect(wrongKind.ok ? null : wrongKind.error.code).toBe('wrong_profile_kind')

    expect(await r.ok('removeFolder', { id: f.id })).toEqual([])
    expect(await r.ok('listFolders', {})).toEqual([])
    const gone = await r.call('removeFolder', { id: f.id })
    expect(gone.ok ? null : gone.error.code).toBe('not_found')
  })
})

describe('records of the active business', () => {
  it('a purchase order without items is refused with fields, then created with a number', async () => {
    const { r } = await withBusiness()
    const bad = await r.call('createPurchaseOrder', {
      order: { date: '2026-01-05', customer: 'Flour Mills', items: [] },
    })
    expect(bad.ok).toBe(false)
    if (bad.ok) return
    expect(bad.error.code).toBe('validation_error')
    expect(bad.error.fields).toHaveProperty('items')
    expect(bad.error.message).toMatch(/items must have at least 1 line item/)

    const po = await r.ok('createPurchaseOrder', {
      order: {
        date: '2026-01-05',
        vendor: 'Flour Mills',
        items: [
          { name: 'Flour 50kg', quantity: 2, price: 30000, tax: 7.5, discount: 10, discount_type: 'percent' },
        ],
      },
    })
    expect(po.transaction_type).toBe('purchase_order')
    expect(po.document_number).toBeTruthy()
    expect(po.amount).toBe(58050)
    const list = await r.ok('listPurchaseOrders', { page: 1, limit: 10 })
    expect(list.data.map((x) => x.uuid)).toContain(po.uuid)
  })

  it('an invoice by uuid and by source_uuid; a missing one is a 404 in words', async () => {
    const { r } = await withBusiness()
    const a = await r.ok('getInvoice', { id: 'inv-1' })
    const b = await r.ok('getInvoice', { id: 'INV-1001' })
    expect(a).toEqual(b)
    expect(a).toMatchObject({
      uuid: 'inv-1',
      source_uuid: 'INV-1001',
      total_amount: 1000,
      amount_paid: 400,
      balance: 600,
    })
    const missing = await r.call('getInvoice', { id: 'nope' })
    expect(missing.ok ? null : [missing.error.code, missing.error.status]).toEqual(['not_found', 404])
  })

  it('partner calls are refused on a business profile, business calls on a partner profile', async () => {
    const { r } = await withBusiness()
    const res = await r.call('listReferredBusinesses', { page: 1, limit: 20 })
    expect(res.ok).toBe(false)
    if (res.ok) return
    expect(res.error.code).toBe('wrong_profile_kind')
    expect(res.error.message).toMatch(/is a business profile/)
    const partnerId = await addPartner(r)
    await r.ok('setActiveProfile', { id: partnerId })
    for (const name of ['listInvoices', 'listPurchaseOrders', 'listBankTransactions'] as const) {
      const x = await r.call(name, { page: 1, limit: 5 })
      expect(x.ok ? null : x.error.code).toBe('wrong_profile_kind')
    }
    const up = await r.call('addFileContents', {
      target: 'expenses',
      files: [{ name: 'a.txt', base64: b64('x') }],
    })
    expect(up.ok ? null : up.error.code).toBe('wrong_profile_kind')
    expect(existsSync(join(r.dataDir, 'dropped'))).toBe(false)
    const bank = await r.call('uploadBankStatement', {
      files: [{ name: 'statement.csv', base64: b64('a,b') }],
      prompt: ' ',
    })
    expect(bank.ok ? null : [bank.error.code, Object.keys(bank.error.fields ?? {})]).toEqual([
      'invalid_request',
      ['prompt'],
    ])
  })
})

describe('partner console', () => {
  const registration = {
    email: 'owner@sweet-crumbs.example',
    firstname: 'Ada',
    lastname: 'Obi',
    business_name: 'Sweet Crumbs',
    password: 'Str0ng!pass',
    country: 'NG',
    currency: 'NGN',
    timezone: 'Africa/Lagos',
    grant_access: 'admin' as const,
  }

  it('registerBusiness returns only a hint; saveRegisteredBusiness makes a working profile; the key never leaves main', async () => {
    const { r } = await withBusiness()
    const partnerId = await addPartner(r)
    await r.ok('setActiveProfile', { id: partnerId })

    const weak = await r.call('registerBusiness', { input: { ...registration, password: 'weak' } })
    expect(weak.ok ? null : weak.error.code).toBe('invalid_request')
    expect(weak.ok ? null : weak.error.fields?.['input.password']).toMatch(/password needs/)
    expect(JSON.stringify(weak)).not.toContain('weak"')

    const reg = await r.ok('registerBusiness', { input: registration })
    expect(reg.registrationId).toBeTruthy()
    expect(reg.secretKeyHint).toHaveLength(4)
    expect(reg).not.toHaveProperty('api_secret_key')
    expect(reg.api_public_key).toMatch(/^svc_pk_/)
    const secret =
      r.sb!.state.businesses.get(reg.business_uuid)?.key ??
      [...r.sb!.state.businesses.values()].find((b) => b.uuid === reg.business_uuid)!.key
    expect(secret.endsWith(reg.secretKeyHint!)).toBe(true)

    const wrongUuid = await r.call('saveRegisteredBusiness', {
      name: 'Sweet Crumbs',
      businessUuid: 'b1',
      registrationId: reg.registrationId!,
    })
    expect(wrongUuid.ok ? null : wrongUuid.error.code).toBe('invalid_request')

    const saved = await r.ok('saveRegisteredBusiness', {
      name: 'Sweet Crumbs',
      businessUuid: reg.business_uuid,
      registrationId: reg.registrationId!,
    })
    expect(saved.profile).toMatchObject({
      name: 'Sweet Crumbs',
      kind: 'business',
      demo: false,
      business: { uuid: reg.business_uuid },
    })
    expect(saved.profiles.map((p) => p.name)).toContain('Sweet Crumbs')
    const again = await r.call('saveRegisteredBusiness', {
      name: 'Sweet Crumbs 2',
      businessUuid: reg.business_uuid,
      registrationId: reg.registrationId!,
    })
    expect(again.ok ? null : again.error.code).toBe('registration_expired')

    // A new business starts with no AI credits: the partner grants some, then the new profile works.
    await r.ok('addCredits', { businessUuid: reg.business_uuid, grant: { credits: 5 } })
    await r.ok('setActiveProfile', { id: saved.profile.id })
    expect((await r.ok('listInvoices', { page: 1, limit: 5 })).data).toEqual([])
    await r.ok('addFileContents', {
      target: 'expenses',
      files: [{ name: 'first.txt', base64: b64(receiptText('first')) }],
    })
    await waitFor(
      'completed for the new business',
      async () =>
        (await r.ok('history', { profileId: saved.profile.id, statuses: ['completed'] })).total === 1,
    )

    // Not in any Result or event; not on disk either.
    const all = r.transcript.join('\n')
    expect(all).not.toContain(secret)
    expect(all).not.toMatch(SECRET_SHAPE)
    for (const f of await filesUnder(r.dataDir)) expect(f.text).not.toContain(secret)
  })

  it('discardRegistration forgets the key', async () => {
    const { r } = await withBusiness()
    await r.ok('setActiveProfile', { id: await addPartner(r) })
    const reg = await r.ok('registerBusiness', {
      input: { ...registration, email: 'x@y.example', grant_access: 'admin' },
    })
    expect(await r.ok('discardRegistration', { registrationId: reg.registrationId! })).toEqual({
      discarded: true,
    })
    const res = await r.call('saveRegisteredBusiness', {
      name: 'X',
      businessUuid: reg.business_uuid,
      registrationId: reg.registrationId!,
    })
    expect(res.ok ? null : res.error.code).toBe('registration_expired')
    // Viewer access: no keys, nothing held.
    const viewer = await r.ok('registerBusiness', {
      input: { ...registration, email: 'v@y.example', grant_access: 'viewer' },
    })
    expect(viewer).toMatchObject({ registrationId: null, secretKeyHint: null })
  })

  it('client health: folders, last success, stuck jobs, failures, and the credit balance the partner sees', async () => {
    const { r, id } = await withBusiness()
    const otherId = await addProfile(r, 'business', { name: 'Not Referred', secret: OTHER_BUSINESS_KEY })
    const inbox = join(r.dir, 'In')
    await mkdir(inbox)
    await r.ok('addFolder', { profileId: id, path: inbox, target: 'expenses' })
    await r.ok('addFileContents', {
      target: 'expenses',
      files: [{ name: 'r.txt', base64: b64(receiptText('r')) }],
    })
    await waitFor('completed', async () => (await r.ok('history', { statuses: ['completed'] })).total === 1)
    // A job that has been processing for two hours, and a failed file: rows walked through the
    // lifecycle by hand while the profile is paused (so the scheduler leaves them alone).
    await r.ok('pauseUploads', {})
    const store = r.service.engine.uploads
    const twoHoursAgo = Date.now() - 2 * 60 * 60 * 1000
    const row = (name: string, at?: number) =>
      store.insert({ profileId: id, target: 'expenses', source: 'drop', path: `/x/${name}`, name, prompt: 'p', status: 'queued' }, at)
    const old = row('old.pdf', twoHoursAgo)
    store.transition(old.id, 'queued', 'uploading', {}, twoHoursAgo)
    store.transition(old.id, 'uploading', 'processing', { jobReference: 'job_x', acceptedAt: twoHoursAgo }, twoHoursAgo)
    const bad = row('bad.pdf')
    store.transition(bad.id, 'queued', 'uploading')
    store.transition(bad.id, 'uploading', 'failed', { lastError: 'no' })

    // As a business: rows, no credit balance.
    const asBusiness = await r.ok('getClientHealth', {})
    expect(asBusiness.map((h) => h.profileName)).toEqual(['Bakery', 'Not Referred'])
    expect(asBusiness[0]).toMatchObject({ businessUuid: 'b1', stuckJobs: 1, failed: 1, creditBalance: null })
    expect(asBusiness[0]!.lastSuccessAt).toBeGreaterThan(Date.now() - 60_000)
    expect(asBusiness[0]!.folders).toEqual([{ path: inbox, state: expect.any(String), message: null }])

    // As the partner that referred b1: its balance; b2 is not referred by it.
    await r.ok('setActiveProfile', { id: await addPartner(r) })
    const asPartner = await r.ok('getClientHealth', {})
    // The fixture's 1,234 credits, less the one AI create the receipt above cost.
    expect(asPartner.find((h) => h.profileId === id)?.creditBalance).toBe(1234 - AI_CREDITS_PER_CREATE)
    expect(asPartner.find((h) => h.profileId === otherId)).toMatchObject({
      creditBalance: null,
      stuckJobs: 0,
      failed: 0,
      lastSuccessAt: null,
      error: null,
    })
    expect(asPartner.some((h) => h.profileName === 'Ledger Partners')).toBe(false)
  })
})

describe('the bridge', () => {
  it('unknown names and bad payloads are refused without running anything; errors are never thrown', async () => {
    const { r } = await withBusiness()
    const { dispatch } = await import('../../src-main/core/bridge')
    for (const name of ['nope', '__proto__', 'constructor', 'toString', 'close', 'redact']) {
      const res = await dispatch(r.service, name, {})
      expect(res.ok ? null : res.error.code).toBe('unknown_call')
    }
    const bad = await dispatch(r.service, 'retryUpload', { id: 'seven' })
    expect(bad.ok ? null : bad.error).toMatchObject({
      code: 'invalid_request',
      fields: { id: expect.any(String) },
    })
    const extra = await dispatch(r.service, 'getAppInfo', { sneaky: true })
    expect(extra.ok ? null : extra.error.code).toBe('invalid_request')
    const none = await dispatch(r.service, 'getAppInfo', undefined)
    expect(none.ok).toBe(true)
    const retry = await dispatch(r.service, 'retryUpload', { id: 999 })
    expect(retry.ok ? null : retry.error).toMatchObject({
      code: 'not_retryable',
      message: 'There is no upload #999.',
    })
  })
})
