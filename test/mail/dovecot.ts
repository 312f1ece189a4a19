/**
 * Dovecot for the mail tests: ./dovecot-server.ts starts it; this adds vitest's hooks (one server
 * per test file, stopped after it) and `describeMail`.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import { type Dovecot, HAVE_DOVECOT, MAIL_USER, startDovecot } from './dovecot-server'

export * from './dovecot-server'

/**
 * `describe`, or `describe.skip` where Dovecot is not installed and CI is not `true` (as the
 * browser tests do without Chromium): `.ci/run` installs dovecot-imapd, so CI always runs them.
 */
export const describeMail: typeof describe =
  HAVE_DOVECOT || process.env.CI === 'true' ? describe : (describe.skip as typeof describe)

/** A Dovecot for the calling file's tests, started before them and stopped after. */
export function useDovecot(opts: { tls?: boolean; separator?: string } = {}): { readonly server: Dovecot } {
  let server: Dovecot | undefined
  beforeAll(async () => {
    if (!HAVE_DOVECOT && process.env.CI !== 'true') return
    server = await startDovecot(opts)
  }, 30_000)
  afterAll(async () => {
    await server?.stop()
  })
  return {
    get server() {
      if (!server) throw new Error('Dovecot is not started yet: use it inside a test')
      return server
    },
  }
}

/** The IMAP URL of the test user's `mailbox` on a Dovecot (or a proxy in front of it) on loopback at `port`. */
export function imapUrl(port: number, mailbox: string): string {
  return `imap://${encodeURIComponent(MAIL_USER)}@127.0.0.1:${port}/${mailbox}`
}
