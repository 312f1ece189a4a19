/**
 * What the client's path tests share (client-paths, proxy-paths): an emulator and a certificate
 * authority of its own for the whole file (started before its first test, stopped after its last),
 * and CONNECT proxies a test starts, stopped after that test.
 */
import { afterAll, afterEach, beforeAll } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'
import { fixtures } from '../engine/helpers'
import { type ConnectProxy, type TestCa, makeTestCa, startConnectProxy } from './path-servers'

export interface PathRig {
  readonly sb: Sandbox
  readonly ca: TestCa
  /** A CONNECT proxy, stopped after the test. */
  proxy(opts?: Parameters<typeof startConnectProxy>[0]): Promise<ConnectProxy>
}

/** Call at the top of a test file, before its own hooks (they may use `sb` and `ca`). */
export function usePathRig(): PathRig {
  let sb: Sandbox | undefined
  let ca: TestCa | undefined
  const stops: (() => Promise<void>)[] = []
  beforeAll(async () => {
    sb = await startSandbox({ fixtures: fixtures({ job_delay_ms: 0 }), port: 0 })
    ca = makeTestCa()
  })
  afterEach(async () => {
    for (const s of stops.splice(0)) await s()
  })
  afterAll(async () => {
    await sb?.stop()
    ca?.dispose()
  })
  return {
    get sb() {
      if (!sb) throw new Error('the path rig starts in beforeAll')
      return sb
    },
    get ca() {
      if (!ca) throw new Error('the path rig starts in beforeAll')
      return ca
    },
    async proxy(opts = {}) {
      const p = await startConnectProxy(opts)
      stops.push(() => p.stop())
      return p
    },
  }
}
