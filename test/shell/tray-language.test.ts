/**
 * The tray and notifications speak the person's language (issue 34): main.ts boots on the Electron
 * stand-in with the OS's preferred languages set to German (the stand-in's
 * `getPreferredSystemLanguages`, the one function the shell asks), and the tray menu reads German.
 */
import { describe, expect, it, vi } from 'vitest'
import { FakeBrowserWindow, FakeNotification, FakeTray, fake, fakeEvent } from './fake-electron'
import { useDesktop } from './desktop'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
vi.mock(import('../../src-main/core/secrets'), async (real) =>
  (await import('./desktop')).withMemoryKeychain(await real()),
)

/** English words of the tray that must not show in German. */
const ENGLISH = /\b(Open|Pause|Quit|uploads|Not connected|needs attention|file)\b/

useDesktop({
  prefix: 'bookdrop-tray-de-',
  prepare: () => {
    fake.app.systemLanguages = ['ja-JP', 'de-DE', 'en-US']
  },
  ready: () => {
    expect(FakeBrowserWindow.all).toHaveLength(1)
    expect(FakeTray.all).toHaveLength(1)
  },
  cleanup: () => {
    fake.app.systemLanguages = ['en-US']
  },
})

describe('the tray in the OS language', () => {
  it('shows its state, tooltip and menu in German (the first preferred language Bookdrop has)', () => {
    const tray = FakeTray.all[0]!
    expect(tray.tooltip).toBe('Bookdrop – Nicht verbunden')
    const labels = tray.menu.filter((i) => i.type !== 'separator').map((i) => i.label)
    expect(labels).toEqual(['Nicht verbunden', 'Bookdrop öffnen', 'Uploads anhalten', 'Bookdrop beenden'])
    for (const label of labels) expect(label).not.toMatch(ENGLISH)
  })

  it('tells what went wrong with a tray drop in a German notification', async () => {
    FakeTray.all[0]!.emit('drop-files', fakeEvent(), ['/tmp/receipt.pdf'])
    await vi.waitFor(() => expect(FakeNotification.shown.length).toBeGreaterThan(0))
    const note = FakeNotification.shown.at(-1)!
    expect(note.body).toContain('Profil')
    expect(note.body).not.toMatch(/\b(Connect|first|profile)\b/)
  })
})
