import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { NotificationBatcher, describeBatch, type ShellNotification, type Timers } from '../../src-main/shell/notify'
import { uploadEvent } from './helpers'

describe('NotificationBatcher with fake timers', () => {
  let shown: ShellNotification[]
  let batcher: NotificationBatcher

  beforeEach(() => {
    vi.useFakeTimers()
    shown = []
    batcher = new NotificationBatcher({ show: (n) => shown.push(n), windowMs: 3000 })
  })
  afterEach(() => {
    batcher.dispose()
    vi.useRealTimers()
  })

  it('turns 200 completions within the window into exactly one notification with the count', () => {
    for (let i = 1; i <= 200; i++) {
      batcher.handle(uploadEvent(i, 'uploading', 'queued'))
      batcher.handle(uploadEvent(i, 'processing', 'uploading'))
      batcher.handle(uploadEvent(i, 'completed', 'processing'))
      vi.advanceTimersByTime(10) // 2 s in all, inside the 3 s window
    }
    expect(shown).toHaveLength(0)
    vi.advanceTimersByTime(3000)
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatchObject({ kind: 'completed', body: '200 receipts recorded' })
    vi.advanceTimersByTime(60_000)
    expect(shown).toHaveLength(1)
  })

  it('summarizes completions and failures in one notification', () => {
    for (let i = 1; i <= 10; i++) batcher.handle(uploadEvent(i, 'completed', 'processing'))
    batcher.handle(uploadEvent(11, 'failed', 'uploading'))
    batcher.handle(uploadEvent(12, 'failed', 'processing'))
    batcher.handle(uploadEvent(13, 'skipped', null, { reason: 'too_large' }))
    vi.advanceTimersByTime(3000)
    expect(shown).toHaveLength(1)
    expect(shown[0]!.kind).toBe('attention')
    expect(shown[0]!.body).toBe('10 receipts recorded; 3 files need attention')
  })

  it('says "3 files need attention" when only failures happened', () => {
    for (let i = 1; i <= 3; i++) batcher.handle(uploadEvent(i, 'failed', 'uploading'))
    vi.advanceTimersByTime(3000)
    expect(shown.map((n) => n.body)).toEqual(['3 files need attention'])
  })

  it('names the file when there is just one', () => {
    batcher.handle(uploadEvent(7, 'completed', 'processing'))
    vi.advanceTimersByTime(3000)
    batcher.handle(uploadEvent(8, 'failed', 'uploading'))
    vi.advanceTimersByTime(3000)
    expect(shown.map((n) => n.body)).toEqual(['1 receipt recorded: receipt-7.pdf', '1 file needs attention: receipt-8.pdf'])
  })

  it('a name holding a newline or a bidi override is shown escaped, on one line, in its own order', () => {
    batcher.handle(uploadEvent(9, 'completed', 'processing', { name: 'invoice\u202Efdp.exe\nAll files deleted' }))
    vi.advanceTimersByTime(3000)
    expect(shown.map((n) => n.body)).toEqual(['1 receipt recorded: invoice\\u{202E}fdp.exe\\nAll files deleted'])
  })

  it('shows at most one notification per window under a steady stream', () => {
    for (let t = 0; t < 30_000; t += 100) {
      batcher.handle(uploadEvent(t + 1, 'completed', 'processing'))
      vi.advanceTimersByTime(100)
    }
    vi.advanceTimersByTime(3000)
    expect(shown.length).toBeLessThanOrEqual(11)
    expect(shown.length).toBeGreaterThanOrEqual(9)
    expect(shown.reduce((sum, n) => sum + n.summary.completed, 0)).toBe(300)
  })

  it('ignores progress-only transitions, repeats, duplicates, cancellations and pre-existing skips', () => {
    batcher.handle(uploadEvent(1, 'queued', null))
    batcher.handle(uploadEvent(1, 'uploading', 'queued'))
    batcher.handle(uploadEvent(1, 'waiting_retry', 'uploading'))
    batcher.handle(uploadEvent(2, 'duplicate', null))
    batcher.handle(uploadEvent(3, 'cancelled', 'queued'))
    batcher.handle(uploadEvent(4, 'completed', 'completed'))
    batcher.handle(uploadEvent(5, 'skipped', null, { reason: 'existed_before' }))
    vi.advanceTimersByTime(10_000)
    expect(shown).toEqual([])
  })

  it('shows nothing when disabled, and drops what was pending when turned off', () => {
    batcher.handle(uploadEvent(1, 'completed', 'processing'))
    batcher.setEnabled(false)
    vi.advanceTimersByTime(5000)
    for (let i = 2; i < 50; i++) batcher.handle(uploadEvent(i, 'completed', 'processing'))
    vi.advanceTimersByTime(5000)
    expect(shown).toEqual([])
    expect(vi.getTimerCount()).toBe(0)

    batcher.setEnabled(true)
    batcher.handle(uploadEvent(99, 'completed', 'processing'))
    vi.advanceTimersByTime(3000)
    expect(shown).toHaveLength(1)
  })

  it('starts disabled when told to', () => {
    const quiet = new NotificationBatcher({ show: (n) => shown.push(n), enabled: false })
    quiet.handle(uploadEvent(1, 'failed', 'uploading'))
    vi.advanceTimersByTime(10_000)
    expect(shown).toEqual([])
    expect(quiet.isEnabled).toBe(false)
  })

  it('flush() shows what is pending at once, and dispose() forgets it', () => {
    batcher.handle(uploadEvent(1, 'completed', 'processing'))
    batcher.flush()
    expect(shown).toHaveLength(1)
    batcher.handle(uploadEvent(2, 'completed', 'processing'))
    batcher.dispose()
    vi.advanceTimersByTime(10_000)
    expect(shown).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  // Issue 33: possible duplicates held raise ONE notification per window, worded as the shared sentence.
  it('one held row: names it and what it looks like, and asks for Send anyway or Discard', () => {
    const d = { basis: 'same_text' as const, uploadId: 1, name: 'invoice.pdf', sentAt: Date.UTC(2026, 10, 27), recordUuid: null }
    batcher.handle(uploadEvent(2, 'held', null, { name: 'invoice (1).pdf', nearOf: 1, nearBasis: 'same_text', possibleDuplicate: d }))
    vi.advanceTimersByTime(3000)
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatchObject({
      kind: 'attention',
      body: 'Possible duplicate of invoice.pdf, sent on Nov 27, 2026 (same text): invoice (1).pdf is held until you choose Send anyway or Discard',
    })
  })

  it('12 held rows and 5 completed in one window: one notification that counts both', () => {
    for (let i = 1; i <= 12; i++) batcher.handle(uploadEvent(i, 'held', null))
    for (let i = 13; i <= 17; i++) batcher.handle(uploadEvent(i, 'completed', 'processing'))
    vi.advanceTimersByTime(3000)
    expect(shown.map((n) => n.body)).toEqual([
      '12 possible duplicates are held: choose Send anyway or Discard in History; 5 receipts recorded',
    ])
    vi.advanceTimersByTime(60_000)
    expect(shown).toHaveLength(1)
  })
})

describe('NotificationBatcher with injected timers', () => {
  it('uses the timers it is given', () => {
    const pending: { fn: () => void; ms: number }[] = []
    const timers: Timers = {
      setTimeout: (fn, ms) => pending.push({ fn, ms }) - 1,
      clearTimeout: () => {},
    }
    const shown: ShellNotification[] = []
    const b = new NotificationBatcher({ show: (n) => shown.push(n), windowMs: 5000, timers })
    for (let i = 1; i <= 200; i++) b.handle(uploadEvent(i, 'completed', 'processing'))
    expect(pending).toHaveLength(1)
    expect(pending[0]!.ms).toBe(5000)
    pending[0]!.fn()
    expect(shown.map((n) => n.body)).toEqual(['200 receipts recorded'])
  })
})

describe('describeBatch', () => {
  it('says nothing for an empty window', () => {
    expect(describeBatch({ completed: 0, attention: 0, singleName: null })).toBeNull()
  })
  it('uses singular forms', () => {
    expect(describeBatch({ completed: 1, attention: 1, singleName: null })?.body).toBe(
      '1 receipt recorded; 1 file needs attention',
    )
  })
})
