/**
 * The headless CLI as a person runs it: a real child process, real folders, the emulator over HTTP,
 * the key from BOOKDROP_API_KEY, --demo, or a keychain profile.
 */
import { existsSync } from 'node:fs'
import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ProfileManager, openSecretStore } from '../../src-main/core/secrets'
import { keychainTitle, skipKeychain } from '../secrets/keychain-helpers'
import { type Run, HEADLESS_CLI, runCommand, useHeadlessRig } from './headless-helpers'
import { KEY, createdBySha, receipt } from './helpers'

function run(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  return runCommand([...HEADLESS_CLI, ...args], { ...process.env, BOOKDROP_API_KEY: '', ...env })
}

const rig = useHeadlessRig('bookdrop-headless-')
const folder = rig.folder

describe('headless', () => {
  it('--once uploads what is in the folder, prints a line per file and a summary, exits 0', async () => {
    const inbox = await folder('once')
    const a = await receipt(inbox, 'a.txt')
    const b = await receipt(inbox, 'b.txt')
    await writeFile(join(inbox, 'setup.exe'), 'MZ')
    const r = run(
      [
        '--watch',
        inbox,
        '--target',
        'expenses',
        '--base-url',
        rig.sb.url,
        '--data-dir',
        join(rig.dir, 'd-once'),
        '--once',
        '--after-upload',
        'move',
      ],
      {
        BOOKDROP_API_KEY: KEY,
      },
    )
    expect(await r.exit, r.out()).toBe(0)
    expect(r.out()).toMatch(/done\s+#\d+ a\.txt ->/)
    expect(r.out()).toMatch(/skipped\s+#\d+ setup\.exe: \.exe files are not sent/)
    expect(r.out()).toMatch(/summary: 2 completed, 0 failed, 1 skipped \(3 files\)/)
    expect(r.out()).not.toContain(KEY)
    const made = await createdBySha(rig.sb)
    expect(made.get(a.sha256)).toBe(1)
    expect(made.get(b.sha256)).toBe(1)
    expect(existsSync(join(inbox, 'Uploaded', 'a.txt'))).toBe(true)
    expect(existsSync(join(inbox, 'setup.exe'))).toBe(true) // never moved: it was not sent
  })

  it('--watch given twice on a fresh data folder watches both folders: --once sends what each holds', async () => {
    const a = await folder('twice-a')
    const b = await folder('twice-b')
    const fa = await receipt(a, 'from-a.txt')
    const fb = await receipt(b, 'from-b.txt')
    const args = ['--watch', a, '--watch', b, '--base-url', rig.sb.url, '--data-dir', join(rig.dir, 'd-twice-once')]
    const r = run([...args, '--once'], { BOOKDROP_API_KEY: KEY })
    expect(await r.exit, r.out()).toBe(0)
    expect(r.out()).toContain(`watching ${a} and ${b} for expenses`)
    expect(r.out()).toMatch(/done\s+#\d+ from-a\.txt ->/)
    expect(r.out()).toMatch(/done\s+#\d+ from-b\.txt ->/)
    const made = await createdBySha(rig.sb)
    expect(made.get(fa.sha256)).toBe(1)
    expect(made.get(fb.sha256)).toBe(1)
  })

  it('--watch given twice, watching: files saved later in either folder are sent', async () => {
    const a = await folder('watch2-a')
    const b = await folder('watch2-b')
    const r = run(['--watch', a, '--watch', b, '--base-url', rig.sb.url, '--data-dir', join(rig.dir, 'd-twice-watch')], {
      BOOKDROP_API_KEY: KEY,
    })
    try {
      while (!/watching /.test(r.out()) && r.child.exitCode === null) await new Promise((s) => setTimeout(s, 20))
      const fa = await receipt(a, 'later-a.txt')
      const fb = await receipt(b, 'later-b.txt')
      const end = Date.now() + 30_000
      while (!(/done\s+#\d+ later-a\.txt/.test(r.out()) && /done\s+#\d+ later-b\.txt/.test(r.out()))) {
        if (Date.now() > end || r.child.exitCode !== null) throw new Error(`both files were not sent:\n${r.out()}`)
        await new Promise((s) => setTimeout(s, 25))
      }
      const made = await createdBySha(rig.sb)
      expect(made.get(fa.sha256)).toBe(1)
      expect(made.get(fb.sha256)).toBe(1)
    } finally {
      r.child.kill('SIGTERM')
      expect(await r.exit).toBe(0)
    }
  }, 60_000)

  it('a file name holding a newline or a bidi override is printed on one line, escaped: it cannot forge a line', async () => {
    const inbox = await folder('names')
    const forged = 'evil\nFAILED     #99 forged.pdf'
    await receipt(inbox, forged)
    await writeFile(join(inbox, 'invoice\u202Efdp.exe'), 'MZ')
    const r = run(['--watch', inbox, '--base-url', rig.sb.url, '--data-dir', join(rig.dir, 'd-names'), '--once'], {
      BOOKDROP_API_KEY: KEY,
    })
    expect(await r.exit, r.out()).toBe(0)
    const lines = r.out().split('\n')
    expect(lines.filter((l) => l.startsWith('FAILED'))).toEqual([])
    expect(lines.some((l) => /^done\s+#\d+ evil\\nFAILED {5}#99 forged\.pdf ->/.test(l))).toBe(true)
    expect(r.out()).not.toContain('\u202E')
    expect(r.out()).toMatch(/skipped\s+#\d+ invoice\\u\{202E\}fdp\.exe: /)
  })

  it('--once exits 1 when a file failed, and says why', async () => {
    const inbox = await folder('fail')
    await receipt(inbox, 'bad.txt', 'Receipt [[sandbox:fail]] total 10\n')
    const r = run(
      ['--watch', inbox, '--base-url', rig.sb.url, '--data-dir', join(rig.dir, 'd-fail'), '--once'],
      {
        BOOKDROP_API_KEY: KEY,
      },
    )
    expect(await r.exit, r.out()).toBe(1)
    expect(r.out()).toMatch(/FAILED\s+#\d+ bad\.txt: /)
    expect(r.out()).toMatch(/summary: 0 completed, 1 failed/)
  })

  it('without a key it says how to give one and exits 2; a public key is refused before any upload', async () => {
    const inbox = await folder('nokey')
    const r = run(['--watch', inbox, '--base-url', rig.sb.url, '--data-dir', join(rig.dir, 'd-nokey')])
    expect(await r.exit).toBe(2)
    expect(r.out()).toMatch(/BOOKDROP_API_KEY|--profile|--demo/)
    const p = run(['--watch', inbox, '--base-url', rig.sb.url, '--data-dir', join(rig.dir, 'd-nokey')], {
      BOOKDROP_API_KEY: 'svc_pk_public',
    })
    expect(await p.exit).toBe(2)
    expect(p.out()).toMatch(/public key|secret key/i)
    expect(p.out()).not.toContain('svc_pk_public')
  })

  it('--demo runs on the embedded emulator with its demo key', async () => {
    const inbox = await folder('demo')
    await receipt(inbox, 'demo.txt')
    const r = run(['--watch', inbox, '--demo', '--data-dir', join(rig.dir, 'd-demo'), '--once'])
    expect(await r.exit, r.out()).toBe(0)
    expect(r.out()).toMatch(/demo emulator at http:\/\/127\.0\.0\.1:\d+\/v1/)
    expect(r.out()).toMatch(/summary: 1 completed/)
  })

  it('--demo without --data-dir writes nothing in the home or configuration folder, only in a temporary one', async () => {
    const inbox = await folder('demo-trace')
    await receipt(inbox, 'trace.txt')
    const home = await folder('demo-trace-home')
    const config = await folder('demo-trace-config')
    const r = run(['--watch', inbox, '--demo', '--once'], { HOME: home, XDG_CONFIG_HOME: config, BOOKDROP_DATA_DIR: '' })
    expect(await r.exit, r.out()).toBe(0)
    expect(r.out()).toMatch(/summary: 1 completed/)
    expect(await readdir(home)).toEqual([])
    expect(await readdir(config)).toEqual([])
    const temp = /the demo keeps its data in (\S+), a temporary folder/.exec(r.out())?.[1]
    expect(temp, r.out()).toBeDefined()
    expect(existsSync(temp!)).toBe(false)
    // Asked for, the demo's data stays where asked.
    const kept = join(rig.dir, 'd-demo-kept')
    const again = run(['--watch', inbox, '--demo', '--once', '--data-dir', kept], { HOME: home, XDG_CONFIG_HOME: config })
    expect(await again.exit, again.out()).toBe(0)
    expect(existsSync(join(kept, 'bookdrop.db'))).toBe(true)
    expect(await readdir(config)).toEqual([])
  })

  it('SIGTERM stops cleanly, and a restart resumes and finishes without sending anything twice', async () => {
    const inbox = await folder('resume')
    const files = await Promise.all(Array.from({ length: 20 }, (_, i) => receipt(inbox, `s${i}.txt`)))
    const args = ['--watch', inbox, '--base-url', rig.sb.url, '--data-dir', join(rig.dir, 'd-resume')]
    const first = run(args, { BOOKDROP_API_KEY: KEY })
    while (!/done|processing/.test(first.out())) await new Promise((s) => setTimeout(s, 20))
    first.child.kill('SIGTERM')
    expect(await first.exit).toBe(0)
    expect(first.out()).toMatch(/SIGTERM, stopping/)
    expect(first.out()).toMatch(/summary: /)
    const second = run([...args, '--once'], { BOOKDROP_API_KEY: KEY })
    expect(await second.exit, second.out()).toBe(0)
    const made = await createdBySha(rig.sb)
    for (const f of files) expect(made.get(f.sha256)).toBe(1)
  })

  it.skipIf(skipKeychain)(keychainTitle('--profile takes the key from the OS keychain'), async () => {
    const dataDir = join(rig.dir, 'd-profile')
    const { store, problem } = await openSecretStore()
    expect(problem).toBeNull()
    const manager = await ProfileManager.open({ dataDir, store })
    const profile = await manager.add({
      name: 'Headless Bakery',
      environment: 'custom',
      baseUrl: rig.sb.url,
      kind: 'business',
      secret: KEY,
    })
    try {
      const inbox = await folder('profile')
      const f = await receipt(inbox, 'kc.txt')
      const r = run(['--watch', inbox, '--profile', 'Headless Bakery', '--data-dir', dataDir, '--once'])
      expect(await r.exit, r.out()).toBe(0)
      expect(r.out()).toMatch(/as profile "Headless Bakery"/)
      expect((await createdBySha(rig.sb)).get(f.sha256)).toBe(1)
      const missing = run(['--watch', inbox, '--profile', 'Nobody', '--data-dir', dataDir, '--once'])
      expect(await missing.exit).toBe(2)
      expect(missing.out()).toMatch(/no profile named "Nobody"; profiles: Headless Bakery/)
    } finally {
      await manager.remove(profile.id)
    }
  })
})
