/**
 * A real IMAP server for the mail tests: Dovecot (Debian's dovecot-imapd, installed by .ci/run),
 * started per test file as an unprivileged process (run as `nobody` when the tests run as root) on
 * free loopback ports, with a temporary maildir, a password file with one test user, plain IMAP
 * (loopback) and, when asked, a self-signed certificate for IMAPS and STARTTLS. Mails are put there
 * by IMAP APPEND. Nothing is mocked. (Plain Node: the tests (./dovecot.ts) and the bench use it.)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { type Socket, createServer, connect as netConnect } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { ImapFlow } from 'imapflow'

export const DOVECOT = '/usr/sbin/dovecot'
export const HAVE_DOVECOT = existsSync(DOVECOT)

export const MAIL_USER = 'receipts@bakery.test'
export const MAIL_PASSWORD = 'corr3ct-h0rse-battery'

export interface Dovecot {
  /** Plain IMAP on 127.0.0.1 (STARTTLS offered when started with tls). */
  port: number
  /** IMAPS (implicit TLS) when started with tls. */
  tlsPort: number | null
  /** The self-signed certificate (PEM) when started with tls. */
  certFile: string | null
  dir: string
  /** A logged-in imapflow client (the test's own view of the mailbox). */
  client(): Promise<ImapFlow>
  /** Puts a raw message in a mailbox (created when missing), as an MTA would deliver it. */
  append(mailbox: string, raw: string | Buffer, o?: { flags?: string[]; date?: Date }): Promise<number>
  /** UIDs, flags and subjects of a mailbox. */
  mailbox(
    mailbox: string,
  ): Promise<{ uidValidity: string; mails: { uid: number; subject: string; seen: boolean }[] }>
  /** Deletes a mailbox and makes it again: a new UIDVALIDITY, as a server renumbering does. */
  recreate(mailbox: string): Promise<void>
  log(): Promise<string>
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

async function waitForGreeting(port: number, deadline: number): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = netConnect(port, '127.0.0.1')
      sock.once('data', (d) => {
        sock.destroy()
        resolve(d.toString().startsWith('* OK'))
      })
      sock.once('error', () => resolve(false))
    })
    if (ok) return
    if (Date.now() > deadline) throw new Error(`Dovecot did not answer on port ${port}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

export async function startDovecot(opts: { tls?: boolean; separator?: string } = {}): Promise<Dovecot> {
  const dir = await mkdtemp(join(tmpdir(), 'bd-dovecot-'))
  await chmod(dir, 0o755)
  const root = process.getuid?.() === 0
  // As root, Dovecot runs as nobody; otherwise as this user. Either way no privilege is needed.
  const runAs = root
    ? { user: 'nobody', group: 'nogroup', uid: 65534, gid: 65534 }
    : { user: userInfo().username, group: '', uid: -1, gid: -1 }
  if (!runAs.group) runAs.group = execFileSync('id', ['-gn']).toString().trim()
  const base = join(dir, 'run')
  const mail = join(dir, 'mail')
  await mkdir(base)
  await mkdir(mail)
  const port = await freePort()
  const tlsPort = opts.tls ? await freePort() : null
  let certFile: string | null = null
  let ssl = 'ssl = no'
  if (opts.tls) {
    certFile = join(dir, 'cert.pem')
    const keyFile = join(dir, 'key.pem')
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    )
    ssl = `ssl = yes\nssl_cert = <${certFile}\nssl_key = <${keyFile}\nssl_min_protocol = TLSv1.2`
  }
  await writeFile(join(dir, 'passwd'), `${MAIL_USER}:{PLAIN}${MAIL_PASSWORD}\n`)
  const conf = `
protocols = imap
listen = 127.0.0.1
base_dir = ${base}
state_dir = ${base}/state
instance_name = bd-${port}
log_path = ${dir}/dovecot.log
${ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = ${runAs.user}
default_internal_user = ${runAs.user}
default_internal_group = ${runAs.group}
mail_location = maildir:${mail}/%n
first_valid_uid = 0
mail_max_userip_connections = 50
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${runAs.user} gid=${runAs.group} home=${mail}/%n
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${tlsPort ?? 0}
  }
}
service anvil {
  chroot =
}
service auth {
  user = ${runAs.user}
}
service auth-worker {
  user = ${runAs.user}
}
namespace inbox {
  inbox = yes
  separator = ${opts.separator ?? '/'}
}
`
  await writeFile(join(dir, 'dovecot.conf'), conf)
  if (root) {
    for (const p of [
      dir,
      base,
      mail,
      join(dir, 'passwd'),
      join(dir, 'dovecot.conf'),
      ...(certFile ? [certFile, join(dir, 'key.pem')] : []),
    ])
      await chown(p, runAs.uid, runAs.gid)
  }
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', join(dir, 'dovecot.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(root ? { uid: runAs.uid, gid: runAs.gid } : {}),
  })
  let out = ''
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  try {
    await Promise.race([
      waitForGreeting(port, Date.now() + 15_000),
      exited.then(() => {
        throw new Error(`Dovecot exited: ${out}`)
      }),
    ])
  } catch (e) {
    child.kill('SIGKILL')
    throw e
  }

  const client = async () => {
    const c = new ImapFlow({
      host: '127.0.0.1',
      port,
      secure: false,
      doSTARTTLS: false,
      auth: { user: MAIL_USER, pass: MAIL_PASSWORD },
      logger: false,
    })
    await c.connect()
    return c
  }
  const withClient = async <T>(fn: (c: ImapFlow) => Promise<T>): Promise<T> => {
    const c = await client()
    try {
      return await fn(c)
    } finally {
      await c.logout().catch(() => c.close())
    }
  }
  return {
    port,
    tlsPort,
    certFile,
    dir,
    client,
    append: (mailbox, raw, o = {}) =>
      withClient(async (c) => {
        if (mailbox.toUpperCase() !== 'INBOX') await c.mailboxCreate(mailbox.split('/'))
        const r = await c.append(mailbox.split('/'), raw, o.flags ?? [], o.date)
        return r && typeof r === 'object' && 'uid' in r ? Number(r.uid) : 0
      }),
    mailbox: (mailbox) =>
      withClient(async (c) => {
        const mb = await c.mailboxOpen(mailbox.split('/'))
        const mails: { uid: number; subject: string; seen: boolean }[] = []
        if (mb.exists > 0) {
          for await (const m of c.fetch('1:*', { uid: true, envelope: true, flags: true })) {
            mails.push({
              uid: m.uid,
              subject: m.envelope?.subject ?? '',
              seen: m.flags?.has('\\Seen') ?? false,
            })
          }
        }
        return { uidValidity: String(mb.uidValidity), mails }
      }),
    recreate: (mailbox) =>
      withClient(async (c) => {
        await c.mailboxDelete(mailbox.split('/'))
        // UIDVALIDITY comes from the clock: wait a second so the new one differs.
        await new Promise((r) => setTimeout(r, 1100))
        await c.mailboxCreate(mailbox.split('/'))
      }),
    log: async () => `${out}\n${await readFile(join(dir, 'dovecot.log'), 'utf8').catch(() => '')}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      }
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** A TCP proxy in front of a server, whose connections the test can cut (a server that drops). */
export interface Proxy {
  port: number
  /** Bytes sent from the server to clients so far. */
  readonly toClient: number
  /** Connections accepted so far. */
  readonly accepted: number
  /** Cuts every open connection (both sides destroyed, as a lost network or a server crash). */
  dropAll(): void
  close(): Promise<void>
}

export async function tcpProxy(targetPort: number): Promise<Proxy> {
  const sockets = new Set<Socket>()
  let toClient = 0
  let accepted = 0
  const server = createServer((client) => {
    accepted++
    const upstream = netConnect(targetPort, '127.0.0.1')
    sockets.add(client)
    sockets.add(upstream)
    upstream.on('data', (d: Buffer) => {
      toClient += d.length
    })
    client.pipe(upstream)
    upstream.pipe(client)
    const end = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on('error', end)
    upstream.on('error', end)
    client.on('close', end)
    upstream.on('close', end)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    port: (server.address() as { port: number }).port,
    get toClient() {
      return toClient
    },
    get accepted() {
      return accepted
    },
    dropAll() {
      for (const s of sockets) s.destroy()
      sockets.clear()
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => r())
      }),
  }
}
