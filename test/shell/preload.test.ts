/**
 * The sandboxed preload against a stand-in for the three Electron parts it uses: it exposes one
 * frozen window.bookdrop built from the contract, and registers a path with main only when
 * webUtils.getPathForFile gives one (a real file the person dropped or picked).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { CALL_NAMES, GRANT_FILE_CHANNEL, callChannel } from '../../contract'

const sent: { channel: string; args: unknown[] }[] = []
const invoked: { channel: string; req: unknown }[] = []
let exposed: Record<string, unknown> = {}
const paths = new Map<object, string>()

vi.stubGlobal('__BOOKDROP_VERSION__', '9.9.9')
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (_key: string, api: Record<string, unknown>) => (exposed = api) },
  ipcRenderer: {
    on: () => {},
    send: (channel: string, ...args: unknown[]) => sent.push({ channel, args }),
    invoke: async (channel: string, req: unknown) => {
      invoked.push({ channel, req })
      return { ok: true, value: null }
    },
  },
  webUtils: {
    getPathForFile: (file: object) => {
      const p = paths.get(file)
      if (p === undefined) throw new Error('not a File')
      return p
    },
  },
}))

beforeAll(async () => {
  await import('../../src-preload/index')
})

describe('the preload', () => {
  it('exposes exactly the calls of the contract, frozen', async () => {
    expect(Object.isFrozen(exposed)).toBe(true)
    for (const name of CALL_NAMES) expect(typeof exposed[name], name).toBe('function')
    await (exposed['getAppInfo'] as (r: unknown) => Promise<unknown>)({})
    expect(invoked).toEqual([{ channel: callChannel('getAppInfo'), req: {} }])
  })

  it('registers the path of a dropped file with main, and nothing for a file without one', () => {
    const pathForFile = exposed['pathForFile'] as (f: object) => string
    const dropped = {}
    const made = {}
    const odd = {}
    paths.set(dropped, '/home/me/receipt.pdf')
    paths.set(made, '') // a File the page built itself has no path
    expect(pathForFile(dropped)).toBe('/home/me/receipt.pdf')
    expect(pathForFile(made)).toBe('')
    expect(pathForFile(odd)).toBe('') // not a File at all: getPathForFile throws
    expect(sent).toEqual([{ channel: GRANT_FILE_CHANNEL, args: ['/home/me/receipt.pdf'] }])
  })
})
