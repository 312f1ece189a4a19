/**
 * Paths only from the user: the grants of dropped and picked paths, the watched-folder rules, the
 * after-upload destination rule and the accepted kinds, first as functions on real folders, then
 * through the app service's calls (the bridge), as a page or a local program would send them.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  DIRECTORY_GRANT_TTL_MS,
  FILE_GRANT_TTL_MS,
  FolderRuleError,
  PathGrants,
  checkAcceptedKinds,
  checkDestination,
  checkWatchedFolder,
  watchedFolderRule,
} from '../../src-main/core/user-paths'
import { type AppRig, addProfile, appRig } from './helpers'

const dirs: string[] = []
async function tmp(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'bookdrop-paths-'))
  dirs.push(d)
  return d
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

describe('PathGrants', () => {
  it('lets a dropped file in for a few minutes, then forgets it; folders picked last an hour', () => {
    let now = 1_000_000
    const g = new PathGrants(() => now, 'linux')
    g.grantFile('/home/me/receipt.pdf')
    g.grantDirectory('/home/me/Archive')
    expect(g.isFileGranted('/home/me/receipt.pdf')).toBe(true)
    expect(g.isFileGranted('/home/me/other.pdf')).toBe(false)
    expect(g.isFileGranted('/home/me/Archive')).toBe(false) // a picked folder is not a file grant
    expect(g.isDirectoryGranted('/home/me/Archive/')).toBe(true) // same folder, trailing slash
    now += FILE_GRANT_TTL_MS + 1
    expect(g.isFileGranted('/home/me/receipt.pdf')).toBe(false)
    expect(g.isDirectoryGranted('/home/me/Archive')).toBe(true)
    now += DIRECTORY_GRANT_TTL_MS
    expect(g.isDirectoryGranted('/home/me/Archive')).toBe(false)
  })

  it('ignores relative, empty, over-long and NUL paths, and folds case where the OS does', () => {
    const g = new PathGrants(Date.now, 'linux')
    for (const p of ['receipt.pdf', '', `/${'a'.repeat(5000)}`, '/tmp/a\0b']) {
      g.grantFile(p)
      expect(g.isFileGranted(p)).toBe(false)
    }
    g.grantFile('/tmp/x/../Receipt.PDF')
    expect(g.isFileGranted('/tmp/Receipt.PDF')).toBe(true)
    expect(g.isFileGranted('/tmp/receipt.pdf')).toBe(false) // Linux is case-sensitive
    const w = new PathGrants(Date.now, 'win32')
    w.grantFile('/Users/Me/Receipt.PDF')
    expect(w.isFileGranted('/users/me/receipt.pdf')).toBe(true)
  })
})

describe('watchedFolderRule', () => {
  const posix = { dataDir: '/home/me/.config/Bookdrop', home: '/home/me', platform: 'linux' as const }
  const rule = (p: string, extra: Partial<typeof posix & { recursive: boolean }> = {}) =>
    watchedFolderRule(p, { ...posix, ...extra })?.rule ?? null

  it('refuses roots, system folders, the home folder and the data folder on Linux', () => {
    expect(rule('/')).toBe('filesystem_root')
    for (const p of ['/etc', '/etc/cron.d', '/usr', '/usr/local/share', '/proc/1', '/sys', '/dev/shm', '/boot', '/bin', '/var/lib/x', '/run/user/1000', '/home', '/tmp', '/media', '/mnt', '/root', '/run/media']) {
      expect(rule(p), p).toBe('system_directory')
    }
    expect(rule('/home/me')).toBe('home_directory')
    expect(rule('/home/me/.config/Bookdrop')).toBe('data_directory')
    expect(rule('/home/me/.config/Bookdrop/dropped')).toBe('data_directory')
    // Around the data folder, watched with its subfolders (a data folder outside the account settings).
    expect(rule('/srv/shop', { recursive: true, dataDir: '/srv/shop/bookdrop-data' })).toBe('data_directory')
    expect(rule('/srv/shop', { recursive: false, dataDir: '/srv/shop/bookdrop-data' })).toBeNull()
    // The account's settings: programs start from there (autostart, shell profiles, keys).
    for (const p of ['/home/me/.config', '/home/me/.config/autostart', '/home/me/.ssh', '/home/me/.local/share/applications'])
      expect(rule(p), p).toBe('system_directory')
  })

  it('refuses the trees where tools keep credentials: cloud, containers, clusters, key rings, password stores', () => {
    const trees = [
      '.aws', '.kube', '.docker', '.gnupg', '.azure', '.config/gcloud', '.password-store', '.local/share/keyrings',
      '.oci', '.terraform.d', '.cargo', '.m2', '.gradle', '.gem', '.gcloud', '.pki/nssdb',
    ]
    for (const t of trees) {
      expect(rule(`/home/me/${t}`), t).toBe('system_directory')
      expect(rule(`/home/me/${t}/sub`), `${t}/sub`).toBe('system_directory')
    }
    const mac = { dataDir: '/Users/me/Library/Application Support/Bookdrop', home: '/Users/me', platform: 'darwin' as const }
    for (const t of ['.aws', '.kube', '.docker', '.gnupg', '.azure', '.config/gcloud', '.password-store', 'Library/Keychains'])
      expect(watchedFolderRule(`/Users/me/${t}`, { ...mac, recursive: false })?.rule, `mac ${t}`).toBe('system_directory')
    const win = { dataDir: 'C:\\Users\\me\\AppData\\Roaming\\Bookdrop', home: 'C:\\Users\\me', platform: 'win32' as const }
    for (const t of ['.aws', '.kube', '.docker', '.gnupg', '.azure', '.config\\gcloud', 'AppData\\Roaming\\Microsoft\\Credentials'])
      expect(watchedFolderRule(`C:\\Users\\me\\${t}`, { ...win, recursive: false })?.rule, `win ${t}`).toBe('system_directory')
    // A folder of one's own whose name merely starts the same way is fine.
    expect(rule('/home/me/.aws-receipts')).toBeNull()
    expect(rule('/home/me/Documents/.docker-invoices')).toBeNull()
  })

  it('takes folders of the person own, removable drives included', () => {
    for (const p of ['/home/me/Receipts', '/home/me/Documents/Shop/2026', '/run/media/me/USB', '/media/me/USB', '/mnt/share/receipts', '/tmp/inbox', '/srv/shop/in']) {
      expect(rule(p), p).toBeNull()
    }
  })

  it('knows the Windows and macOS system folders', () => {
    const win = { dataDir: 'C:\\Users\\me\\AppData\\Roaming\\Bookdrop', home: 'C:\\Users\\me', platform: 'win32' as const }
    const w = (p: string) => watchedFolderRule(p, { ...win, recursive: false })?.rule ?? null
    expect(w('C:\\')).toBe('filesystem_root')
    expect(w('D:\\')).toBe('filesystem_root')
    expect(w('C:\\Windows\\System32')).toBe('system_directory')
    expect(w('d:\\program files\\x')).toBe('system_directory')
    expect(w('C:\\Users')).toBe('system_directory')
    expect(w('c:\\users\\ME')).toBe('home_directory')

    expect(w('C:\\Users\\me\\Documents\\Receipts')).toBeNull()
    expect(w('C:\\Users\\me\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup')).toBe('system_directory')
    const mac = { dataDir: '/Users/me/Library/Application Support/Bookdrop', home: '/Users/me', platform: 'darwin' as const }
    const m = (p: string) => watchedFolderRule(p, { ...mac, recursive: false })?.rule ?? null
    expect(m('/System/Library')).toBe('system_directory')
    expect(m('/Users')).toBe('system_directory')
    expect(m('/users/me')).toBe('home_directory')
    expect(m('/Volumes/USB/Receipts')).toBeNull()
    expect(m('/Users/me/Documents/Receipts')).toBeNull()
    expect(m('/Users/me/Library/LaunchAgents')).toBe('system_directory')

  })
})

describe('checkWatchedFolder on real folders', () => {
  it('refuses a missing folder, a file, and a link that leads into a system folder', async () => {
    const d = await tmp()
    const ctx = { dataDir: join(d, 'data') }
    await expect(checkWatchedFolder(join(d, 'nope'), ctx)).rejects.toMatchObject({ code: 'folder_not_found', fields: { path: expect.any(String) } })
    await writeFile(join(d, 'file.txt'), 'x')
    await expect(checkWatchedFolder(join(d, 'file.txt'), ctx)).rejects.toMatchObject({ code: 'folder_not_directory' })
    await symlink('/etc', join(d, 'innocent'))
    const e = await checkWatchedFolder(join(d, 'innocent'), ctx).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(FolderRuleError)
    expect(e).toMatchObject({ rule: 'system_directory', message: expect.stringMatching(/system folder/) })
    await mkdir(join(d, 'data', 'dropped'), { recursive: true })
    await symlink(join(d, 'data'), join(d, 'looks-fine'))
    await expect(checkWatchedFolder(join(d, 'looks-fine'), ctx)).rejects.toMatchObject({ rule: 'data_directory' })
    await mkdir(join(d, 'Receipts'))
    await expect(checkWatchedFolder(join(d, 'Receipts'), ctx)).resolves.toBe(join(d, 'Receipts'))
  })
})

describe('checkDestination and checkAcceptedKinds', () => {
  it('takes a destination inside the folder or picked, never the folder itself or a link out of it', async () => {
    const d = await tmp()
    const folder = join(d, 'Receipts')
    await mkdir(join(folder, 'Done'), { recursive: true })
    const none = () => false
    await expect(checkDestination(join(folder, 'Done'), folder, none)).resolves.toBeUndefined()
    await expect(checkDestination(join(folder, 'Later', 'Not yet made'), folder, none)).resolves.toBeUndefined()
    await expect(checkDestination(folder, folder, none)).rejects.toMatchObject({ rule: 'destination_is_folder', fields: { archiveDir: expect.any(String) } })
    const startup = join(d, '.config', 'autostart')
    await mkdir(startup, { recursive: true })
    await expect(checkDestination(startup, folder, none)).rejects.toMatchObject({ rule: 'destination_outside' })
    await symlink(startup, join(folder, 'Sneaky'))
    await expect(checkDestination(join(folder, 'Sneaky'), folder, none)).rejects.toMatchObject({ rule: 'destination_outside' })
    await expect(checkDestination(startup, folder, (p) => p === startup)).resolves.toBeUndefined()
  })

  it("takes accepted kinds only from Bookdrop's list", () => {
    expect(() => checkAcceptedKinds(['pdf', '.PNG', 'csv'])).not.toThrow()
    expect(() => checkAcceptedKinds(undefined)).not.toThrow()
    expect(() => checkAcceptedKinds(['pdf', 'exe', 'desktop'])).toThrow(/does not send \.exe, \.desktop files/)
  })
})

describe('folders saved before the rules', () => {
  it('a stored folder that breaks a rule is not watched after a restart, and says which rule', async () => {
    const { rig } = await import('../engine/helpers')
    const r = await rig()
    try {
      const ok = await r.engine.addFolder({ profileId: 'p1', path: r.inbox, target: 'expenses' })
      // As an older version, or another program writing the database, could have left it.
      r.engine.folders.save({ ...ok, id: 'planted', path: '/etc', addedAt: Date.now() })
      await r.reopen()
      const folders = r.engine.listFolders()
      expect(folders.find((f) => f.id === 'planted')).toMatchObject({ state: 'error', message: expect.stringMatching(/^Not watched: \/etc is a system folder/) })
      await waitForState(() => r.engine.listFolders().find((f) => f.id === ok.id)?.state === 'watching')
    } finally {
      await r.close()
    }
  })
})

async function waitForState(fn: () => boolean): Promise<void> {
  const until = Date.now() + 15_000
  while (!fn()) {
    if (Date.now() > until) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('through the calls', () => {
  let r: AppRig | null = null
  afterEach(async () => {
    await r?.close()
    r = null
  })

  async function business(shellPick: string | null = null): Promise<{ r: AppRig; id: string }> {
    r = await appRig({ shell: { pickDirectory: async () => shellPick, showItemInFolder: async () => false } })
    const id = await addProfile(r)
    await r.ok('setActiveProfile', { id })
    return { r, id }
  }

  it('the web host never reads a path the page sends', async () => {
    const { r } = await business()
    const file = join(r.dir, 'receipt.txt')
    await writeFile(file, 'Total 100')
    const res = await r.call('addFiles', { paths: [file], target: 'expenses' })
    expect(res.ok ? null : res.error).toMatchObject({ code: 'path_not_allowed', message: expect.stringMatching(/dropping them on the window/) })
    expect((await r.ok('history', {})).total).toBe(0)
  })

  it('refuses system folders, the data folder, foreign destinations and unknown kinds, each naming its rule', async () => {
    const inbox0 = join(tmpdir(), `bookdrop-paths-inbox-${process.pid}-${Date.now()}`)
    dirs.push(inbox0)
    const { r, id } = await business(inbox0)
    const inbox = join(r.dir, 'Receipts')
    await mkdir(inbox)
    const refused = async (req: Parameters<AppRig['call']>[1]) => {
      const res = await r.call('addFolder', req as never)
      return res.ok ? null : { code: res.error.code, message: res.error.message, fields: Object.keys(res.error.fields ?? {}) }
    }
    expect(await refused({ profileId: id, path: '/etc', target: 'expenses' })).toMatchObject({ code: 'folder_system_directory', fields: ['path'] })
    expect(await refused({ profileId: id, path: r.dataDir, target: 'expenses' })).toMatchObject({ code: 'folder_data_directory', message: expect.stringMatching(/data folder/) })
    expect(await refused({ profileId: id, path: '/', target: 'expenses' })).toMatchObject({ code: 'folder_filesystem_root' })
    const autostart = join(r.dir, '.config', 'autostart')
    await mkdir(autostart, { recursive: true })
    expect(await refused({ profileId: id, path: inbox, target: 'expenses', afterUpload: 'archive', archiveDir: autostart })).toMatchObject({
      code: 'folder_destination_outside',
      fields: ['archiveDir'],
    })
    expect(await refused({ profileId: id, path: inbox, target: 'expenses', acceptedKinds: ['pdf', 'desktop'] })).toMatchObject({
      code: 'folder_unknown_kind',
      fields: ['acceptedKinds'],
    })
    expect(await r.ok('listFolders', {})).toEqual([])

    // Inside the folder is fine; so is a folder picked in the native picker.
    const f = await r.ok('addFolder', { profileId: id, path: inbox, target: 'expenses', afterUpload: 'archive', archiveDir: join(inbox, 'Done') })
    await mkdir(inbox0)
    expect((await r.ok('pickDirectory', {})).path).toBe(inbox0)
    const moved = await r.ok('updateFolder', { id: f.id, patch: { archiveDir: inbox0 } })
    expect(moved.archiveDir).toBe(inbox0)
    // A change elsewhere does not ask again for the picked folder; a new foreign one is refused.
    expect((await r.ok('updateFolder', { id: f.id, patch: { recursive: false } })).archiveDir).toBe(inbox0)
    const foreign = await r.call('updateFolder', { id: f.id, patch: { archiveDir: autostart } })
    expect(foreign.ok ? null : foreign.error.code).toBe('folder_destination_outside')
    const systemMove = await r.call('updateFolder', { id: f.id, patch: { path: '/usr/share' } })
    expect(systemMove.ok ? null : systemMove.error.code).toBe('folder_system_directory')
  })
})
