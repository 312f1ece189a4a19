// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { fake, upload } from './fake-bridge'
import { freshEachTest, startApp, useApp } from './harness'

const { Capture } = await import('../../src-renderer/screens/Capture')
const { flushEvents } = await import('../../src-renderer/store/events')
const { bytesToBase64 } = await import('../../src-renderer/lib/base64')

freshEachTest()

describe('capture', () => {
  it('lists files needing attention with their reasons, and one click retries or sends anyway', async () => {
    fake.state.uploads = [
      upload({ id: 1, status: 'failed', lastError: 'The server answered 500: try again later.' }),
      upload({ id: 2, status: 'duplicate', duplicateOf: 1 }),
      upload({ id: 3, status: 'skipped', reason: 'unsupported_kind', name: 'notes.docx' }),
      upload({ id: 4, status: 'completed' }),
    ]
    await startApp()
    const user = userEvent.setup()
    render(<Capture />)
    const list = await screen.findByRole('region', { name: /Needs attention/ })
    expect(within(list).getByText('The server answered 500: try again later.')).toBeTruthy()
    expect(within(list).getByText('This kind of file is not accepted for the chosen target.')).toBeTruthy()
    expect(within(list).queryByText('receipt-4.pdf')).toBeNull()

    await user.click(within(list).getByRole('button', { name: 'Retry: receipt-1.pdf' }))
    expect(fake.calls.retryUpload).toHaveBeenCalledWith({ id: 1 })
    // The answer moves the row out of the list at once.
    await vi.waitFor(() => expect(within(list).queryByText('receipt-1.pdf')).toBeNull())

    await user.click(within(list).getByRole('button', { name: 'Send anyway: receipt-2.pdf' }))
    expect(fake.calls.retryUpload).toHaveBeenLastCalledWith({ id: 2 })
    expect(useApp.getState().attentionTotal).toBe(1)
    await user.click(within(list).getByRole('button', { name: 'Send anyway: notes.docx' }))
    expect(fake.calls.retryUpload).toHaveBeenLastCalledWith({ id: 3 })
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: /Needs attention/ })).toBeNull())
  })

  it('sends dropped files as Base64 with the chosen target, and shows per-file and overall progress', async () => {
    await startApp()
    const user = userEvent.setup()
    render(<Capture />)
    await user.selectOptions(screen.getByLabelText('Send as'), 'bills')
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251)
    const file = new File([bytes], 'invoice-march.pdf', { type: 'application/pdf' })
    const zone = screen.getByText('Drop receipts and documents here').closest('.dropzone')!
    await act(async () => {
      fireEvent.drop(zone, { dataTransfer: { files: [file], types: ['Files'] } })
    })
    await vi.waitFor(() => expect(fake.calls.addFileContents).toHaveBeenCalled())
    const req = fake.calls.addFileContents.mock.calls[0]![0]
    expect(req.target).toBe('bills')
    expect(req.files).toEqual([{ name: 'invoice-march.pdf', base64: bytesToBase64(bytes) }])
    expect(atob(req.files[0]!.base64).length).toBe(70_000)

    const row = await screen.findByText('invoice-march.pdf')
    const id = useApp.getState().liveOrder[0]!
    const u = useApp.getState().live[id]!
    fake.emit('upload', { upload: { ...u, status: 'uploading' }, previous: 'queued' })
    fake.emit('progress', { id, sent: 35_000, total: 70_000 })
    act(() => flushEvents())
    const bar = within(row.closest('li')!).getByRole('progressbar', { name: 'Sending invoice-march.pdf' })
    expect(bar.getAttribute('aria-valuenow')).toBe('50')
    expect(screen.getByRole('progressbar', { name: 'Overall progress' }).getAttribute('aria-valuenow')).toBe(
      '50',
    )
  })

  it('in the desktop app, a dropped file with a real path is sent by path, not copied over the bridge', async () => {
    const api = fake.api as { pathForFile?: (f: File) => string }
    api.pathForFile = (f) => (f.name === 'on-disk.pdf' ? '/home/me/Receipts/on-disk.pdf' : '')
    try {
      await startApp()
      render(<Capture />)
      const onDisk = new File([new Uint8Array(10)], 'on-disk.pdf')
      const pasted = new File([new Uint8Array(10)], 'pasted.pdf')
      const zone = screen.getByText('Drop receipts and documents here').closest('.dropzone')!
      await act(async () => {
        fireEvent.drop(zone, { dataTransfer: { files: [onDisk, pasted], types: ['Files'] } })
      })
      await vi.waitFor(() => expect(fake.calls.addFiles).toHaveBeenCalled())
      expect(fake.calls.addFiles.mock.calls[0]![0]).toMatchObject({
        paths: ['/home/me/Receipts/on-disk.pdf'],
      })
      await vi.waitFor(() => expect(fake.calls.addFileContents).toHaveBeenCalled())
      expect(fake.calls.addFileContents.mock.calls[0]![0].files.map((f) => f.name)).toEqual(['pasted.pdf'])
      expect(await screen.findByText('on-disk.pdf')).toBeTruthy()
    } finally {
      delete api.pathForFile
    }
  })

  it('refuses a file larger than the limit before reading it, with a reason', async () => {
    await startApp()
    useApp.setState({ settings: { ...useApp.getState().settings!, maxFileBytes: 1024 } })
    render(<Capture />)
    const file = new File([new Uint8Array(4096)], 'huge.pdf')
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!
    await act(async () => {
      fireEvent.change(input, { target: { files: [file] } })
    })
    expect(await screen.findByText(/huge\.pdf is larger than the/)).toBeTruthy()
    expect(fake.calls.addFileContents).not.toHaveBeenCalled()
  })
})

describe('base64', () => {
  it('encodes large buffers in slices without overflowing the stack', () => {
    const big = new Uint8Array(3 * 0x4000 * 3 + 7).map((_, i) => (i * 7) % 256)
    const ours = bytesToBase64(big)
    expect(ours).toBe(Buffer.from(big).toString('base64'))
  })
})
