/**
 * Names by bytes (issue 23): a file sent as bytes is stored under a name of at most 255 bytes of
 * UTF-8 (a 170-character accented name is 340 bytes: it used to fail the whole batch with the data
 * folder's full path in the error), its extension kept, never cut inside a character; bidirectional
 * and other control characters are replaced, so the history never shows `invoice‮fdp.exe` as a PDF.
 * One file that cannot be saved never fails the others, and no message names the data folder.
 */
import { readdir, writeFile } from 'node:fs/promises'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_NAME_BYTES, numberedStoredName, storedName, utf8Bytes } from '../../src-main/core/names'
import { documentBytes } from '../engine/documents'
import { b64, profileInput, receiptText, useAppRig } from './helpers'

const rigs = useAppRig()

const ACCENTED = `${'é'.repeat(170)}.pdf` // 170 characters, 344 bytes
const BIDI = 'invoice\u202Efdp.exe'
const EMOJI = `${'👩‍👩‍👧'.repeat(20)}.jpg` // 20 graphemes of 18 bytes each

function localDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

describe('storedName', () => {
  it('keeps a name within 255 bytes of UTF-8, its extension kept, never cut inside a character', () => {
    const accented = storedName(ACCENTED)
    expect(utf8Bytes(accented)).toBeLessThanOrEqual(MAX_NAME_BYTES)
    expect(accented).toBe(`${'é'.repeat(125)}.pdf`)
    // Decomposed accents are composed first, then cut between whole characters.
    expect(storedName(`${'e\u0301'.repeat(170)}.pdf`)).toBe(accented)
    const emoji = storedName(EMOJI)
    expect(utf8Bytes(emoji)).toBeLessThanOrEqual(MAX_NAME_BYTES)
    expect(emoji).toBe(`${'👩‍👩‍👧'.repeat(13)}.jpg`)
    expect(emoji.endsWith('.jpg')).toBe(true)
    // A very long "extension" is part of the name, not kept whole.
    expect(utf8Bytes(storedName(`a.${'x'.repeat(400)}`))).toBeLessThanOrEqual(MAX_NAME_BYTES)
    // Numbered copies ("name (2).pdf") fit too.
    const numbered = numberedStoredName(accented, 10_000)
    expect(utf8Bytes(numbered)).toBeLessThanOrEqual(MAX_NAME_BYTES)
    expect(numbered.endsWith(' (10000).pdf')).toBe(true)
    expect(numberedStoredName('r.pdf', 2)).toBe('r (2).pdf')
  })

  it('replaces bidirectional and other control characters', () => {
    expect(storedName(BIDI)).toBe('invoice_fdp.exe')
    for (const c of [
      '\u202E',
      '\u202D',
      '\u2066',
      '\u2069',
      '\u200F',
      '\u061C',
      '\u0007',
      '\u0085',
      '\u2028',
      '\uFEFF',
      '\u200B',
    ]) {
      expect(storedName(`a${c}b.txt`), JSON.stringify(c)).toBe('a_b.txt')
    }
    expect(storedName('Reçu café №5.pdf')).toBe('Reçu café №5.pdf')
  })
})

describe('files sent as bytes', () => {
  it('a 170-character accented name, a bidi name and plain ones are all saved and sent, in one batch', async () => {
    const r = await rigs.open()
    await r.ok('addProfile', profileInput(r, 'business'))
    // (The emoji name as a .txt: a JPEG here would be a photo to prepare, and these bytes are not one.)
    const names = [ACCENTED, BIDI, EMOJI.replace(/\.jpg$/, '.txt'), 'plain.txt']
    const out = await r.call('addFileContents', {
      target: 'expenses',
      // Each file holds what its name says (the content check skips a .pdf that is not a PDF).
      files: names.map((name, i) => ({ name, base64: documentBytes(name, receiptText(`n${i}`)).toString('base64') })),
    })
    expect(out.ok, JSON.stringify(out)).toBe(true)
    if (!out.ok) return
    // The .exe is recorded and skipped (not a kind Bookdrop sends), under a name that shows what it is.
    expect(out.value.map((o) => o.kind)).toEqual(['queued', 'skipped', 'queued', 'queued'])
    const shown = out.value.map((o) => (o.kind === 'ignored' ? '' : o.upload.name))
    for (const name of shown) {
      expect(utf8Bytes(name)).toBeLessThanOrEqual(MAX_NAME_BYTES)
      expect(name).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F]/)
    }
    expect(shown[1]).toBe('invoice_fdp.exe')
    const onDisk = await readdir(join(r.dataDir, 'dropped', localDate(new Date())))
    expect(onDisk.sort()).toEqual(shown.slice().sort())
  })

  it('one file that cannot be saved leaves the others sent; its message names no folder', async () => {
    const r = await rigs.open()
    await r.ok('addProfile', profileInput(r, 'business'))
    // Every name "busy.txt" could be saved under today is taken: that one file cannot be saved.
    const dir = join(r.dataDir, 'dropped', localDate(new Date()))
    await mkdir(dir, { recursive: true })
    const taken = ['busy.txt', ...Array.from({ length: 9_999 }, (_, i) => `busy (${i + 2}).txt`)]
    for (let i = 0; i < taken.length; i += 500) {
      await Promise.all(taken.slice(i, i + 500).map((n) => writeFile(join(dir, n), '')))
    }
    const out = await r.ok('addFileContents', {
      target: 'expenses',
      files: [
        { name: 'first.txt', base64: b64(receiptText('f1')) },
        { name: 'busy.txt', base64: b64(receiptText('f2')) },
        { name: ACCENTED, base64: documentBytes(ACCENTED, receiptText('f3')).toString('base64') },
      ],
    })
    expect(out.map((o) => o.kind)).toEqual(['queued', 'ignored', 'queued'])
    const failed = out[1]!
    expect(failed).toMatchObject({ kind: 'ignored', why: 'not_saved', path: 'busy.txt' })
    const message = failed.kind === 'ignored' && failed.why === 'not_saved' ? failed.message : ''
    expect(message).toBe('busy.txt could not be saved: there are 10,000 files of that name today already.')
    expect(message).not.toContain(r.dataDir)
    // No message of the whole exchange (results, errors, events) names the data folder.
    const messages = r.transcript.flatMap((line) =>
      [...line.matchAll(/"(?:message|lastError)":"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!),
    )
    expect(messages.length).toBeGreaterThan(0)
    for (const m of messages) expect(m).not.toContain(r.dataDir)
  }, 60_000)

  it('an unexpected error of the file system names the data folder in words, never by its path', async () => {
    const r = await rigs.open()
    await r.ok('addProfile', profileInput(r, 'business'))
    // Where exports go is a file: the export fails with the file system's own message.
    await writeFile(join(r.dataDir, 'exports'), 'not a folder')
    const res = await r.call('exportHistory', { filter: {} })
    expect(res.ok).toBe(false)
    const message = res.ok ? '' : res.error.message
    expect(message).toContain("Bookdrop's data folder")
    expect(message).not.toContain(r.dataDir)
  })
})
