// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { type Upload, fake, upload } from './fake-bridge'
import { freshEachTest, startApp, useApp } from './harness'
import { ATTENTION } from '../../src-renderer/lib/labels'

const { History, ROW_HEIGHT } = await import('../../src-renderer/screens/History')
const { HISTORY_PAGE } = await import('../../src-renderer/store/history')

// jsdom lays nothing out: give every element a viewport-sized box so the virtualizer has a window.
const VIEW = 600
let restore: () => void
beforeAll(() => {
  const proto = HTMLElement.prototype
  const before = Object.getOwnPropertyDescriptor(proto, 'clientHeight')
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => VIEW })
  restore = () =>
    before
      ? Object.defineProperty(proto, 'clientHeight', before)
      : delete (proto as { clientHeight?: number }).clientHeight
})
afterAll(() => restore())

freshEachTest(async () => {
  fake.state.syntheticTotal = 100_000
  await startApp()
})

const historyCalls = () =>
  fake.calls.history.mock.calls
    .map((c) => c[0])
    // Leaves out the "needs attention" list's own query (its statuses are ATTENTION).
    .filter((r) => r.statuses === undefined || r.statuses.length !== ATTENTION.length)

describe('upload history', () => {
  it('renders only a window of rows for 100,000 and asks for pages as it scrolls', async () => {
    render(<History />)
    const table = screen.getByRole('table', { name: 'Upload history' })
    expect(table.getAttribute('aria-rowcount')).toBe('1') // nothing known yet
    await screen.findByText('scan-100000.pdf')
    expect(table.getAttribute('aria-rowcount')).toBe('100001')

    const rows = () => screen.getAllByRole('row').filter((r) => r.getAttribute('aria-rowindex') !== '1')
    expect(rows().length).toBeGreaterThan(5)
    expect(rows().length).toBeLessThan(60)
    expect(historyCalls()).toEqual([
      expect.objectContaining({ offset: 0, limit: HISTORY_PAGE, profileId: 'p1', order: 'desc' }),
    ])

    // Scroll to row 50,000: only its page is fetched, and the rows there have the right index.
    const scroller = table.querySelector<HTMLElement>('.vtable__scroll')!
    await act(async () => {
      scroller.scrollTop = 50_000 * ROW_HEIGHT
      fireEvent.scroll(scroller)
    })
    await screen.findByText('scan-050000.pdf')
    const offsets = historyCalls().map((r) => r.offset)
    expect(offsets).toContain(50_000 - (50_000 % HISTORY_PAGE))
    expect(offsets.length).toBeLessThanOrEqual(3)
    const row = screen.getByText('scan-050000.pdf').closest('[role="row"]')!
    expect(row.getAttribute('aria-rowindex')).toBe(String(50_000 + 2))
    expect(rows().length).toBeLessThan(60)
  })

  it('filters by status, and searches file names as typed: the first key at once, a burst in few queries', async () => {
    const user = userEvent.setup()
    render(<History />)
    await screen.findByText('scan-100000.pdf')
    fake.calls.history.mockClear()
    await user.click(screen.getByRole('button', { name: 'Failed', pressed: false }))
    await vi.waitFor(() => expect(historyCalls()).toHaveLength(1))
    expect(historyCalls()[0]).toMatchObject({ statuses: ['failed'], offset: 0 })

    fake.calls.history.mockClear()
    await user.type(screen.getByLabelText('Search file names'), 'scan-0')
    await vi.waitFor(() => expect(historyCalls().at(-1)).toMatchObject({ search: 'scan-0' }))
    // The first key is searched at once; the rest of a quick burst makes one query per 80 ms, the
    // last with the whole word, not one query per key.
    const searched = historyCalls().map((c) => (c as { search?: string }).search)
    expect(searched[0]).toBe('s')
    expect(searched.length).toBeLessThan('scan-0'.length)
    expect(historyCalls().at(-1)).toMatchObject({ statuses: ['failed'] })
    expect(useApp.getState().historyFilter.search).toBe('scan-0')
  })

  it('keeps the rows on screen while a new search is on its way, then shows its answer at once', async () => {
    render(<History />)
    await screen.findByText('scan-100000.pdf')
    const answer = fake.handlers.history!
    let release: () => void = () => undefined
    fake.handlers.history = (req) =>
      new Promise<{ rows: Upload[]; total: number }>((resolve) => {
        // The fake's history handler answers plainly (never a Result).
        release = () => resolve(answer(req) as { rows: Upload[]; total: number })
      })
    onTestFinished(() => {
      fake.handlers.history = answer
    })
    fireEvent.change(screen.getByLabelText('Search file names'), { target: { value: 'zzz' } })
    await vi.waitFor(() => expect(historyCalls().at(-1)).toMatchObject({ search: 'zzz' }))
    // The previous rows stay, not a table of empty placeholders, until the answer is in.
    expect(screen.getByText('scan-100000.pdf')).toBeTruthy()
    fake.state.syntheticTotal = null
    fake.state.uploads = []
    await act(async () => release())
    await screen.findByText('No uploads match.')
    expect(screen.queryByText('scan-100000.pdf')).toBeNull()
  })

  it('retries a failed row from the table', async () => {
    fake.state.syntheticTotal = null
    const { upload } = await import('./fake-bridge')
    fake.state.uploads = [upload({ id: 7, status: 'failed', lastError: 'HTTP 500 from the server' })]
    useApp.getState().reloadHistory()
    const user = userEvent.setup()
    render(<History />)
    await user.click(await screen.findByRole('button', { name: `Retry: ${'receipt-7.pdf'}` }))
    expect(fake.calls.retryUpload).toHaveBeenCalledWith({ id: 7 })
  })

  it('shows where each file came from (a mail by its subject and sender) and filters by source', async () => {
    const user = userEvent.setup()
    fake.state.syntheticTotal = null
    fake.state.uploads = [
      upload({ id: 1, name: 'invoice.pdf', source: 'mail', mailFrom: 'Flour Mills <billing@flour.test>', mailSubject: 'March invoice', createdAt: 3 }),
      upload({ id: 2, name: 'scan.pdf', source: 'watch', createdAt: 2 }),
      upload({ id: 3, name: 'dropped.pdf', source: 'drop', createdAt: 1 }),
    ]
    useApp.getState().reloadHistory()
    render(<History />)
    const mailRow = (await screen.findByText('invoice.pdf')).closest('[role="row"]')!
    expect(mailRow.textContent).toMatch(/Mail: March invoice · Flour Mills <billing@flour\.test>/)
    expect(screen.getByText('scan.pdf').closest('[role="row"]')!.textContent).toMatch(/Folder/)
    fake.calls.history.mockClear()
    await user.selectOptions(screen.getByLabelText('Source'), 'Mail')
    await vi.waitFor(() => expect(historyCalls().at(-1)).toMatchObject({ sources: ['mail'] }))
    await vi.waitFor(() => expect(screen.queryByText('scan.pdf')).toBeNull())
    expect(screen.getByText('invoice.pdf')).toBeTruthy()
  })
})
