// @vitest-environment jsdom
/**
 * Issue 34: main's live states read in the person's language. A watched folder that is gone shows
 * its state in German on the Folders screen, and a mail account whose login was refused shows its
 * state in French on its card, live as the state changes; a state without a code (older main)
 * shows main's English. The coded sentences are built by main's own code (the watcher's messages,
 * the IMAP error classifier); the catalogues are the app's, loaded by its own loader.
 */
import { act, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { FolderView } from '../../contract'
import { folderNotFound } from '../../src-main/core/watch/messages'
import { classifyImapError } from '../../src-main/core/mail/imap'
import { fake, mailAccount } from './fake-bridge'
import { freshEachTest, startApp } from './harness'

const { Folders } = await import('../../src-renderer/screens/Folders')
const { Mail } = await import('../../src-renderer/screens/Mail')
const { flushEvents } = await import('../../src-renderer/store/events')
const { setIntl } = await import('../../src-renderer/lib/i18n')

freshEachTest()
afterEach(() => setIntl('en', {}))

function folder(over: Partial<FolderView> = {}): FolderView {
  return {
    id: 'f1',
    profileId: 'p1',
    path: '/home/me/Belege',
    target: 'expenses',
    promptTemplate: '',
    recursive: true,
    acceptedKinds: ['pdf'],
    usePolling: false,
    afterUpload: 'leave',
    archiveDir: null,
    takeExisting: false,
    enabled: true,
    processType: 'async',
    addedAt: 1_767_000_000_000,
    state: 'watching',
    message: null,
    ...over,
  }
}

/** Text with the isolation marks (names and paths keep their direction) taken out. */
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u2066-\u2069]/g, '')

describe("main's states in the person's language", () => {
  it('a watched folder that is gone: its state in German, and live when the watcher says so', async () => {
    fake.state.settings.language = 'de'
    const gone = folderNotFound('/home/me/Belege')
    fake.handlers.listFolders = () => [folder({ state: 'error', message: gone.text, messageCoded: gone })]
    await startApp()
    render(<Folders />)
    const german =
      'Ordner nicht gefunden: /home/me/Belege (entfernt oder nicht eingebunden). Bookdrop überwacht ihn wieder, sobald er zurück ist.'
    await screen.findByText((_, el) => el?.tagName === 'P' && plain(el.textContent) === german)
    expect(document.body.textContent).not.toContain('Folder not found')

    // The folder is back, then gone again as an event (no code: an older main's plain English).
    await act(async () => {
      fake.emit('folder', { folderId: 'f1', state: 'error', message: 'Folder unavailable: /x (EIO).', messageCoded: null })
      flushEvents()
    })
    await screen.findByText('Folder unavailable: /x (EIO).')
    await act(async () => {
      fake.emit('folder', { folderId: 'f1', state: 'error', message: gone.text, messageCoded: gone })
      flushEvents()
    })
    await screen.findByText((_, el) => el?.tagName === 'P' && plain(el.textContent) === german)
  })

  it('a mail account whose login the server refused: its state in French on the card', async () => {
    fake.state.settings.language = 'fr'
    const refused = classifyImapError({ authenticationFailed: true }, {
      label: 'Shop inbox',
      host: 'imap.example.com',
      port: 993,
      user: 'receipts@bakery.test',
    })
    expect(refused.coded?.code).toBe('mail.state.auth')
    fake.state.mail = [
      mailAccount({
        status: { state: 'error', message: refused.message, messageCoded: refused.coded, problem: 'auth', lastCheckAt: null, idle: false },
      }),
    ]
    await startApp()
    render(<Mail />)
    const card = (await screen.findByRole('heading', { name: 'Shop inbox' })).closest('li')!
    const alert = within(card).getByRole('alert')
    expect(plain(alert.textContent)).toBe(
      'Compte de messagerie « Shop inbox » : le serveur a refusé le nom d’utilisateur ou le mot de passe de receipts@bakery.test. ' +
        'Vérifiez-les ; Gmail et Microsoft 365 demandent un mot de passe d’application (voir le README), puis enregistrez-le de nouveau.',
    )
  })
})
