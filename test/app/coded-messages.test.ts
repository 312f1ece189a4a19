/**
 * Main's sentences in the person's language (issue 34), through real parts: the web host over HTTP
 * with the embedded emulator, real files in a temporary folder, the real SQLite database, and the
 * renderer's own bridge and formatter (src-renderer/lib/bridge.ts, lib/coded.ts, lib/i18n.ts) with
 * the catalogues in contract/i18n.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { messagesFor } from '../../contract/i18n/all'
import type { BookdropApi } from '../../contract'
import { MAIN_MESSAGE_BY_ID } from '../../contract/main-messages'
import { Db } from '../../src-main/core/store/db'
import { UploadStore } from '../../src-main/core/store/uploads'
import type { WebHost } from '../../src-main/web-host'
import { createHttpBridge, wordingErrors } from '../../src-renderer/lib/bridge'
import { codedOrText } from '../../src-renderer/lib/coded'
import { setIntl } from '../../src-renderer/lib/i18n'
import { b64, startDemoWebHost, waitFor } from './helpers'

/** English words of these messages that must not be left in a German or French sentence. */
const ENGLISH = /\b(is|a|the|file|folder|not|choose|paste|key|again|empty|save|then|retry)\b/i

const de = messagesFor('de')
const fr = messagesFor('fr')
let dir = ''
let host: WebHost
let api: BookdropApi

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-coded-'))
  host = await startDemoWebHost(dir)
  api = wordingErrors(createHttpBridge({ baseUrl: host.origin, token: host.token }))
})

afterAll(async () => {
  setIntl('en', {})
  await host?.stop()
  await rm(dir, { recursive: true, force: true })
})

afterEach(() => setIntl('en', {}))

describe('an error from main, in the language in use', () => {
  it('adding a watched folder that is a file says so in German, with no English, and keeps the English text', async () => {
    const file = join(dir, 'Belege.pdf')
    await writeFile(file, '%PDF-1.4\n')
    const profiles = await api.listProfiles({})
    if (!profiles.ok) throw new Error(profiles.error.message)
    const profileId = profiles.value.activeId!
    setIntl('de', de)
    const r = await api.addFolder({ profileId, path: file, target: 'expenses' })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.code).toBe('folder_not_directory')
    expect(r.error.message).toBe(`${file} ist eine Datei, kein Ordner: Wählen Sie einen Ordner.`)
    expect(r.error.message.replace(file, '')).not.toMatch(ENGLISH)
    // The form field says it in German too; the English text stays for logs and readers without the code.
    expect(r.error.fields?.path).toBe(r.error.message)
    expect(r.error.coded?.text).toBe(`${file} is a file, not a folder: choose a folder.`)
  })

  it('a key with a space in it is refused in German, under the key field too', async () => {
    setIntl('de', de)
    const r = await api.addProfile({ name: 'Bäckerei', kind: 'business', environment: 'sandbox', secret: 'svc_sk_abc def' })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.message).toMatch(/^Der Schlüssel enthält Leerzeichen/)
    expect(r.error.message).not.toMatch(ENGLISH)
    expect(r.error.fields?.secret).toBe(r.error.message)
    // Nothing of the key in any wording.
    expect(JSON.stringify(r.error)).not.toContain('svc_sk_abc')
  })

  it('the same error reads in English when English is in use, from the same catalogue', async () => {
    const profiles = await api.listProfiles({})
    if (!profiles.ok) throw new Error(profiles.error.message)
    const gone = join(dir, 'Quittungen')
    const r = await api.addFolder({ profileId: profiles.value.activeId!, path: gone, target: 'expenses' })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.coded?.code).toBe('errors.folder_not_found')
    expect(r.error.message).toBe(`${gone} does not exist (or cannot be read).`)
    expect(r.error.message).toBe(r.error.coded!.text)
  })
})

describe('reasons stored with history rows', () => {
  it("a row's stored reason reads in French after switching language, and in German after that", async () => {
    const added = await api.addFileContents({ files: [{ name: 'vide.pdf', base64: b64('') }], target: 'expenses' })
    expect(added.ok).toBe(true)
    const row = await waitFor('the empty file skipped', async () => {
      const h = await api.history({ search: 'vide.pdf' })
      return h.ok ? h.value.rows.find((u) => u.name === 'vide.pdf' && u.status === 'skipped') : undefined
    })
    expect(row.lastErrorCoded?.code).toBe('errors.file_empty')
    setIntl('en', {})
    expect(codedOrText(row.lastErrorCoded, row.lastError)).toBe('The file is empty (0 bytes). Save it again, then retry.')
    setIntl('fr', fr)
    const inFrench = codedOrText(row.lastErrorCoded, row.lastError)
    expect(inFrench).toBe('Le fichier est vide (0 octet). Enregistrez-le à nouveau, puis réessayez.')
    expect(inFrench).not.toMatch(ENGLISH)
    setIntl('de', de)
    expect(codedOrText(row.lastErrorCoded, row.lastError)).toMatch(/^Die Datei ist leer/)
  })

  it('a row stored before the migration keeps its text, shown as it was written', async () => {
    const path = join(dir, 'old.db')
    // A database as the version before wrote it: the schema before the last migration (11), no
    // last_error_coded column.
    const before = new Db(path)
    const store = new UploadStore(before)
    const old = store.insert({
      profileId: 'p',
      target: 'expenses',
      source: 'watch',
      path: '/r/alt.pdf',
      name: 'alt.pdf',
      prompt: '',
      status: 'skipped',
      reason: 'too_large',
      lastError: 'The file is 40 MB, over the 25 MB limit. Compress it or raise the limit in Settings, then retry.',
    })
    before.raw.exec('ALTER TABLE uploads DROP COLUMN last_error_coded; UPDATE schema_version SET version = 10')
    before.close()
    // The new version opens it: the migration adds the column, the row keeps its text.
    const after = new Db(path)
    try {
      const row = new UploadStore(after).get(old.id)!
      expect(row.lastErrorCoded).toBeUndefined()
      setIntl('fr', fr)
      expect(codedOrText(row.lastErrorCoded, row.lastError)).toBe(
        'The file is 40 MB, over the 25 MB limit. Compress it or raise the limit in Settings, then retry.',
      )
    } finally {
      after.close()
    }
  })
})

describe('the catalogue of main', () => {
  it('has every message of main in every language', () => {
    const ids = [...MAIN_MESSAGE_BY_ID.keys()]
    for (const locale of ['de', 'fr', 'es', 'pt-BR', 'ar', 'id']) {
      const cat = messagesFor(locale)
      for (const id of ids) expect(cat[id], id).toBeTypeOf('string')
    }
  })
})
