/**
 * Issue 33 through the bridge (dispatch, as the desktop app and the web host call it): a
 * re-download added as bytes is held and its row names the receipt it looks like (in the answer,
 * the history and the upload event); Discard and the per-business setting validate what they are
 * given. Real emulator over HTTP, real SQLite, PDFs made by the test.
 */
import { describe, expect, it } from 'vitest'
import { receipt, receiptPdf } from '../fingerprint/receipts'
import { addProfile, useAppRig, waitFor } from './helpers'

const rigs = useAppRig()

const pdf = async (name: string, download: number) => ({
  name,
  base64: Buffer.from(await receiptPdf(receipt(2, 61), download)).toString('base64'),
})

describe('possible duplicates through the bridge', () => {
  it('a re-download is held and named; Discard ends it; the setting is per business and checked', async () => {
    const r = await rigs.open()
    await addProfile(r)
    const [first] = await r.ok('addFileContents', { target: 'expenses', files: [await pdf('invoice.pdf', 0)] })
    const firstId = first!.kind === 'ignored' ? 0 : first!.upload.id
    await waitFor('sent', async () => (await r.ok('history', { statuses: ['completed'] })).total === 1)

    const [again] = await r.ok('addFileContents', { target: 'expenses', files: [await pdf('invoice.pdf', 1)] })
    expect(again?.kind).toBe('held')
    const held = await r.ok('history', { statuses: ['held'] })
    expect(held.total).toBe(1)
    expect(held.rows[0]!.possibleDuplicate).toMatchObject({ basis: 'same_text', uploadId: firstId, name: 'invoice.pdf' })
    const event = r.eventsOf('upload').find((e) => e.upload.status === 'held')
    expect(event?.upload.possibleDuplicate?.uploadId).toBe(firstId)

    const discarded = await r.ok('discardUpload', { id: held.rows[0]!.id })
    expect(discarded.status).toBe('discarded')
    const twice = await r.call('discardUpload', { id: held.rows[0]!.id })
    expect(twice.ok ? null : twice.error).toMatchObject({ code: 'not_discardable', message: expect.stringMatching(/only a held possible duplicate/) })
    const none = await r.call('discardUpload', { id: 99_999 })
    expect(none.ok ? null : none.error.code).toBe('not_found')
    const bad = await r.call('discardUpload', { id: -1 } as never)
    expect(bad.ok ? null : bad.error.code).toBe('invalid_request')

    expect(await r.ok('getDuplicateSetting', {})).toEqual({ mode: 'hold' })
    expect(await r.ok('setDuplicateSetting', { mode: 'send' })).toEqual({ mode: 'send' })
    expect(await r.ok('getDuplicateSetting', {})).toEqual({ mode: 'send' })
    const wrong = await r.call('setDuplicateSetting', { mode: 'sometimes' } as never)
    expect(wrong.ok ? null : wrong.error.code).toBe('invalid_request')
    // With "send", the next re-download is queued and sent, and still names the one it looks like.
    const [third] = await r.ok('addFileContents', { target: 'expenses', files: [await pdf('invoice.pdf', 2)] })
    expect(third?.kind).toBe('queued')
    expect(third?.kind === 'ignored' ? null : third?.upload.possibleDuplicate?.uploadId).toBe(firstId)
  }, 30_000)
})
