/**
 * The data folder is private (issue 23): another user of the computer can read nothing in it. The
 * folder is 0700 and every file Bookdrop writes there 0600: the database with its WAL and SHM, the
 * lock and pid files, profiles.json, dropped receipts and exports. A folder an older version left
 * readable is tightened when the app opens it (the local copies' folders too: prepared photos, mail
 * attachments, what phones sent), and that is said once.
 */
import { chmod, lstat, mkdir, readdir, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Engine } from '../../src-main/core/engine'
import type { ClientProvider } from '../../src-main/core/queue/types'
import { privacyNotice } from '../../src-main/core/store/private-dir'
import { type AppRig, PROFILES, b64, profileInput, receiptText, useAppRig, waitFor } from './helpers'

const posix = process.platform !== 'win32'
/** The engine opened on its own, only to open the folder: it sends nothing. */
const NO_CLIENTS: ClientProvider = { clientFor: () => Promise.reject(new Error('not used')) }

/** Every file and folder under `dir` (links not followed), with its permission bits. */
async function modesUnder(dir: string): Promise<{ path: string; mode: number; dir: boolean }[]> {
  const out: { path: string; mode: number; dir: boolean }[] = []
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const path = join(d, e.name)
      const st = await lstat(path)
      out.push({ path, mode: st.mode & 0o777, dir: st.isDirectory() })
      if (st.isDirectory()) await walk(path)
    }
  }
  await walk(dir)
  return out
}

const rigs = useAppRig()

/** A rig with the business profile, a dropped receipt sent, and the history exported. */
async function used(): Promise<AppRig> {
  const r = await rigs.open()
  await r.ok('addProfile', profileInput(r, 'business'))
  expect(PROFILES.business.kind).toBe('business')
  await r.ok('addFileContents', {
    target: 'expenses',
    files: [{ name: 'receipt.txt', base64: b64(receiptText('p')) }],
  })
  await waitFor(
    'the receipt completed',
    async () => (await r.ok('history', { statuses: ['completed'] })).total === 1,
  )
  const exported = await r.ok('exportHistory', { filter: {} })
  expect(exported.rows).toBe(1)
  return r
}

describe.runIf(posix)('the data folder', () => {
  it('is created 0700, and every file in it 0600: database, WAL, SHM, lock, pid, profiles, dropped files, exports', async () => {
    const r = await used()
    expect((await lstat(r.dataDir)).mode & 0o777).toBe(0o700)
    const entries = await modesUnder(r.dataDir)
    const names = entries.map((e) => relative(r.dataDir, e.path))
    // The files the issue names are all there, so the check below covers them.
    for (const name of [
      'bookdrop.db',
      'bookdrop.db-wal',
      'bookdrop.db-shm',
      'bookdrop.lock',
      'bookdrop.pid',
      'profiles.json',
    ]) {
      expect(names).toContain(name)
    }
    expect(names.some((n) => n.startsWith('dropped/') && n.endsWith('receipt.txt'))).toBe(true)
    expect(names.some((n) => n.startsWith('exports/') && n.endsWith('.csv'))).toBe(true)
    for (const e of entries) {
      expect(e.mode & 0o077, `${relative(r.dataDir, e.path)} is ${e.mode.toString(8)}`).toBe(0)
    }
    // A fresh folder had nothing to tighten: nothing is said.
    expect(r.service.engine.openReport.madePrivate).toEqual({ folder: false, entries: 0 })
  })

  it('left readable by an older version is tightened when opened, and that is said once', async () => {
    const r = await used()
    const { dataDir } = r
    await r.service.close()
    // The local copies' folders (issue 31): prepared photos, mail attachments, what phones sent.
    for (const [dir, file] of [
      ['prepared/2026-11-01', 'photo-0123.jpg'],
      ['mail/acct/7-42/2', 'invoice.pdf'],
      ['phone/2026-11-01', 'Photo 10.00.00.jpg'],
    ] as const) {
      await mkdir(join(dataDir, dir), { recursive: true })
      await writeFile(join(dataDir, dir, file), 'a copy')
    }
    // As an older Bookdrop left it: the folder 0755, its files 0644.
    for (const e of await modesUnder(dataDir)) await chmod(e.path, e.dir ? 0o755 : 0o644)
    await chmod(dataDir, 0o755)

    const first = await Engine.open({ dataDir, clients: NO_CLIENTS })
    const report = first.openReport.madePrivate
    await first.close()
    expect(report.folder).toBe(true)
    expect(report.entries).toBeGreaterThanOrEqual(8 + 9)
    expect(privacyNotice(dataDir, report)).toMatch(
      /^bookdrop: the data folder .* could be read by other users of this computer; the folder and \d+ entries in it made private \(owner only\)$/,
    )
    expect((await lstat(dataDir)).mode & 0o777).toBe(0o700)
    for (const dir of ['prepared', 'mail', 'phone']) expect((await lstat(join(dataDir, dir))).mode & 0o777).toBe(0o700)
    for (const e of await modesUnder(dataDir)) {
      expect(e.mode & 0o077, `${relative(dataDir, e.path)} is ${e.mode.toString(8)}`).toBe(0)
    }

    // The next start finds nothing to tighten, and says nothing.
    const second = await Engine.open({ dataDir, clients: NO_CLIENTS })
    expect(second.openReport.madePrivate).toEqual({ folder: false, entries: 0 })
    expect(privacyNotice(dataDir, second.openReport.madePrivate)).toBeNull()
    await second.close()
  })
})
