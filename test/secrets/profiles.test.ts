/**
 * ProfileManager end to end: the real emulator over HTTP, the real OS keychain (gnome-keyring under
 * scripts/with-keyring.mjs), a temporary data folder. Every keychain effect is checked with keytar
 * directly, and every error, profiles.json and JSON.stringify(manager) are searched for the secrets.
 *
 * The keychain entries live under a service unique to this run, swept in afterAll.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'
import {
  EnvSecretStore,
  KeytarSecretStore,
  MemorySecretStore,
  NO_SECRET_SERVICE_PROBLEM,
  type NewProfileInput,
  type Profile,
  ProfileError,
  ProfileManager,
  bearerAccount,
} from '../../src-main/core/secrets'
import { RUN_ID, keychainTitle, rawKeytar, skipKeychain, sweepService } from './keychain-helpers'

const SERVICE = `Bookdrop-test-${RUN_ID}`

describe('ProfileManager without an OS keychain', () => {
  it('refuses to add a profile to the read-only BOOKDROP_API_KEY store, with the keychain problem and no file written', async () => {
    const sb = await startSandbox()
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-profiles-env-'))
    try {
      const key = sb.demo!.businessKey
      const store = new EnvSecretStore({ env: { BOOKDROP_API_KEY: key }, problem: NO_SECRET_SERVICE_PROBLEM })
      const pm = await ProfileManager.open({ dataDir: dir, store })
      const err = await pm
        .add({ name: 'Bakery', environment: 'custom', baseUrl: sb.url, kind: 'business', secret: key })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ProfileError)
      expect(err).toMatchObject({ code: 'keychain' })
      expect((err as Error).message).toContain(NO_SECRET_SERVICE_PROBLEM)
      expect((err as Error).message).not.toContain(key)
      expect(pm.list()).toEqual([])
      await expect(readFile(join(dir, 'profiles.json'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' })
      expect(pm.describeStore()).toMatchObject({ backend: 'env', problem: NO_SECRET_SERVICE_PROBLEM })
    } finally {
      await sb.stop()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('demo mode: the memory store holds the emulator keys for the life of the process', async () => {
    const sb = await startSandbox()
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-profiles-demo-'))
    try {
      const store = new MemorySecretStore()
      const pm = await ProfileManager.open({ dataDir: dir, store })
      const p = await pm.add({
        name: 'Demo',
        environment: 'custom',
        baseUrl: sb.url,
        kind: 'business',
        secret: sb.demo!.businessKey,
      })
      expect(await store.get(p.id)).toBe(sb.demo!.businessKey)
      expect(await (await pm.clientFor(p.id)).validateKey()).toMatchObject({ name: 'Demo Bakery Ltd' })
      expect(await readFile(join(dir, 'profiles.json'), 'utf8')).not.toContain(sb.demo!.businessKey)
    } finally {
      await sb.stop()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe.skipIf(skipKeychain)(keychainTitle('ProfileManager with the emulator and the OS keychain'), () => {
  let sb: Sandbox
  let demo: NonNullable<Sandbox['demo']>
  let dataDir: string
  let store: KeytarSecretStore
  let pm: ProfileManager
  /** Every secret any test used: none may appear in an error, the file or the manager's JSON. */
  const secrets = new Set<string>()
  /** Every error any test caught. */
  const errors: unknown[] = []

  const keytarGet = (account: string) => rawKeytar().getPassword(SERVICE, account)
  const keychainAccounts = async () =>
    (await rawKeytar().findCredentials(SERVICE)).map((c) => c.account).sort()
  const fileText = () => readFile(join(dataDir, 'profiles.json'), 'utf8').catch(() => '')

  function secret(s: string): string {
    secrets.add(s)
    return s
  }

  /** Expects `p` to reject with a ProfileError; records it for the leak check. */
  async function failure(p: Promise<unknown>): Promise<ProfileError> {
    const err = await p.then(
      () => new Error('expected a rejection'),
      (e: unknown) => e,
    )
    errors.push(err)
    expect(err).toBeInstanceOf(ProfileError)
    return err as ProfileError
  }

  function input(
    over: Partial<NewProfileInput> & Pick<NewProfileInput, 'name' | 'kind' | 'secret'>,
  ): NewProfileInput {
    return { environment: 'custom', baseUrl: sb.url, ...over }
  }

  /** The business rotates its key in the application: the emulator forgets the old one. */
  function rotateInEmulator(oldKey: string): string {
    const business = sb.state.businessByKey.get(oldKey)
    if (!business) throw new Error('unknown key')
    const next = secret(`svc_sk_rotated_${randomBytes(16).toString('hex')}`)
    sb.state.businessByKey.delete(oldKey)
    business.key = next
    sb.state.businessByKey.set(next, business)
    return next
  }

  /** A second business (not the demo one), with its own key. */
  function otherBusinessKey(opts: { developerApi?: boolean; prefix?: string } = {}): string {
    const key = secret(`${opts.prefix ?? 'svc_sk_'}other_${randomBytes(16).toString('hex')}`)
    sb.state.addBusiness({
      uuid: randomUUID(),
      name: 'Other Ltd',
      email: 'other@example.com',
      key,
      public_key: `svc_pk_other_${randomBytes(8).toString('hex')}`,
      currency: 'USD',
      country: 'US',
      timezone: 'UTC',
      developer_api: opts.developerApi ?? true,
      plus_subscription: true,
      credit_from_referral_partner: false,
      referred_by: null,
      credit_balance: 0,
      grant: null,
      created_at: Date.now(),
    })
    return key
  }

  beforeAll(async () => {
    sb = await startSandbox()
    if (!sb.demo) throw new Error('the emulator seeded no demo keys')
    demo = sb.demo
    secret(demo.businessKey)
    secret(demo.partnerKey)
    secret(demo.businessPublicKey)
    dataDir = await mkdtemp(join(tmpdir(), 'bookdrop-profiles-'))
    store = await KeytarSecretStore.load({ service: SERVICE, timeoutMs: 10_000 })
    pm = await ProfileManager.open({ dataDir, store, clientOptions: { timeoutMs: 10_000 } })
  })

  afterAll(async () => {
    await sb?.stop()
    await sweepService(SERVICE)
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  // ---- add ----------------------------------------------------------------------------------------

  let bakery: Profile
  let partner: Profile

  it('adds a business profile: validated by the server, key in the keychain, metadata on disk, active', async () => {
    bakery = await pm.add(input({ name: 'Demo Bakery', kind: 'business', secret: `  ${demo.businessKey}\n` }))
    expect(bakery).toMatchObject({
      name: 'Demo Bakery',
      kind: 'business',
      environment: 'custom',
      baseUrl: sb.url,
      business: { uuid: demo.businessUuid, name: 'Demo Bakery Ltd', currency: 'NGN', country: 'NG' },
    })
    // The keychain holds the trimmed key at account = profile id.
    expect(await keytarGet(bakery.id)).toBe(demo.businessKey)
    expect(pm.activeId).toBe(bakery.id)
    const onDisk = JSON.parse(await fileText()) as { activeProfileId: string; profiles: Profile[] }
    expect(onDisk.activeProfileId).toBe(bakery.id)
    expect(onDisk.profiles.map((p) => p.id)).toEqual([bakery.id])
    expect(await fileText()).not.toContain(demo.businessKey)
  })

  it('adds a partner profile (checked with GET /referred-businesses?limit=1)', async () => {
    partner = await pm.add(input({ name: 'Demo Partner', kind: 'partner', secret: demo.partnerKey }))
    expect(partner.kind).toBe('partner')
    expect(partner.business).toBeUndefined()
    expect(await keytarGet(partner.id)).toBe(demo.partnerKey)
    expect(pm.activeId).toBe(bakery.id) // adding does not steal the active profile
    expect(pm.list().map((p) => p.name)).toEqual(['Demo Bakery', 'Demo Partner'])
  })

  it('refuses a public key (svc_pk_) and says to use the secret key; nothing saved', async () => {
    const before = await keychainAccounts()
    const err = await failure(
      pm.add(input({ name: 'Public', kind: 'business', secret: demo.businessPublicKey })),
    )
    expect(err.code).toBe('public_key')
    expect(err.field).toBe('secret')
    expect(err.message).toMatch(
      /public key \(svc_pk_\.\.\.\).*use the business's secret key \(svc_sk_\.\.\.\)/,
    )
    expect(await keychainAccounts()).toEqual(before)
    expect(pm.list()).toHaveLength(2)
  })

  it('refuses a partner key in a business profile, naming the key to use', async () => {
    const before = await keychainAccounts()
    const err = await failure(
      pm.add(input({ name: 'Wrong kind', kind: 'business', secret: demo.partnerKey })),
    )
    expect(err.code).toBe('wrong_key_kind')
    expect(err.message).toMatch(
      /partner key.*business profile.*use the business's secret key \(svc_sk_\.\.\.\)/,
    )
    expect(err.message).toMatch(/partner profile kind/)
    expect(await keychainAccounts()).toEqual(before)
  })

  it('refuses a business key in a partner profile, naming the partner key', async () => {
    const err = await failure(
      pm.add(input({ name: 'Wrong kind 2', kind: 'partner', secret: demo.businessKey })),
    )
    expect(err.code).toBe('wrong_key_kind')
    expect(err.message).toMatch(/use your distributor partner secret key \(svc_partner_sk_\.\.\.\)/)
  })

  it('refuses keys of the wrong kind by the server answer too, when the prefix says nothing', async () => {
    // A partner key "of equivalent form" with another prefix: only the server can tell.
    const oddPartnerKey = secret(`acme_partner_${randomBytes(12).toString('hex')}`)
    sb.state.partners.set(oddPartnerKey, {
      id: `partner_${RUN_ID}`,
      name: 'Odd Partner',
      key: oddPartnerKey,
      holding_credits: 0,
      subscription_expires_at: null,
    })
    const before = await keychainAccounts()
    const err = await failure(pm.add(input({ name: 'Odd', kind: 'business', secret: oddPartnerKey })))
    expect(err.code).toBe('wrong_key_kind')
    expect(err.status).toBe(403)
    expect(err.message).toMatch(
      /server says this is a partner key.*use the business's secret key \(svc_sk_\.\.\.\)/,
    )

    // And a business key with an unknown prefix in a partner profile.
    const oddBusinessKey = otherBusinessKey({ prefix: 'legacy_' })
    const err2 = await failure(pm.add(input({ name: 'Odd 2', kind: 'partner', secret: oddBusinessKey })))
    expect(err2.code).toBe('wrong_key_kind')
    expect(err2.message).toMatch(/server says this is a business key.*svc_partner_sk_/)
    expect(await keychainAccounts()).toEqual(before)
  })

  it('does not save a key the server refuses (401)', async () => {
    const before = await keychainAccounts()
    const bad = secret(`svc_sk_${randomBytes(20).toString('hex')}`)
    const err = await failure(pm.add(input({ name: 'Invalid', kind: 'business', secret: bad })))
    expect(err.code).toBe('invalid_key')
    expect(err.status).toBe(401)
    expect(err.message).toMatch(/server refused the key.*Nothing was saved/)
    expect(await keychainAccounts()).toEqual(before)
    expect(pm.findByName('Invalid')).toBeUndefined()
    expect(JSON.parse(await fileText()).profiles).toHaveLength(2)
  })

  it('does not save a key whose business has no Developer API access (403)', async () => {
    const key = otherBusinessKey({ developerApi: false })
    const err = await failure(pm.add(input({ name: 'No API', kind: 'business', secret: key })))
    expect(err.code).toBe('access_denied')
    expect(err.message).toMatch(/Developer API/)
    expect(pm.findByName('No API')).toBeUndefined()
  })

  it('says so when the server cannot be reached; nothing saved', async () => {
    const before = await keychainAccounts()
    const err = await failure(
      pm.add({
        name: 'Offline',
        environment: 'custom',
        baseUrl: 'http://127.0.0.1:9/v1',
        kind: 'business',
        secret: demo.businessKey,
      }),
    )
    expect(err.code).toBe('unreachable')
    expect(err.message).toMatch(/Could not reach http:\/\/127\.0\.0\.1:9\/v1/)
    expect(await keychainAccounts()).toEqual(before)
  })

  it('keeps names unique without regard to case', async () => {
    const err = await failure(
      pm.add(input({ name: '  demo BAKERY ', kind: 'business', secret: demo.businessKey })),
    )
    expect(err.code).toBe('duplicate_name')
    expect(err.field).toBe('name')
    expect(err.message).toBe(
      'A profile named "Demo Bakery" already exists (names are compared without regard to case): choose another name.',
    )
    const err2 = await failure(pm.rename(partner.id, 'DEMO bakery'))
    expect(err2.code).toBe('duplicate_name')
  })

  it('checks the name, the environment and the base URL before any request', async () => {
    const e1 = await failure(pm.add(input({ name: '   ', kind: 'business', secret: demo.businessKey })))
    expect(e1).toMatchObject({ code: 'invalid_input', field: 'name' })
    const e2 = await failure(
      pm.add(input({ name: demo.businessKey, kind: 'business', secret: demo.businessKey })),
    )
    expect(e2).toMatchObject({ code: 'invalid_input', field: 'name' })
    expect(e2.message).toMatch(/looks like an API key/)
    const e3 = await failure(
      pm.add({
        name: 'Plain http',
        environment: 'custom',
        baseUrl: 'http://api.example.com/v1',
        kind: 'business',
        secret: demo.businessKey,
      }),
    )
    expect(e3).toMatchObject({ code: 'invalid_input', field: 'baseUrl' })
    expect(e3.message).toMatch(/plain http/)
    const e4 = await failure(
      pm.add({
        name: 'Prod',
        environment: 'production',
        baseUrl: sb.url,
        kind: 'business',
        secret: demo.businessKey,
      }),
    )
    expect(e4).toMatchObject({ code: 'invalid_input', field: 'baseUrl' })
    const e5 = await failure(
      pm.add(input({ name: 'Spaces', kind: 'business', secret: secret('svc_sk_has space inside') })),
    )
    expect(e5).toMatchObject({ code: 'invalid_input', field: 'secret' })
  })

  it('serialises concurrent adds: two profiles with the same name cannot both be created', async () => {
    const results = await Promise.allSettled([
      pm.add(input({ name: 'Race', kind: 'partner', secret: demo.partnerKey })),
      pm.add(input({ name: 'RACE', kind: 'partner', secret: demo.partnerKey })),
    ])
    const ok = results.filter((r) => r.status === 'fulfilled')
    const bad = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(ok).toHaveLength(1)
    expect(bad).toHaveLength(1)
    errors.push(bad[0]?.reason)
    expect(bad[0]?.reason).toMatchObject({ code: 'duplicate_name' })
    const created = pm.findByName('race')!
    await pm.remove(created.id)
    expect(await keytarGet(created.id)).toBeNull()
  })

  // ---- clients and the active profile ---------------------------------------------------------------

  it('builds a working client from the key in the keychain', async () => {
    const client = await pm.clientFor(bakery.id)
    expect(await client.validateKey()).toMatchObject({ business_uuid: demo.businessUuid })
    const partnerClient = await pm.clientFor(partner.id)
    expect((await partnerClient.listReferredBusinesses({ limit: 1 })).total).toBeGreaterThanOrEqual(1)
    expect(JSON.stringify(client)).not.toContain(demo.businessKey)
  })

  it('sets the active profile and keeps it on disk', async () => {
    await pm.setActive(partner.id)
    expect(pm.getActive()?.id).toBe(partner.id)
    expect(JSON.parse(await fileText()).activeProfileId).toBe(partner.id)
    const err = await failure(pm.setActive('no-such-id'))
    expect(err.code).toBe('not_found')
    await pm.setActive(bakery.id)
  })

  // ---- rotate -----------------------------------------------------------------------------------------

  it('rotates a key: validates the new one, then replaces the keychain entry', async () => {
    const newKey = rotateInEmulator(demo.businessKey)
    // The old key no longer works at the server.
    await expect((await pm.clientFor(bakery.id)).validateKey()).rejects.toMatchObject({ status: 401 })

    const before = bakery.validatedAt
    const rotated = await pm.rotate(bakery.id, newKey)
    expect(rotated.id).toBe(bakery.id)
    expect(rotated.business?.uuid).toBe(demo.businessUuid)
    expect(rotated.validatedAt >= before).toBe(true)
    expect(await keytarGet(bakery.id)).toBe(newKey)
    expect(await (await pm.clientFor(bakery.id)).validateKey()).toMatchObject({
      business_uuid: demo.businessUuid,
    })
    expect(await fileText()).not.toContain(newKey)
    demo.businessKey = newKey
  })

  it('does not rotate to an invalid key, a key of the wrong kind or another business key', async () => {
    const bad = secret(`svc_sk_${randomBytes(20).toString('hex')}`)
    const e1 = await failure(pm.rotate(bakery.id, bad))
    expect(e1.code).toBe('invalid_key')
    expect(await keytarGet(bakery.id)).toBe(demo.businessKey)

    const e2 = await failure(pm.rotate(bakery.id, demo.partnerKey))
    expect(e2.code).toBe('wrong_key_kind')
    expect(e2.message).toMatch(/svc_sk_/)

    const e3 = await failure(pm.rotate(bakery.id, demo.businessPublicKey))
    expect(e3.code).toBe('public_key')

    const other = otherBusinessKey()
    const e4 = await failure(pm.rotate(bakery.id, other))
    expect(e4.code).toBe('business_mismatch')
    expect(e4.message).toMatch(/acts for "Other Ltd".*not for "Demo Bakery Ltd"/)
    expect(await keytarGet(bakery.id)).toBe(demo.businessKey)

    const e5 = await failure(pm.rotate('no-such-id', demo.businessKey))
    expect(e5.code).toBe('not_found')
  })

  // ---- OAuth ------------------------------------------------------------------------------------------

  it('OAuth profile: app key + bearer token, both validated and both in the keychain', async () => {
    const token = secret(`oauth_tok_${randomBytes(16).toString('hex')}`)
    sb.state.oauthTokens.set(token, { app_key: demo.businessKey, business: demo.businessUuid })
    const before = await keychainAccounts()

    const badToken = secret(`oauth_tok_${randomBytes(16).toString('hex')}`)
    const e1 = await failure(
      pm.add(input({ name: 'OAuth', kind: 'oauth', secret: demo.businessKey, bearerToken: badToken })),
    )
    expect(e1).toMatchObject({ code: 'invalid_key', field: 'bearerToken' })
    expect(e1.message).toMatch(/bearer token/)
    const e2 = await failure(pm.add(input({ name: 'OAuth', kind: 'oauth', secret: demo.businessKey })))
    expect(e2).toMatchObject({ code: 'invalid_input', field: 'bearerToken' })
    expect(await keychainAccounts()).toEqual(before)

    const p = await pm.add(
      input({ name: 'OAuth', kind: 'oauth', secret: demo.businessKey, bearerToken: token }),
    )
    expect(p.business?.uuid).toBe(demo.businessUuid)
    expect(await keytarGet(p.id)).toBe(demo.businessKey)
    expect(await keytarGet(bearerAccount(p.id))).toBe(token)
    expect((await (await pm.clientFor(p.id)).validateKey()).business_uuid).toBe(demo.businessUuid)

    // A new token replaces the saved one.
    const token2 = secret(`oauth_tok_${randomBytes(16).toString('hex')}`)
    sb.state.oauthTokens.set(token2, { app_key: demo.businessKey, business: demo.businessUuid })
    await pm.rotateBearerToken(p.id, token2)
    expect(await keytarGet(bearerAccount(p.id))).toBe(token2)
    expect(await keytarGet(p.id)).toBe(demo.businessKey)

    // Removing deletes both entries.
    await pm.remove(p.id)
    expect(await keytarGet(p.id)).toBeNull()
    expect(await keytarGet(bearerAccount(p.id))).toBeNull()
    expect(await keychainAccounts()).toEqual(before)
  })

  // ---- reopen, remove ---------------------------------------------------------------------------------

  it('a manager reopened from disk sees the same profiles and reads the keys back from the keychain', async () => {
    const freshStore = await KeytarSecretStore.load({ service: SERVICE })
    const reopened = await ProfileManager.open({ dataDir, store: freshStore })
    expect(reopened.list()).toEqual(pm.list())
    expect(reopened.activeId).toBe(bakery.id)
    const client = await reopened.clientFor(bakery.id)
    expect(await client.validateKey()).toMatchObject({
      business_uuid: demo.businessUuid,
      name: 'Demo Bakery Ltd',
    })
    const partnerClient = await reopened.clientFor(partner.id)
    expect((await partnerClient.listReferredBusinesses({ limit: 1 })).per_page).toBe(1)
  })

  it('says plainly when a key has gone from the keychain', async () => {
    const tmp = await pm.add(input({ name: 'Gone soon', kind: 'partner', secret: demo.partnerKey }))
    await rawKeytar().deletePassword(SERVICE, tmp.id)
    const err = await failure(pm.clientFor(tmp.id))
    expect(err.code).toBe('secret_missing')
    expect(err.message).toMatch(/The key of profile "Gone soon" is not in the/)
    await pm.remove(tmp.id)
  })

  it('removes a profile: the keychain entry and the metadata go; the active profile is cleared', async () => {
    expect(await keytarGet(bakery.id)).toBe(demo.businessKey)
    await pm.remove(bakery.id)
    expect(await keytarGet(bakery.id)).toBeNull()
    expect(pm.get(bakery.id)).toBeUndefined()
    expect(pm.activeId).toBeNull()
    const onDisk = JSON.parse(await fileText()) as { activeProfileId: string | null; profiles: Profile[] }
    expect(onDisk.activeProfileId).toBeNull()
    expect(onDisk.profiles.map((p) => p.id)).toEqual([partner.id])
    const err = await failure(pm.remove(bakery.id))
    expect(err.code).toBe('not_found')
    // The name is free again.
    const again = await pm.add(input({ name: 'demo bakery', kind: 'business', secret: demo.businessKey }))
    expect(await keytarGet(again.id)).toBe(demo.businessKey)
  })

  it('refuses to open a damaged profiles.json instead of starting over', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-profiles-bad-'))
    try {
      await writeFile(join(dir, 'profiles.json'), '{"version":1,"profiles":[{"id":1}]')
      const err = await failure(ProfileManager.open({ dataDir: dir, store }))
      expect(err.code).toBe('storage')
      expect(err.message).toMatch(/is damaged \(not JSON\)/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  // ---- the leak check ---------------------------------------------------------------------------------

  it('no secret in any error message, in profiles.json or in JSON.stringify(manager)', async () => {
    expect(errors.length).toBeGreaterThan(15)
    expect(secrets.size).toBeGreaterThan(8)
    const file = await fileText()
    const managerJson = JSON.stringify(pm)
    const managerInspect = inspect(pm, { depth: 10 })
    for (const s of secrets) {
      for (const e of errors) {
        expect((e as Error).message).not.toContain(s)
        expect(JSON.stringify(e)).not.toContain(s)
      }
      expect(file).not.toContain(s)
      expect(managerJson).not.toContain(s)
      expect(managerInspect).not.toContain(s)
    }
    // And the file only holds what the schema allows.
    const onDisk = JSON.parse(file) as { profiles: Record<string, unknown>[] }
    for (const p of onDisk.profiles) {
      expect(Object.keys(p).sort()).toEqual(
        expect.arrayContaining(['createdAt', 'environment', 'id', 'kind', 'name', 'validatedAt']),
      )
      for (const k of Object.keys(p)) {
        expect([
          'id',
          'name',
          'environment',
          'baseUrl',
          'kind',
          'createdAt',
          'validatedAt',
          'business',
        ]).toContain(k)
      }
    }
  })
})
