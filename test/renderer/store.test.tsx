// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fake, upload } from './fake-bridge'
import { freshEachTest, resetStores, startApp, useApp } from './harness'
import { EVENT_NAMES, type FolderView } from '../../contract'

const { flushEvents } = await import('../../src-renderer/store/events')

freshEachTest()
afterEach(() => resetStores())

describe('store', () => {
  it('subscribes to every event once and loads the first state through the bridge', async () => {
    await startApp()
    await startApp()
    // The events the store listens to: all but storage and settings.
    for (const name of EVENT_NAMES.filter((n) => n !== 'storage' && n !== 'settings')) {
      expect(fake.listenerCount(name)).toBe(1)
    }
    const s = useApp.getState()
    expect(s.booted).toBe(true)
    expect(s.activeId).toBe('p1')
    expect(s.profiles[0]!.name).toBe('Bakery')
    expect(fake.calls.listProfiles).toHaveBeenCalled()
    expect(fake.calls.getSession).toHaveBeenCalled()
  })

  it('applies upload events: live rows, the batch, counts and the needs-attention list', async () => {
    await startApp()
    const a = upload({ id: 101, status: 'queued' })
    const b = upload({ id: 102, status: 'queued' })
    fake.emit('upload', { upload: a, previous: null })
    fake.emit('upload', { upload: b, previous: null })
    flushEvents()
    let s = useApp.getState()
    expect(s.liveOrder).toEqual([102, 101])
    expect(s.batch).toEqual([101, 102])
    expect(s.session!.counts.queued).toBe(2)

    fake.emit('upload', { upload: { ...a, status: 'uploading' }, previous: 'queued' })
    fake.emit('progress', { id: 101, sent: 100, total: 1000 })
    fake.emit('progress', { id: 101, sent: 400, total: 1000 })
    flushEvents()
    s = useApp.getState()
    expect(s.progress[101]).toEqual({ sent: 400, total: 1000 })
    expect(s.session!.counts).toMatchObject({ queued: 1, uploading: 1 })

    // Failing moves it into "needs attention"; the same event twice moves nothing twice.
    const failed = { ...a, status: 'failed' as const, lastError: 'The server said no.' }
    fake.emit('upload', { upload: failed, previous: 'uploading' })
    fake.emit('upload', { upload: failed, previous: 'uploading' })
    flushEvents()
    s = useApp.getState()
    expect(s.attention.map((u) => u.id)).toEqual([101])
    expect(s.attentionTotal).toBe(1)
    expect(s.progress[101]).toBeUndefined()
    expect(s.session!.counts).toMatchObject({ queued: 1, uploading: 0, failed: 1 })

    // Retried: out of the list again.
    fake.emit('upload', { upload: { ...a, status: 'queued' }, previous: 'failed' })
    flushEvents()
    s = useApp.getState()
    expect(s.attention).toEqual([])
    expect(s.attentionTotal).toBe(0)
    expect(s.session!.counts).toMatchObject({ queued: 2, failed: 0 })
  })

  it('ignores rows of other profiles for the live list, and updates loaded history rows in place', async () => {
    fake.state.uploads = [upload({ id: 1, status: 'processing' }), upload({ id: 2, status: 'completed' })]
    await startApp()
    useApp.getState().reloadHistory()
    await vi.waitFor(() => expect(useApp.getState().historyTotal).toBe(2))

    fake.emit('upload', { upload: upload({ id: 9, profileId: 'other', status: 'queued' }), previous: null })
    fake.emit('upload', {
      upload: upload({ id: 1, status: 'completed', recordUuid: 'r-1' }),
      previous: 'processing',
    })
    fake.emit('upload', { upload: upload({ id: 3, status: 'queued' }), previous: null })
    flushEvents()
    const s = useApp.getState()
    expect(s.live[9]).toBeUndefined()
    expect(s.historyPages[0]!.find((r) => r.id === 1)).toMatchObject({
      status: 'completed',
      recordUuid: 'r-1',
    })
    // A new matching row is counted, not fetched: the table offers to show it.
    expect(s.historyNew).toBe(1)
    expect(fake.calls.history).toHaveBeenCalledTimes(2) // attention list + the first history page
  })

  it('keeps rate-limit and profile state of the active profile only', async () => {
    await startApp()
    fake.emit('rateLimit', { profileId: 'p1', limit: 600, remaining: 12, resetAt: 1, pausedUntil: null })
    fake.emit('rateLimit', { profileId: 'zz', limit: 1, remaining: 0, resetAt: 1, pausedUntil: 5 })
    fake.emit('profile', { profileId: 'p1', state: 'auth_required', message: 'invalid key' })
    const s = useApp.getState()
    expect(s.session!.rateLimit).toEqual({ limit: 600, remaining: 12, resetAt: 1, pausedUntil: null })
    expect(s.session!.state).toBe('auth_required')
    expect(s.session!.message).toBe('invalid key')
  })

  it('turns notices into toasts, and resetStores drops every subscription', async () => {
    await startApp()
    fake.emit('notice', { level: 'warning', message: 'Could not move a file.' })
    expect(useApp.getState().toasts.map((t) => t.message)).toEqual(['Could not move a file.'])
    resetStores()
    expect(fake.listenerCount('upload')).toBe(0)
    expect(useApp.getState().toasts).toEqual([])
    expect(useApp.getState().booted).toBe(false)
  })
})

describe('watched folders', () => {
  it("keep a folder's status from an event that arrived before the answer that added it", async () => {
    await startApp()
    await vi.waitFor(() => expect(useApp.getState().foldersLoaded).toBe(true))
    // The server's side: the folder is "starting" when added, and "watching" a moment later. The
    // event for that comes on the event stream, here before the add call's answer.
    let state: 'starting' | 'watching' = 'starting'
    const view = () => ({ id: 'f1', path: '/in', state, message: null }) as unknown as FolderView
    fake.handlers.listFolders = () => (state === 'starting' ? [] : [view()])
    fake.handlers.addFolder = () => {
      const answer = view()
      state = 'watching'
      fake.emit('folder', { folderId: 'f1', state: 'watching', message: null })
      return answer
    }
    const r = await useApp.getState().addFolder({ profileId: 'p1', path: '/in', target: 'expenses' })
    expect(r.ok).toBe(true)
    // The event for a folder not known yet also reloads the list; let that answer land too.
    await vi.waitFor(() => expect(fake.calls.listFolders).toHaveBeenCalledTimes(2))
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(useApp.getState().folders.map((f) => [f.id, f.state])).toEqual([['f1', 'watching']])
  })
})
