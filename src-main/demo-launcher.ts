/**
 * The demo's emulator, as the hosts start it for the app (core never imports the emulator: the
 * layers rule). Loaded on first use, so a start without the demo never loads the emulator.
 */
import { randomBytes } from 'node:crypto'
import type { DemoLauncher } from './core/app-service'

export const sandboxDemo: DemoLauncher = {
  async start() {
    const { CONTROL_HEADER, startSandbox } = await import('../sandbox')
    // Inside the app its control routes are not a door: a secret of this run, held here only.
    const controlSecret = randomBytes(24).toString('base64url')
    const sb = await startSandbox({ port: 0, controlSecret })
    if (!sb.demo) {
      await sb.stop()
      throw new Error('the emulator started without demo keys')
    }
    return {
      url: sb.url,
      keys: sb.demo,
      control: { origin: sb.origin, headers: { [CONTROL_HEADER]: controlSecret } },
      stop: () => sb.stop(),
    }
  },
  async sampleReceipts() {
    const { SAMPLE_RECEIPTS } = await import('../sandbox/sample-receipts')
    return SAMPLE_RECEIPTS.map((r) => ({ name: r.name, base64: r.base64 }))
  },
}
