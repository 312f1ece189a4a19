/** `npm run web`: the web host's command line, its start and its stop on SIGINT/SIGTERM. */
import { mkdir } from 'node:fs/promises'
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { defaultDataDir } from '../core/paths'
import { startupRefusal } from '../core/store/data-dir'
import { privacyNotice } from '../core/store/private-dir'
import { buildRenderer, rendererBuilt } from './renderer-build'
import { type WebHost, startWebHost } from './server'

const USAGE =
  'usage: npm run web -- --port <n> [--demo] [--data-dir <dir>] [--reset-queue] [--phone-listen <address>]'

export async function main(argv: string[]): Promise<number> {
  let values: {
    port?: string
    demo?: boolean
    'data-dir'?: string
    'reset-queue'?: boolean
    'phone-listen'?: string
    help?: boolean
  }
  try {
    values = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        demo: { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        'reset-queue': { type: 'boolean', default: false },
        'phone-listen': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`)
    return 2
  }
  if (values.help) {
    console.error(USAGE)
    return 0
  }
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535\n${USAGE}`)
    return 2
  }
  const phoneListen = values['phone-listen']
  if (phoneListen !== undefined && !isIP(phoneListen)) {
    console.error(`--phone-listen takes an IP address of this computer (e.g. 192.168.1.20, or 127.0.0.1 for tests)\n${USAGE}`)
    return 2
  }
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir())
  await mkdir(dataDir, { recursive: true, mode: 0o700 })

  if (!rendererBuilt()) {
    console.error('bookdrop: the renderer is not built yet; building it now (electron-vite build)…')
    if (!buildRenderer()) {
      console.error(
        'bookdrop: the renderer could not be built: run `npm run build`, then `npm run web` again.',
      )
      return 1
    }
  }

  let host: WebHost
  try {
    host = await startWebHost({
      port,
      dataDir,
      demo: values.demo ?? false,
      resetQueue: values['reset-queue'] ?? false,
      phoneListen,
    })
  } catch (e) {
    const refused = startupRefusal(e, dataDir)
    if (refused) {
      console.error(refused.message)
      return refused.code
    }
    console.error(`bookdrop: ${(e as Error).message}`)
    return 1
  }
  const privacy = privacyNotice(dataDir, host.service.engine.openReport.madePrivate)
  if (privacy) console.error(privacy)
  const moved = host.service.engine.openReport.movedAside
  if (moved)
    console.error(
      `bookdrop: the unreadable queue database was moved aside to ${moved}; starting with an empty queue`,
    )
  console.log(`open ${host.url}`)

  return new Promise<number>((resolveExit) => {
    let stopping = false
    const stop = (signal: string) => {
      if (stopping) return
      stopping = true
      console.error(`bookdrop: ${signal}, stopping (unfinished uploads resume next time)`)
      host.stop().then(
        () => {
          console.error('bookdrop: stopped')
          resolveExit(0)
        },
        (e: unknown) => {
          console.error(`bookdrop: ${(e as Error).message}`)
          resolveExit(1)
        },
      )
    }
    // `on`, not `once`: Ctrl+C reaches this process twice (from the terminal, and relayed by tsx/npm),
    // and a second signal must not kill it halfway through closing the database.
    process.on('SIGINT', () => stop('SIGINT'))
    process.on('SIGTERM', () => stop('SIGTERM'))
  })
}
