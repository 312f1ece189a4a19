/**
 * Stopping the headless CLI (a real child process) while its end is slow: a mail server that stops
 * answering (a real Dovecot behind a proxy that holds what the client sends) keeps the mailbox's
 * logout waiting. A second Ctrl+C then ends the process at once, saying so, with exit code 7; the
 * same Ctrl+C delivered twice (the terminal's and npm's relay) does not.
 */
import { type Socket, connect, createServer } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { describeMail, imapUrl, MAIL_PASSWORD, useDovecot } from '../mail/dovecot'
import { type Run, HEADLESS_CLI, rigArgs, runCommand, useHeadlessRig } from './headless-helpers'
import { KEY } from './helpers'

const rig = useHeadlessRig('bookdrop-headless-stop-')
const dv = useDovecot()

/** A TCP proxy to Dovecot; once held, what clients send is kept from the server (it never answers). */
async function holdingProxy(target: number): Promise<{ port: number; hold(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  let held = false
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => undefined)
      s.on('close', () => sockets.delete(s))
    }
    client.on('data', (d: Buffer) => void (held || upstream.write(d)))
    upstream.pipe(client)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    port: (server.address() as { port: number }).port,
    hold: () => void (held = true),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => r())
      }),
  }
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of closers.splice(0)) await c()
})

async function until(what: string, r: Run, re: RegExp, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!re.test(r.out())) {
    if (Date.now() > end || r.child.exitCode !== null) throw new Error(`no ${what}:\n${r.out()}`)
    await new Promise((s) => setTimeout(s, 25))
  }
}

/** The CLI reading a mailbox through a proxy that is then held: its stop waits on the logout. */
async function slowToStop(data: string): Promise<Run> {
  const proxy = await holdingProxy(dv.server.port)
  closers.push(proxy.close)
  const r = runCommand([...HEADLESS_CLI, '--mail', imapUrl(proxy.port, 'INBOX'), ...rigArgs(rig, data)], {
    ...process.env,
    BOOKDROP_API_KEY: KEY,
    BOOKDROP_MAIL_PASSWORD: MAIL_PASSWORD,
  })
  closers.push(async () => {
    if (r.child.exitCode === null) r.child.kill('SIGKILL')
    await r.exit
  })
  await until('mailbox connected', r, /mail .*: connected/)
  proxy.hold()
  return r
}

describeMail('headless: a second Ctrl+C', () => {
  it('while it is finishing, ends it at once with a line saying so and exit code 7', async () => {
    const r = await slowToStop('d-forced')
    r.child.kill('SIGINT')
    await until('stopping line', r, /SIGINT, stopping/)
    await new Promise((s) => setTimeout(s, 500))
    expect(r.child.exitCode, r.out()).toBeNull() // still finishing: the server does not answer its logout
    const second = Date.now()
    r.child.kill('SIGINT')
    expect(await r.exit, r.out()).toBe(7)
    expect(Date.now() - second).toBeLessThan(1000)
    expect(r.out()).toMatch(/SIGINT, stopping .*; press Ctrl\+C again to stop at once/)
    expect(r.out()).toContain('bookdrop: second SIGINT: stopped at once, without finishing')
  }, 60_000)

  it('one Ctrl+C delivered twice at once (the terminal and npm) is one: the stop finishes, exit 0', async () => {
    const r = await slowToStop('d-relayed')
    r.child.kill('SIGINT')
    r.child.kill('SIGINT')
    expect(await r.exit, r.out()).toBe(0)
    expect(r.out()).toMatch(/summary: /)
    expect(r.out()).not.toContain('stopped at once')
  }, 60_000)
})
