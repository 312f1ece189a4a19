/**
 * Issue 34: a mail account's state is sent with its code, so the Mail screen words it in the
 * person's language. A real IMAP connection to a port where nothing listens (this computer), and
 * main's own classification of the failure; the English text stays for logs and the headless mode.
 */
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { wordCoded } from '../../contract/i18n/all'
import type { MailAccountConfig } from '../../contract/types'
import { imapServer } from '../../src-main/core/mail/imap'
import { MailError } from '../../src-main/core/mail/provider'

/** A port nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok))
  const port = (s.address() as { port: number }).port
  await new Promise<void>((ok) => s.close(() => ok()))
  return port
}

const account = (port: number): MailAccountConfig => ({
  id: 'm1',
  profileId: 'p1',
  label: 'Boîte du magasin',
  kind: 'imap',
  host: '127.0.0.1',
  port,
  security: 'plain',
  user: 'recus@boulangerie.test',
  usePolling: false,
  pollSeconds: 60,
  enabled: true,
  addedAt: 0,
})

describe("a mail account's state in the person's language", () => {
  it('a server that refuses the connection: coded "cannot be reached", worded in French, English kept', async () => {
    const port = await closedPort()
    const e = await imapServer.connect(account(port), 'secret-pw', AbortSignal.timeout(10_000)).then(
      () => null,
      (x: unknown) => x,
    )
    expect(e).toBeInstanceOf(MailError)
    const me = e as MailError
    expect(me.problem).toBe('unreachable')
    expect(me.message).toBe(
      `mail account "Boîte du magasin": the server 127.0.0.1:${port} cannot be reached (ECONNREFUSED). Check the server name and port and your connection; Bookdrop keeps trying.`,
    )
    expect(me.coded).toMatchObject({ code: 'mail.state.unreachable', params: { where: `127.0.0.1:${port}`, code: 'ECONNREFUSED' } })
    expect(wordCoded(me.coded!, 'fr')).toBe(
      `Compte de messagerie « Boîte du magasin » : le serveur 127.0.0.1:${port} est injoignable (ECONNREFUSED). ` +
        'Vérifiez le nom du serveur, le port et votre connexion ; Bookdrop continue d’essayer.',
    )
    expect(JSON.stringify(me.coded)).not.toContain('secret-pw')
  })

  it('no password saved: coded, worded in French', async () => {
    const e = await imapServer.connect(account(1), null, AbortSignal.timeout(5_000)).then(
      () => null,
      (x: unknown) => x as MailError,
    )
    expect(e?.coded?.code).toBe('mail.state.no_password')
    expect(wordCoded(e!.coded!, 'fr')).toMatch(/^Compte de messagerie « Boîte du magasin » : aucun mot de passe n’est enregistré pour recus@boulangerie\.test\./)
  })
})
