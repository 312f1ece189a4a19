/**
 * The overview (issue 12): figures answered by main's SQLite through the contract's getOverview,
 * for a business (its month of uploads, day by day) and a partner (the grants this app made, the
 * holding, businesses without seats); and the demo's sample receipts. Real emulator over HTTP, real
 * SQLite, every call through the bridge's dispatch.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { AI_CREDITS_PER_CREATE } from '../../schemas'
import { SAMPLE_RECEIPTS } from '../../sandbox/sample-receipts'
import { AppService } from '../../src-main/core/app-service'
import { dispatch } from '../../src-main/core/bridge'
import { MemorySecretStore } from '../../src-main/core/secrets'
import { monthOf } from '../../src-main/core/store/overview'
import type { NewUpload } from '../../src-main/core/store/uploads'
import {
  type AppRig,
  FAST_ENGINE,
  addProfile,
  appRig,
  b64,
  receiptText,
  testShell,
  waitFor,
} from './helpers'

let rig: AppRig | null = null
const extra: AppService[] = []
afterEach(async () => {
  for (const s of extra.splice(0)) await s.close()
  await rig?.close()
  rig = null
})

const DAY = 86_400_000

describe('business overview', () => {
  it('counts one local month of the history by day: files sent, records, failures, credits; needs attention now', async () => {
    const r = (rig = await appRig())
    const id = await addProfile(r, 'business')
    const other = 'another-profile'
    const m = monthOf(undefined)
    const day1 = m.days[0]! + 9 * 3_600_000
    const day2 = m.days[1]! + 15 * 3_600_000
    const lastMonth = m.from - 3 * DAY
    const uploads = r.service.engine.uploads
    /**
     * A row as the engine would have left it, walked through the lifecycle's own transitions (the
     * store refuses any other move): a job reference means it went through processing.
     */
    type Seed = Partial<Pick<NewUpload, 'profileId' | 'reason' | 'duplicateOf'>> & {
      status: 'completed' | 'failed' | 'skipped' | 'duplicate'
      jobReference?: string
      recordUuid?: string
      lastError?: string
      httpStatus?: number
    }
    const seed = (over: Seed, at: number): void => {
      const base: NewUpload = {
        profileId: over.profileId ?? id,
        target: 'expenses',
        source: 'drop',
        path: `/tmp/${Math.random()}.pdf`,
        name: 'r.pdf',
        prompt: '',
        status: 'queued',
      }
      if (over.status === 'skipped' || over.status === 'duplicate') {
        uploads.insert({ ...base, status: over.status, reason: over.reason, duplicateOf: over.duplicateOf }, at)
        return
      }
      let u = uploads.insert(base, at)
      u = uploads.transition(u, 'queued', 'uploading', { attempts: 1 }, at)!
      let from: 'uploading' | 'processing' = 'uploading'
      if (over.jobReference) {
        u = uploads.transition(u, 'uploading', 'processing', { jobReference: over.jobReference, acceptedAt: at }, at)!
        from = 'processing'
      }
      if (over.status === 'completed') {
        uploads.transition(u, from, 'completed', { recordUuid: over.recordUuid ?? null, completedAt: at }, at)
      } else {
        uploads.transition(u, from, 'failed', { lastError: over.lastError ?? null, httpStatus: over.httpStatus ?? null }, at)
      }
    }
    // Day 1: two records made, one job that failed on the server (sent), one refused before (400: not sent).
    seed({ status: 'completed', jobReference: 'job_1', recordUuid: 'rec_1' }, day1)
    seed({ status: 'completed', jobReference: 'job_2', recordUuid: 'rec_2' }, day1)
    seed({ status: 'failed', jobReference: 'job_3', lastError: 'unreadable' }, day1)
    seed({ status: 'failed', lastError: 'items.0: bad', httpStatus: 400 }, day1)
    // Day 2: one direct create (a record, no job), a skipped file and a duplicate (never sent).
    seed({ status: 'completed', recordUuid: 'rec_3' }, day2)
    seed({ status: 'skipped', reason: 'empty' }, day2)
    seed({ status: 'duplicate', duplicateOf: 1 }, day2)
    // Last month, and another profile: not this month's figures (last month's failure still needs attention).
    seed({ status: 'completed', jobReference: 'job_9', recordUuid: 'rec_9' }, lastMonth)
    seed({ status: 'failed', lastError: 'old' }, lastMonth)
    seed({ status: 'completed', profileId: other, jobReference: 'job_x', recordUuid: 'rec_x' }, day1)

    const o = await r.ok('getOverview', {})
    if (o.kind !== 'business') throw new Error('expected a business overview')
    expect(o).toMatchObject({
      month: m.month,
      filesAdded: 7,
      filesSent: 4,
      recordsCreated: 3,
      failed: 2,
      creditsUsed: 4 * AI_CREDITS_PER_CREATE,
      creditsPerCreate: AI_CREDITS_PER_CREATE,
      needsAttention: 5, // 3 failed (one last month), 1 skipped, 1 duplicate
    })
    expect(o.days).toHaveLength(m.days.length)
    expect(o.days[0]).toEqual({ day: `${m.month}-01`, sent: 3, completed: 2, failed: 2 })
    expect(o.days[1]).toEqual({ day: `${m.month}-02`, sent: 1, completed: 1, failed: 0 })
    expect(o.days.slice(2).every((d) => d.sent === 0)).toBe(true)

    // Last month, asked by name.
    const prev = monthOf(undefined, new Date(lastMonth))
    const before = await r.ok('getOverview', { month: prev.month })
    expect(before).toMatchObject({
      month: prev.month,
      filesAdded: 2,
      filesSent: 1,
      recordsCreated: 1,
      failed: 1,
    })

    // A malformed month is refused in words, naming the field.
    const bad = await r.call('getOverview', { month: '2026-13' })
    expect(bad.ok ? null : [bad.error.code, bad.error.fields]).toEqual([
      'invalid_request',
      { month: 'month must be written YYYY-MM, e.g. 2026-03' },
    ])
  })

  it('files really sent to the emulator show up as sent today, with the credits they cost', async () => {
    const r = (rig = await appRig())
    await addProfile(r, 'business')
    await r.ok('addFileContents', {
      target: 'expenses',
      files: [
        { name: 'a.txt', base64: b64(receiptText('a')) },
        { name: 'b.txt', base64: b64(receiptText('b')) },
      ],
    })
    const o = await waitFor('both records', async () => {
      const v = await r.ok('getOverview', {})
      return v.kind === 'business' && v.recordsCreated === 2 && v
    })
    expect(o).toMatchObject({ filesAdded: 2, filesSent: 2, creditsUsed: 2 * AI_CREDITS_PER_CREATE })
    const now = new Date()
    const today = o.days[now.getDate() - 1]!
    expect(today).toMatchObject({ sent: 2, completed: 2, failed: 0 })
  })
})

describe('partner overview', () => {
  it('remembers the grants made from the app (seats, credits, holding) across a restart, and lists businesses without seats', async () => {
    const r = (rig = await appRig())
    const partner = await addProfile(r, 'partner')
    await r.ok('setActiveProfile', { id: partner })

    const first = await r.ok('getOverview', {})
    if (first.kind !== 'partner') throw new Error('expected a partner overview')
    expect(first).toMatchObject({
      seatsGranted: 0,
      creditsGranted: 0,
      holding: null,
      businesses: 1,
      error: null,
    })
    expect(first.withoutSeats?.map((b) => b.name)).toEqual(['Bakery'])

    await r.ok('addSeats', { businessUuid: 'b1', grant: { seats: 2, months: 1 } })
    await r.ok('addCredits', { businessUuid: 'b1', grant: { credits: 500 } })
    // A refused grant (too large for the holding) is not a grant.
    const refused = await r.call('addCredits', { businessUuid: 'b1', grant: { credits: 9_000_000 } })
    expect(refused.ok).toBe(false)

    const o = await r.ok('getOverview', {})
    if (o.kind !== 'partner') throw new Error('expected a partner overview')
    const holding = 10_000 - 300 - 500
    expect(o).toMatchObject({
      seatsGranted: 2,
      seatGrants: 1,
      creditsGranted: 500,
      creditGrants: 1,
      holdingCharged: 800,
      holding: { balance: holding },
      businesses: 1,
      withoutSeats: [],
      error: null,
    })
    expect(o.grants.map((g) => [g.kind, g.businessName, g.holdingCharged])).toEqual([
      ['credits', 'Bakery', 500],
      ['seats', 'Bakery', 300],
    ])
    // Next month has none of them; the holding is still what the last grant left.
    const next = monthOf(undefined, new Date(monthOf(undefined).to + DAY))
    const later = await r.ok('getOverview', { month: next.month })
    expect(later).toMatchObject({ seatsGranted: 0, creditsGranted: 0, holding: { balance: holding } })

    // Restarted on the same data, with no key at hand: the grants are still known; the list says why not.
    await r.service.close()
    const again = await AppService.open({
      dataDir: r.dataDir,
      host: 'web',
      shell: testShell,
      secretStore: new MemorySecretStore(),
      engine: FAST_ENGINE,
    })
    extra.push(again)
    const res = await dispatch(again, 'getOverview', {})
    if (!res.ok || res.value.kind !== 'partner')
      throw new Error(`expected a partner overview: ${JSON.stringify(res)}`)
    expect(res.value).toMatchObject({ seatsGranted: 2, creditsGranted: 500, holding: { balance: holding } })
    expect(res.value.withoutSeats).toBeNull()
    expect(res.value.error).toMatch(/^Your referred businesses could not be listed: /)
  })
})

describe('sample receipts', () => {
  it('demo only: the samples are dropped as expenses and become records with their vendors and totals', async () => {
    const r = (rig = await appRig({ fixtures: null, demo: true }))
    const out = await r.ok('addSampleReceipts', {})
    expect(out.map((o) => o.kind)).toEqual(SAMPLE_RECEIPTS.map(() => 'queued'))
    await waitFor(
      'every sample completed',
      async () => (await r.ok('history', { statuses: ['completed'] })).total === SAMPLE_RECEIPTS.length,
      60_000,
    )
    const expenses = await r.ok('listExpenses', { page: 1, limit: 100 })
    const got = expenses.data.map((e) => [e.contact, e.amount, e.currency]).sort()
    expect(got).toEqual(SAMPLE_RECEIPTS.map((s) => [s.vendor, s.total, s.currency]).sort())
    // Again: the same files, recognised as duplicates (nothing is sent twice).
    const again = await r.ok('addSampleReceipts', {})
    expect(again.map((o) => o.kind)).toEqual(SAMPLE_RECEIPTS.map(() => 'duplicate'))
  }, 90_000)

  it('refused for a real profile: they would become expenses in real books', async () => {
    const r = (rig = await appRig())
    await addProfile(r, 'business')
    const res = await r.call('addSampleReceipts', {})
    expect(res.ok ? null : res.error.code).toBe('not_demo')
    expect((await r.ok('history', {})).total).toBe(0)
  })
})
