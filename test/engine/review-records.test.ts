/**
 * Issue 32, the engine's side: what each receipt became is read from the emulator over HTTP once
 * its job completes, kept in the history's SQLite file, flagged, and printed on the headless line.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { describeUpload } from '../../src-main/core/report'
import { flagsOf } from '../../src-main/core/review/flags'
import { FIVE, nextYear, today } from './review-receipts'
import type { Upload } from '../../src-main/core/store/uploads'
import { PROFILE, type Rig, byName, receipt, rig as startRig, waitFor } from './helpers'
import sharp from 'sharp'
import { pdfBytes } from './documents'
import { followEvents, lineWriter } from '../../src-main/headless/output'

let r: Rig | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
})

async function dropFive(rig: Rig): Promise<Map<string, Upload>> {
  const paths: string[] = []
  for (const [name, text] of Object.entries(FIVE)) paths.push((await receipt(rig.inbox, name, pdfBytes(text))).path)
  await rig.engine.addFiles(paths, { profileId: PROFILE, target: 'expenses' })
  await rig.engine.whenIdle()
  return byName(rig.engine.history().rows)
}

describe('what each receipt became', () => {
  it('reads vendor, date, total and currency of five text-PDF receipts into the history, with the right flags', async () => {
    r = await startRig()
    const rows = await dropFive(r)
    expect([...rows.values()].map((u) => u.status)).toEqual(Array(5).fill('completed'))
    const rec = (name: string) => rows.get(name)!.record!
    expect(rec('flour.pdf')).toMatchObject({ kind: 'expense', vendor: 'Flour Mills', date: today, total: '12400.00', currency: 'NGN' })
    expect(rec('kiosk.pdf')).toMatchObject({ vendor: 'Kiosk Lekki', date: today })
    expect(Number(rec('kiosk.pdf').total ?? 0)).toBe(0)
    expect(rec('paper.pdf')).toMatchObject({ vendor: 'Paper Co', date: nextYear, total: '5000.00' })
    expect(rec('cloud.pdf')).toMatchObject({ vendor: 'Cloud Host', total: '20.00', currency: 'USD' })
    expect(rec('flour-delivery.pdf')).toMatchObject({ vendor: 'Flour Mills', date: today, total: '12400.00' })
    for (const u of rows.values()) expect(u.recordCount).toBe(1)

    // The flags, from the table, with the business's currency NGN.
    const store = r.engine.records.store
    const flags = (name: string) => {
      const s = store.byUuid(rows.get(name)!.recordUuid!)!
      return flagsOf(s, { currency: 'NGN', today }, store.sameRecord(s)).map((f) => f.text)
    }
    expect(flags('kiosk.pdf')).toEqual(['No total'])
    expect(flags('paper.pdf')).toEqual(['Date in the future'])
    expect(flags('cloud.pdf')).toEqual(["Currency USD is not the business's NGN"])
    expect(flags('flour-delivery.pdf')).toEqual([expect.stringMatching(/^Possible duplicate of flour\.pdf/)])
    expect(flags('flour.pdf')).toEqual([expect.stringMatching(/^Possible duplicate of flour-delivery\.pdf/)])
    expect(store.counts(PROFILE, { currency: 'NGN', today })).toEqual({ toReview: 5, flagged: 5, all: 5 })
    // Without a business currency there is no currency flag: Cloud Host is not flagged.
    expect(store.counts(PROFILE, { currency: null, today }).flagged).toBe(4)
  })

  it('a photo comes out of the emulator with no total, and is flagged so', async () => {
    r = await startRig()
    const photo = await sharp({ create: { width: 320, height: 480, channels: 3, background: '#f4f1ea' } }).jpeg().toBuffer()
    const { path } = await receipt(r.inbox, 'till-photo.jpg', photo)
    await r.engine.addFiles([path], { profileId: PROFILE, target: 'expenses' })
    await r.engine.whenIdle()
    const row = r.engine.history().rows[0]!
    expect(row.status).toBe('completed')
    expect(Number(row.record!.total ?? 0)).toBe(0)
    const s = r.engine.records.store.byUuid(row.recordUuid!)!
    expect(flagsOf(s, { currency: 'NGN', today }, []).map((f) => f.code)).toContain('no_total')
  })

  it('a bank statement that made several records keeps them all, and its row counts them', async () => {
    r = await startRig()
    const csv = `Date,Description,Amount\n${today},Flour Mills,-12400.00\n${today},POS Kiosk,-2500.00\n${today},Transfer in,50000.00\n`
    const { path } = await receipt(r.inbox, 'march.csv', csv)
    await r.engine.addFiles([path], { profileId: PROFILE, target: 'bank-transactions', prompt: 'March, main account' })
    await r.engine.whenIdle()
    const row = r.engine.history().rows[0]!
    expect(row.status).toBe('completed')
    expect(row.recordCount).toBe(3)
    expect(row.record).toMatchObject({ kind: 'bank_transaction', date: today })
    const kept = r.engine.records.store.list(PROFILE, 'all', 0, 10, { currency: 'NGN', today }).rows
    expect(kept).toHaveLength(3)
    expect(kept.every((k) => k.uploadId === row.id && k.fetchedAt !== null && k.recordCount === 3)).toBe(true)
  })

  it('prints the summary on the headless line of a completed receipt, once', async () => {
    r = await startRig()
    const lines: string[] = []
    const out = { ...lineWriter(), line: (t: string) => lines.push(t) }
    followEvents(r.engine, out, true, describeUpload)
    await dropFive(r)
    const flour = lines.filter((l) => l.includes('flour.pdf') && l.startsWith('done'))
    expect(flour).toHaveLength(1)
    expect(flour[0]).toMatch(new RegExp(`· Flour Mills · ${today} · NGN 12,400\\.00$`))
    expect(lines.find((l) => l.includes('kiosk.pdf') && l.startsWith('done'))).toMatch(/Kiosk Lekki · .* · NGN 0\.00$/)
  })

  it('keeps Mark reviewed after the engine is reopened', async () => {
    r = await startRig()
    const rows = await dropFive(r)
    const uuid = rows.get('paper.pdf')!.recordUuid!
    r.engine.records.setReviewed(r.engine.records.store.byUuid(uuid)!, true)
    await r.reopen()
    const kept = r.engine.records.store.byUuid(uuid)!
    expect(kept.reviewedAt).toBeGreaterThan(0)
    expect(r.engine.records.store.counts(PROFILE, { currency: 'NGN', today }).toReview).toBe(4)
    expect(byName(r.engine.history().rows).get('paper.pdf')!.record).toMatchObject({ vendor: 'Paper Co', reviewedAt: kept.reviewedAt })
  })

  it('a record read that fails leaves the receipt completed; the summary comes when the row is shown again', async () => {
    r = await startRig()
    // Every read of a record fails (the create, POST /expenses, and the job's polls still work).
    r.sb.setFaults({ fail_next: 1000, paths: ['/expenses/'] })
    const { path } = await receipt(r.inbox, 'flour.pdf', pdfBytes(FIVE['flour.pdf']))
    await r.engine.addFiles([path], { profileId: PROFILE, target: 'expenses' })
    await r.engine.whenIdle()
    const [row] = r.engine.history().rows
    expect(row!.status).toBe('completed')
    expect(row!.recordUuid).toBeTruthy()
    expect(row!.record).toBeNull()
    expect(r.engine.records.store.byUuid(row!.recordUuid!)!.readError).toBeTruthy()

    r.sb.setFaults({ fail_next: 0, paths: [] })
    const later = await waitFor('the summary read when shown', () => byName(r!.engine.history().rows).get('flour.pdf')!.record)
    expect(later).toMatchObject({ vendor: 'Flour Mills', total: '12400.00' })
    expect(r.engine.history().rows[0]!.status).toBe('completed')
  })

  it('rows completed before the records table get their summary when first shown', async () => {
    r = await startRig()
    await dropFive(r)
    // As an earlier version left them: completed, with a record uuid, and nothing read (migration 9's rows).
    const db = (r.engine as unknown as { db: { run(sql: string): unknown } }).db
    db.run('UPDATE records SET fetched_at = NULL, vendor = NULL, vendor_key = NULL, date = NULL, total = NULL, currency = NULL')
    const first = r.engine.history().rows
    expect(first.every((u) => u.record?.vendor == null)).toBe(true)
    const all = await waitFor('every summary read', () => {
      const rows = r!.engine.history().rows
      return rows.every((u) => u.record?.vendor) ? rows : null
    })
    expect(byName(all).get('paper.pdf')!.record).toMatchObject({ vendor: 'Paper Co', date: nextYear })
  })
})
