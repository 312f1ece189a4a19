/**
 * The Review screen's document call (issue 32): the page names an upload by id; main answers with
 * the bytes of the row's local copy where it is allowed to be, never a path, and refuses a copy
 * that has become a link elsewhere or lies outside the places Bookdrop keeps files.
 */
import { mkdir, symlink, truncate, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SAMPLE_RECEIPTS } from '../../sandbox/sample-receipts'
import { b64, receiptText, useAppRig, waitFor } from '../app/helpers'

const { business } = useAppRig()

const sample = SAMPLE_RECEIPTS[0]!

describe('review.document', () => {
  it("answers a dropped PDF's bytes and a text's text, with no path in the answer", async () => {
    const { r } = await business()
    const [pdf, text] = await r.ok('addFileContents', {
      target: 'expenses',
      files: [
        { name: sample.name, base64: sample.base64 },
        { name: 'note.txt', base64: b64(receiptText('note')) },
      ],
    })
    const pdfId = pdf!.kind === 'ignored' ? 0 : pdf!.upload.id
    const textId = text!.kind === 'ignored' ? 0 : text!.upload.id
    const doc = await r.ok('review.document', { uploadId: pdfId })
    expect(doc).toMatchObject({ kind: 'pdf', name: sample.name, mime: 'application/pdf' })
    expect(doc.kind !== 'text' && doc.base64).toBe(sample.base64)
    expect(JSON.stringify(doc)).not.toContain(r.dataDir)
    const note = await r.ok('review.document', { uploadId: textId })
    expect(note).toMatchObject({ kind: 'text', name: 'note.txt' })
    expect(note.kind === 'text' && note.text).toContain('Vendor: Flour Mills')

    const missing = await r.call('review.document', { uploadId: 999_999 })
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } })
    const bad = await r.call('review.document', { uploadId: -1 } as never)
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
  })

  it('refuses a watched file swapped for a link to a file outside its folder', async () => {
    const { r, id } = await business()
    const inbox = join(r.dir, 'In')
    const outside = join(r.dir, 'secret.pdf')
    await mkdir(inbox)
    await writeFile(outside, Buffer.from(SAMPLE_RECEIPTS[1]!.base64, 'base64'))
    await r.ok('addFolder', { profileId: id, path: inbox, target: 'expenses' })
    const file = join(inbox, sample.name)
    await writeFile(file, Buffer.from(sample.base64, 'base64'))
    const row = await waitFor('taken', async () => (await r.ok('history', { sources: ['watch'] })).rows[0])
    const before = await r.ok('review.document', { uploadId: row.id })
    expect(before.kind !== 'text' && before.base64).toBe(sample.base64)

    await unlink(file)
    await symlink(outside, file)
    const after = await r.call('review.document', { uploadId: row.id })
    expect(after).toMatchObject({ ok: false, error: { code: 'file_outside_folder' } })
    expect(after.ok || after.error.message).toMatch(/outside the place Bookdrop took it from/)
    expect(after.ok || after.error.message).not.toContain(outside)
  })

  it("refuses a mail or phone row whose file lies outside the data folder, and a copy that is too large", async () => {
    const { r, id } = await business()
    await r.ok('pauseUploads', {})
    const outside = join(r.dir, 'elsewhere.pdf')
    await writeFile(outside, Buffer.from(sample.base64, 'base64'))
    const store = r.service.engine.uploads
    for (const source of ['mail', 'phone'] as const) {
      const row = store.insert({ profileId: id, target: 'expenses', source, path: outside, name: 'x.pdf', prompt: 'p', status: 'queued' })
      const res = await r.call('review.document', { uploadId: row.id })
      expect(res, source).toMatchObject({ ok: false, error: { code: 'file_outside_folder' } })
    }
    const big = join(r.dataDir, 'big.pdf')
    await writeFile(big, '%PDF-1.7\n')
    await truncate(big, 26 * 1024 * 1024)
    const row = store.insert({ profileId: id, target: 'expenses', source: 'mail', path: big, name: 'big.pdf', prompt: 'p', status: 'queued' })
    const res = await r.call('review.document', { uploadId: row.id })
    expect(res).toMatchObject({ ok: false, error: { code: 'too_large' } })
    expect(res.ok || res.error.message).toMatch(/more than the 25 MB the preview shows/)
  })
})
