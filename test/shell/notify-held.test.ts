/** Issue 33: possible duplicates held raise ONE notification per window, worded as the shared sentence. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { NotificationBatcher, type ShellNotification } from '../../src-main/shell/notify'
import { uploadEvent } from './helpers'

describe('held possible duplicates in the desktop notification', () => {
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

  it('one held row: names it and what it looks like, and asks for Send anyway or Discard', () => {
    const d = { basis: 'same_text' as const, uploadId: 1, name: 'invoice.pdf', sentAt: Date.UTC(2026, 10, 27), recordUuid: null }
    batcher.handle(uploadEvent(2, 'held', null, { name: 'invoice (1).pdf', nearOf: 1, nearBasis: 'same_text', possibleDuplicate: d }))
    vi.advanceTimersByTime(3000)
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatchObject({
      kind: 'attention',
      body: 'Possible duplicate of invoice.pdf, sent on 2026-11-27 (same text): invoice (1).pdf is held until you choose Send anyway or Discard',
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
