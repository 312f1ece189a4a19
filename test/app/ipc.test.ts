/**
 * registerIpc without the Electron binary: `electron` is replaced by a stand-in that records the
 * handlers, so the loop over the contract and the sender check run in plain Node.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { CALL_NAMES, EVENT_CHANNEL, GRANT_FILE_CHANNEL, callChannel } from '../../contract'
import type { AppService } from '../../src-main/core/app-service'

type Handler = (event: unknown, req: unknown) => unknown
const handlers = new Map<string, Handler>()
const listeners = new Map<string, Handler>()
const sent: { channel: string; msg: unknown; url: string }[] = []
let windows: { url: string }[] = []

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: Handler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`)
      handlers.set(channel, fn)
    },
    removeHandler: (channel: string) => handlers.delete(channel),
    on: (channel: string, fn: Handler) => listeners.set(channel, fn),
    removeListener: (channel: string) => listeners.delete(channel),
  },
  BrowserWindow: {
    getAllWindows: () =>
      windows.map((w) => ({
        isDestroyed: () => false,
        webContents: {
          isDestroyed: () => false,
          mainFrame: { url: w.url },
          send: (channel: string, msg: unknown) => sent.push({ channel, msg, url: w.url }),
        },
      })),
  },
}))

const { registerIpc } = await import('../../src-main/electron/ipc')

const APP_URL = 'app://bookdrop/index.html'

function frame(url: string, opts: { parent?: unknown; token?: string } = {}) {
  return { url, parent: opts.parent ?? null, processId: 4, frameToken: opts.token ?? 'main' }
}
function event(senderFrame: ReturnType<typeof frame> | null) {
  return { senderFrame, sender: { mainFrame: frame(APP_URL) } }
}

let emit: (name: string, payload: unknown) => void = () => {}
const fakeService = {
  getAppInfo: async () => ({ version: '1' }),
  retryUpload: async () => {
    throw new Error('should not run')
  },
  onEvent: (l: (name: string, payload: unknown) => void) => {
    emit = l
    return () => (emit = () => {})
  },
} as unknown as AppService

beforeEach(() => {
  handlers.clear()
  listeners.clear()
  sent.length = 0
  windows = []
})

describe('registerIpc', () => {
  it('registers exactly one handler per call of the contract, and removes them all', () => {
    const dispose = registerIpc(fakeService, () => APP_URL)
    expect([...handlers.keys()].sort()).toEqual(CALL_NAMES.map(callChannel).sort())
    expect([...listeners.keys()]).toEqual([GRANT_FILE_CHANNEL])
    dispose()
    expect(handlers.size).toBe(0)
    expect(listeners.size).toBe(0)
  })

  it('registers a dropped file only from the app main frame, and only a sane string', () => {
    const granted: string[][] = []
    const service = { ...fakeService, onEvent: fakeService.onEvent, grantFiles: (p: string[]) => granted.push(p) } as unknown as AppService
    registerIpc(service, () => APP_URL)
    const grant = listeners.get(GRANT_FILE_CHANNEL)!
    grant(event(frame(APP_URL)), '/home/me/receipt.pdf')
    grant(event(frame('https://evil.example/')), '/etc/shadow')
    grant(event(frame(APP_URL, { parent: frame(APP_URL) })), '/etc/passwd')
    grant(event(frame(APP_URL)), { path: '/etc/passwd' })
    grant(event(frame(APP_URL)), `/${'x'.repeat(5000)}`)
    expect(granted).toEqual([['/home/me/receipt.pdf']])
  })

  it('runs a call from the app main frame, through the bridge (validation included)', async () => {
    registerIpc(fakeService, () => APP_URL)
    const h = handlers.get(callChannel('getAppInfo'))!
    expect(await h(event(frame(APP_URL)), {})).toEqual({ ok: true, value: { version: '1' } })
    expect(await h(event(frame(`${APP_URL}#/history`)), undefined)).toEqual({
      ok: true,
      value: { version: '1' },
    })
    const bad = (await handlers.get(callChannel('retryUpload'))!(event(frame(APP_URL)), { id: -1 })) as {
      ok: boolean
      error: { code: string }
    }
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
  })

  it('refuses iframes, other pages, other frames and vanished frames without running anything', async () => {
    registerIpc(fakeService, () => APP_URL)
    const h = handlers.get(callChannel('retryUpload'))!
    const refused = { ok: false, error: { code: 'forbidden_sender', message: expect.any(String) } }
    expect(await h(event(frame(APP_URL, { parent: frame(APP_URL) })), { id: 1 })).toMatchObject(refused)
    expect(await h(event(frame('https://evil.example/')), { id: 1 })).toMatchObject(refused)
    expect(await h(event(frame('file:///tmp/evil.html')), { id: 1 })).toMatchObject(refused)
    expect(await h(event(frame('app://elsewhere/index.html')), { id: 1 })).toMatchObject(refused)
    expect(await h(event(frame(APP_URL, { token: 'another-frame' })), { id: 1 })).toMatchObject(refused)
    expect(await h(event(null), { id: 1 })).toMatchObject(refused)
  })

  it('forwards service events on the one event channel, only to windows showing the app', () => {
    windows = [{ url: APP_URL }, { url: 'https://evil.example/' }]
    const dispose = registerIpc(fakeService, () => APP_URL)
    emit('notice', { level: 'info', message: 'hi' })
    expect(sent).toEqual([
      {
        channel: EVENT_CHANNEL,
        msg: { name: 'notice', payload: { level: 'info', message: 'hi' } },
        url: APP_URL,
      },
    ])
    dispose()
    emit('notice', { level: 'info', message: 'after' })
    expect(sent).toHaveLength(1)
  })
})
