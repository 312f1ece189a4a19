// @vitest-environment jsdom
/**
 * Issue 26 in the store and the words (the whole of it runs in Chromium: test/e2e/truth.test.ts):
 * a list that failed is not "loaded", is asked again when the server answers again, and what
 * became of files is counted for what it is.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ListPage, RecordRow, Result } from '../../contract'
import { fake, upload } from './fake-bridge'
import { freshEachTest, resetStores, startApp, useApp } from './harness'

const { batchAnnouncement, batchSummary, intakeSummary } = await import('../../src-renderer/lib/batch')

freshEachTest()
afterEach(() => resetStores())

describe('a list that could not load', () => {
  it('keeps its error, is not marked loaded, and is asked again once the server answers again', async () => {
    await startApp()
    let down = true
    let asked = 0
    fake.handlers.listExpenses = (): Result<ListPage<RecordRow>> => {
      asked++
      return down
        ? {
            ok: false,
            error: { code: 'network_error', message: 'Could not reach api.example (ECONNREFUSED).' },
          }
        : { ok: true, value: { data: [], meta: { total: 0, page: 1, limit: 20 } } }
    }
    await useApp.getState().loadList('expenses')
    let list = useApp.getState().lists.expenses
    expect(list.error).toMatch(/Could not reach/)
    expect(list.loaded).toBe(false)
    expect(asked).toBe(1)

    // Main says the server cannot be reached, then that it answers again: the list is asked again.
    fake.emit('profile', { profileId: 'p1', state: 'unreachable', message: 'Could not reach api.example.' })
    expect(asked).toBe(1)
    down = false
    fake.emit('profile', { profileId: 'p1', state: 'active', message: null })
    await new Promise((r) => setTimeout(r, 0))
    expect(asked).toBe(2)
    list = useApp.getState().lists.expenses
    expect(list.error).toBeNull()
    expect(list.loaded).toBe(true)
  })
})

describe('while the server cannot be reached', () => {
  it('the lists that failed are asked again every 30 s, and no longer once it answers', async () => {
    await startApp()
    let asked = 0
    fake.handlers.listReferredBusinesses = (): Result<never> => {
      asked++
      return {
        ok: false,
        error: { code: 'network_error', message: 'Could not reach api.example (ETIMEDOUT).' },
      }
    }
    await useApp.getState().loadReferred()
    expect(asked).toBe(1)
    vi.useFakeTimers()
    try {
      fake.emit('profile', { profileId: 'p1', state: 'unreachable', message: 'Could not reach api.example.' })
      await vi.advanceTimersByTimeAsync(29_000)
      expect(asked).toBe(1)
      await vi.advanceTimersByTimeAsync(1_000)
      expect(asked).toBe(2)
      await vi.advanceTimersByTimeAsync(30_000)
      expect(asked).toBe(3)
      // Another call answered: the state is active again (the list is asked once more, then no more).
      fake.emit('profile', { profileId: 'p1', state: 'active', message: null })
      const after = asked
      await vi.advanceTimersByTimeAsync(90_000)
      expect(asked).toBe(after)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('counts that are true', () => {
  const exe = upload({ id: 7, name: 'setup-tool.exe', status: 'skipped', reason: 'unsupported_kind' })
  const pdf = upload({ id: 8, name: 'receipt.pdf', status: 'queued' })

  it('a skipped .exe is not an added file', () => {
    expect(
      intakeSummary(
        [
          { kind: 'queued', upload: pdf },
          { kind: 'skipped', upload: exe },
        ],
        0,
      ),
    ).toEqual({
      message: '1 added, 1 skipped: .exe files are not receipts. See Needs attention.',
      tone: 'warning',
    })
    expect(intakeSummary([{ kind: 'duplicate', upload: pdf }], 0)).toEqual({
      message: '1 already sent before.',
      tone: 'info',
    })
    expect(intakeSummary([], 2)?.message).toBe('2 not taken. See Needs attention.')
  })

  it('a batch says sent, skipped and failed apart, while it runs and once it is over', () => {
    const sent = { ...pdf, status: 'completed' as const }
    const failed = upload({ id: 9, name: 'b.pdf', status: 'failed' })
    expect(batchSummary([pdf, exe])).toBe(
      '0 of 2 files sent · 1 on the way · 1 skipped: .exe files are not receipts',
    )
    expect(batchSummary([sent, exe, failed])).toBe('1 sent, 1 skipped: .exe files are not receipts, 1 failed')
    expect(batchSummary([exe])).toBe('Nothing sent, 1 skipped: .exe files are not receipts')
    expect(batchAnnouncement([pdf, exe], 'active')).toBe('Sending 2 files.')
    expect(batchAnnouncement([pdf, exe], 'unreachable')).toMatch(
      /^Sending waits: the server cannot be reached/,
    )
    expect(batchAnnouncement([sent, exe], 'active')).toBe(
      'Batch done: 1 sent, 1 skipped: .exe files are not receipts.',
    )
  })
})
