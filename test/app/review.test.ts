/**
 * Issue 32 through the bridge: Review's list and counts, Save reaching the emulator's record and the
 * history row following it, the Expenses screen's edit followed too, a record deleted on the server,
 * Save while offline, the month's money and the profile's currency. Real emulator over HTTP, real
 * data folder and SQLite; every call goes through `dispatch`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { pdfBytes } from '../engine/documents'
import { FIVE, today } from '../engine/review-receipts'
import { type AppRig, BUSINESS_KEY, addProfile, appRig, waitFor } from './helpers'

let r: AppRig | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
})

async function fiveReviewed(): Promise<AppRig> {
  const rig = await appRig()
  await addProfile(rig)
  const files = Object.entries(FIVE).map(([name, text]) => ({ name, base64: pdfBytes(text).toString('base64') }))
  await rig.ok('addFileContents', { files, target: 'expenses' })
  await waitFor('five records read', async () => {
    const l = await rig.ok('review.list', { filter: 'all' })
    return l.items.length === 5 && l.items.every((i) => i.record.vendor) ? l : null
  })
  return rig
}

/** The record as the emulator keeps it, read over HTTP with the business key. */
async function onServer(rig: AppRig, uuid: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${rig.sb!.url}/expenses/${uuid}`, { headers: { 'X-API-Key': BUSINESS_KEY } })
  return ((await res.json()) as { data: Record<string, unknown> }).data
}

describe('Review through the bridge', () => {
  it('lists the five records newest first with their flags and counts', async () => {
    r = await fiveReviewed()
    const all = await r.ok('review.list', { filter: 'all' })
    expect(all.counts).toEqual({ toReview: 5, flagged: 5, all: 5 })
    expect(all.items.map((i) => i.name)).toEqual(
      [...all.items].sort((a, b) => (b.completedAt ?? 0) - (a.completedAt ?? 0) || 0).map((i) => i.name),
    )
    const by = new Map(all.items.map((i) => [i.name, i]))
    expect(by.get('kiosk.pdf')!.flags.map((f) => f.code)).toEqual(['no_total'])
    expect(by.get('cloud.pdf')!.flags[0]).toMatchObject({ code: 'other_currency', currency: 'USD', businessCurrency: 'NGN' })
    const dup = by.get('flour-delivery.pdf')!.flags[0]!
    expect(dup.code).toBe('possible_duplicate')
    if (dup.code === 'possible_duplicate') {
      expect(dup.duplicate).toMatchObject({ basis: 'same_record', name: 'flour.pdf', uploadId: by.get('flour.pdf')!.uploadId })
      expect(dup.message.code).toBe('duplicate.possible')
    }
    expect(by.get('flour.pdf')!.source).toBe('drop')
    const flagged = await r.ok('review.list', { filter: 'flagged' })
    expect(flagged.total).toBe(5)
    // The history row shows what the upload became.
    const history = await r.ok('history', {})
    expect(history.rows.find((u) => u.name === 'paper.pdf')!.record).toMatchObject({ vendor: 'Paper Co', total: '5000.00' })
  })

  it('Save reaches the emulator, the stored row follows, and the flag goes; Mark reviewed leaves To review', async () => {
    r = await fiveReviewed()
    const kiosk = (await r.ok('review.list', { filter: 'all' })).items.find((i) => i.name === 'kiosk.pdf')!
    const saved = await r.ok('review.save', { uuid: kiosk.record.uuid, total: '3500.50', narration: 'Bread and milk' })
    expect(saved.item.record).toMatchObject({ total: '3500.50', narration: 'Bread and milk', vendor: 'Kiosk Lekki' })
    expect(saved.item.flags).toEqual([])
    expect(await onServer(r, kiosk.record.uuid)).toMatchObject({ amount: 3500.5, narration: 'Bread and milk' })
    const row = (await r.ok('history', {})).rows.find((u) => u.name === 'kiosk.pdf')!
    expect(row.record).toMatchObject({ total: '3500.50' })
    expect(r.eventsOf('review').length).toBeGreaterThan(0)

    const marked = await r.ok('review.setReviewed', { uuid: kiosk.record.uuid, reviewed: true })
    expect(marked.item.record.reviewedAt).toBeGreaterThan(0)
    const toReview = await r.ok('review.list', { filter: 'to_review' })
    expect(toReview.items.map((i) => i.name)).not.toContain('kiosk.pdf')
    expect(toReview.counts.toReview).toBe(4)
  })

  it("an edit of an expense's narration on the Expenses screen updates the stored summary", async () => {
    r = await fiveReviewed()
    const paper = (await r.ok('review.list', { filter: 'all' })).items.find((i) => i.name === 'paper.pdf')!
    await r.ok('updateExpense', { id: paper.record.uuid, patch: { narration: 'Printer paper, 5 reams' } })
    const detail = await r.ok('review.get', { uuid: paper.record.uuid })
    expect(detail.item.record.narration).toBe('Printer paper, 5 reams')
    expect(detail.editable).toBe(true)
  })

  it('a record deleted on the server says so instead of failing; Save while offline is a coded error', async () => {
    r = await fiveReviewed()
    const items = (await r.ok('review.list', { filter: 'all' })).items
    const cloud = items.find((i) => i.name === 'cloud.pdf')!
    r.sb!.state.records.get('expenses')!.delete(cloud.record.uuid)
    const gone = await r.ok('review.save', { uuid: cloud.record.uuid, total: '25.00' })
    expect(gone.item.record.deletedOnServer).toBe(true)
    expect(gone.editable).toBe(false)
    expect(gone.notEditableReason?.code).toBe('review.readonly.deleted')
    expect((await r.ok('review.list', { filter: 'all' })).counts.all).toBe(5)

    const flour = items.find((i) => i.name === 'flour.pdf')!
    r.sb!.setFaults({ drop_next: 1000, paths: ['/expenses/'] })
    const offline = await r.call('review.save', { uuid: flour.record.uuid, vendor: 'Flour Mills Plc' })
    expect(offline.ok).toBe(false)
    if (!offline.ok) {
      expect(offline.error.code).toBe('offline')
      expect(offline.error.message).toMatch(/still in the form/)
    }
    // Nothing changed on either side.
    r.sb!.setFaults({ drop_next: 0, paths: [] })
    expect((await r.ok('review.get', { uuid: flour.record.uuid })).item.record.vendor).toBe('Flour Mills')
  })

  it("sums this month's expenses in the business's currency, leaving other currencies out", async () => {
    r = await fiveReviewed()
    const money = await r.ok('review.money', {})
    expect(money.currency).toBe('NGN')
    // flour 12,400 + its delivery note 12,400 + kiosk 0 (paper is dated next year, cloud is in USD).
    expect(money.spentThisMonth).toBe('24800.00')
    expect(money.otherCurrencies).toBe(1)
    expect(money.topVendors[0]).toEqual({ vendor: 'Flour Mills', total: '24800.00' })
    expect(money.toReview).toBe(5)
  })

  it("refuses a currency that is not ISO 4217, and keeps one that is on the profile", async () => {
    r = await appRig()
    await addProfile(r)
    const bad = await r.call('review.setCurrency', { currency: 'XYZ1' })
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.error.message).toMatch(/ISO 4217/)
    const set = await r.ok('review.setCurrency', { currency: 'eur' })
    expect(set.currency).toBe('EUR')
    expect((await r.ok('listProfiles', {})).profiles[0]!.currency).toBe('EUR')
    const bogus = await r.call('review.list', { filter: 'everything' as never })
    expect(bogus.ok).toBe(false)
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })
})
