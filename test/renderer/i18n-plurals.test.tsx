// @vitest-environment jsdom
/**
 * Issue 34: with German active, the toast and the screen-reader announcement after adding one file
 * and after adding two read in German, singular then plural, with no English word. German is chosen
 * in Settings and loaded by the app's own loader; Arabic and Indonesian are checked on the shipped
 * area files (contract/i18n/<locale>/*.json, merged).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fake, upload } from './fake-bridge'
import { freshEachTest, startApp, useApp } from './harness'

const { Capture } = await import('../../src-renderer/screens/Capture')
const { Toasts } = await import('../../src-renderer/components/Toasts')
const { BatchAnnouncer } = await import('../../src-renderer/components/BatchAnnouncer')
const { flushEvents } = await import('../../src-renderer/store/events')
const { setIntl } = await import('../../src-renderer/lib/i18n')
const { batchAnnouncement, intakeSummary } = await import('../../src-renderer/lib/batch')

/** A language's messages: every area's file of contract/i18n/<locale>/, merged. */
function catalogue(locale: string): Record<string, string> {
  const dir = join(__dirname, '../../contract/i18n', locale)
  const all: Record<string, string> = {}
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')))
    Object.assign(all, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, string>)
  return all
}

/** The words of a text (letters only): what a person would read as words. */
const words = (s: string) => s.match(/\p{L}+/gu) ?? []

freshEachTest()
afterEach(() => setIntl('en', {}))

/** Picks files with the drop zone's file input, as a person does with "Add files…". */
async function addFiles(names: string[]): Promise<void> {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!
  const files = names.map((n) => new File([new Uint8Array(100)], n, { type: 'application/pdf' }))
  await act(async () => {
    fireEvent.change(input, { target: { files } })
  })
}

/** The capture screen with the window's toasts and its live announcer, as the app shows them. */
function showCapture(): void {
  render(
    <>
      <Capture />
      <Toasts />
      <BatchAnnouncer />
    </>,
  )
}

const toastTexts = () => [...document.querySelectorAll('.toast__text')].map((t) => t.textContent ?? '')
const announced = () => screen.getByTestId('batch-announcer').textContent ?? ''

describe('German plurals after adding files', () => {
  it('one file, then two: singular then plural in the toast and the announcement, no English word', async () => {
    // German chosen in Settings: the app loads its catalogue as it does for a person.
    fake.state.settings.language = 'de'
    await startApp()
    showCapture()
    // The screen itself is German (the drop zone's title comes from the catalogue).
    expect(screen.getByText('Belege und Dokumente hier ablegen')).toBeTruthy()

    await addFiles(['beleg-1.pdf'])
    await vi.waitFor(() => expect(toastTexts()).toContain('1 Datei hinzugefügt.'))
    await vi.waitFor(() => expect(announced()).toBe('1 Datei wird gesendet.'))

    // The file goes through: the batch is over, said once in German.
    const [id] = useApp.getState().batch
    const row = useApp.getState().live[id!]!
    fake.emit('upload', { upload: { ...row, status: 'completed' }, previous: row.status })
    act(() => flushEvents())
    await vi.waitFor(() => expect(announced()).toBe('Stapel fertig: 1 Datei gesendet.'))

    await addFiles(['beleg-2.pdf', 'beleg-3.pdf'])
    await vi.waitFor(() => expect(toastTexts()).toContain('2 Dateien hinzugefügt.'))
    await vi.waitFor(() => expect(announced()).toBe('2 Dateien werden gesendet.'))

    // No English word: none of the words the English interface says at these moments.
    const english = new Set(
      ['1 added.', '2 added.', 'Sending 1 file.', 'Sending 2 files.', 'Batch done: 1 sent.'].flatMap(words),
    )
    for (const said of [...toastTexts(), announced(), 'Stapel fertig: 1 Datei gesendet.'])
      expect(words(said).filter((w) => english.has(w))).toEqual([])
  })

  it('the same moments in English stay as they were (English is the default)', async () => {
    await startApp()
    showCapture()
    await addFiles(['receipt-a.pdf', 'receipt-b.pdf'])
    await vi.waitFor(() => expect(toastTexts()).toContain('2 added.'))
    await vi.waitFor(() => expect(announced()).toBe('Sending 2 files.'))
  })
})

describe('plural forms of other languages', () => {
  /** `n` files still on their way. */
  const queued = (n: number) => Array.from({ length: n }, (_, i) => upload({ id: i + 1, status: 'queued' }))

  it('Arabic says one, two and eleven files each in its own form; Indonesian has one form', () => {
    setIntl('ar', catalogue('ar'))
    const say = (n: number) => batchAnnouncement(queued(n), 'active')
    expect(say(1)).toBe('جارٍ إرسال ملف واحد.')
    expect(say(2)).toBe('جارٍ إرسال ملفين.')
    expect(say(3)).toBe('جارٍ إرسال 3 ملفات.')
    expect(say(11)).toBe('جارٍ إرسال 11 ملفًا.')
    setIntl('id', catalogue('id'))
    expect(say(1)).toBe('Mengirim 1 file.')
    expect(say(2)).toBe('Mengirim 2 file.')
    expect(intakeSummary([], 2)?.message).toBe('2 tidak diterima. Lihat “Perlu perhatian”.')
  })
})
