/**
 * The receipt's life through the headless CLI, as a person runs it (a real child process, the
 * emulator over HTTP, real folders): a job that never finishes, a queue database that cannot be
 * read, two processes on one data folder, and a file first unreadable, run as an unprivileged user
 * (root reads any file, so the CLI itself runs as nobody through setpriv).
 */
import { chmod, chown, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commandWorks } from '../commands'
import { type Run, HEADLESS_CLI, runCommand, useHeadlessRig } from './headless-helpers'
import { KEY, receipt } from './helpers'


function run(args: string[], opts: { asNobody?: boolean } = {}): Run {
  const command = opts.asNobody
    ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...HEADLESS_CLI, ...args]
    : [...HEADLESS_CLI, ...args]
  return runCommand(command, {
    ...process.env,
    BOOKDROP_API_KEY: KEY,
    HOME: opts.asNobody ? tmpdir() : process.env.HOME,
  })
}

async function until(what: string, fn: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const rig = useHeadlessRig('bookdrop-headless-life-', { readableByAll: true })
const folder = rig.folder

const base = (inbox: string, data: string) => ['--watch', inbox, '--target', 'expenses', '--base-url', rig.sb.url, '--data-dir', data]

describe('headless: the receipt lifecycle', () => {
  it('--once with a job that never finishes: gives up after --job-timeout, exits 1 naming the file', async () => {
    const inbox = await folder('stuck')
    const f = await receipt(inbox, 'slow-server.txt')
    rig.sb.setFaults({ stall_jobs: true })
    try {
      const r = run([...base(inbox, join(rig.dir, 'd-stuck')), '--once', '--job-timeout', '2'])
      expect(await r.exit, r.out()).toBe(1)
      expect(r.out()).toContain(`failed: ${f.path}: The server had not finished job`)
      expect(r.out()).toMatch(/after 2 seconds/)
    } finally {
      rig.sb.setFaults({ stall_jobs: false })
    }
  }, 60_000)

  it('a queue database that cannot be read: one message, exit 3; --reset-queue moves it aside and goes on', async () => {
    const inbox = await folder('corrupt')
    const data = await folder('d-corrupt')
    const garbage = Buffer.from('this is not an SQLite database, it was damaged by a full disk '.repeat(200))
    await writeFile(join(data, 'bookdrop.db'), garbage)
    const r = run([...base(inbox, data), '--once'])
    expect(await r.exit, r.out()).toBe(3)
    expect(r.out()).toContain(`the upload queue database ${join(data, 'bookdrop.db')} cannot be read`)
    expect(r.out()).toContain('--reset-queue')
    expect(r.out()).not.toMatch(/^\s+at /m) // no stack trace
    expect(await readFile(join(data, 'bookdrop.db'))).toEqual(garbage) // nothing touched

    await receipt(inbox, 'after-reset.txt')
    const again = run([...base(inbox, data), '--once', '--reset-queue'])
    expect(await again.exit, again.out()).toBe(0)
    expect(again.out()).toMatch(/moved aside to .*bookdrop\.db\.corrupt-\d{4}-\d{2}-\d{2}T/)
    expect(again.out()).toMatch(/done\s+#1 after-reset\.txt/)
    const aside = (await readdir(data)).filter((n) => n.startsWith('bookdrop.db.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(await readFile(join(data, aside[0]!))).toEqual(garbage) // kept, not deleted
  }, 60_000)

  it('a folder where the queue database should be: the same message and exit 3, no stack trace', async () => {
    const inbox = await folder('dir-db')
    const data = await folder('d-dir-db')
    await mkdir(join(data, 'bookdrop.db'))
    const r = run([...base(inbox, data), '--once'])
    expect(await r.exit, r.out()).toBe(3)
    expect(r.out()).toContain(`the upload queue database ${join(data, 'bookdrop.db')} cannot be read`)
    expect(r.out()).not.toMatch(/^\s+at /m)
  }, 60_000)

  it('a second process on the same data folder exits 4, naming the first', async () => {
    const inbox = await folder('twice')
    const data = join(rig.dir, 'd-twice')
    const first = run(base(inbox, data))
    try {
      await until('the first one watching', () => /watching /.test(first.out()))
      const second = run([...base(inbox, data), '--once'])
      expect(await second.exit, second.out()).toBe(4)
      expect(second.out()).toContain(`already running (pid ${first.child.pid})`)
    } finally {
      first.child.kill('SIGTERM')
      expect(await first.exit).toBe(0)
    }
    // Once the first has stopped, the folder is free again.
    const third = run([...base(inbox, data), '--once'])
    expect(await third.exit, third.out()).toBe(0)
  }, 60_000)

  const canDropPrivileges = commandWorks('setpriv', ['--version']) && process.getuid?.() === 0

  it.runIf(canDropPrivileges || process.env.CI === 'true')(
    'a file first unreadable is taken once its permissions are fixed: the same row goes on (run as nobody)',
    async () => {
      const inbox = await folder('locked')
      const data = await folder('d-locked')
      await chown(inbox, 65534, 65534)
      await chown(data, 65534, 65534)
      const f = await receipt(inbox, 'locked.txt')
      await chown(f.path, 65534, 65534)
      await chmod(f.path, 0o000)
      const r = run(base(inbox, data), { asNobody: true })
      try {
        await until('skipped as unreadable', () => /skipped\s+#1 locked\.txt: Bookdrop cannot read this file/.test(r.out()))
        // The person fixes the permissions; the watcher sees the change (mode), and the row goes on.
        await chmod(f.path, 0o644)
        await until('done', () => /done\s+#1 locked\.txt ->/.test(r.out()))
        expect(r.out()).not.toMatch(/#2 locked\.txt/)
      } finally {
        r.child.kill('SIGTERM')
        await r.exit
      }
    },
    60_000,
  )
})
