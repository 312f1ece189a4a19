/** `npm run web`: the web host's command line, its start and its stop on SIGINT/SIGTERM. */
import { mkdir } from 'node:fs/promises'
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { askedDataDir, defaultDataDir, temporaryDataDir, temporaryDataNotice } from '../core/paths'
import { MemorySecretStore } from '../core/secrets'
import { startupRefusal } from '../core/store/data-dir'
import { privacyNotice } from '../core/store/private-dir'
import { buildRenderer, rendererBuilt } from './renderer-build'
import { type WebHost, startWebHost } from './server'

const USAGE =
  'usage: npm run web -- [--port <n>] [--demo] [--data-dir <dir>] [--reset-queue] [--phone-listen <address>]'

/** `--help`: the usage and a line for every option. */
const help = (): string => `${USAGE}

Bookdrop in a browser on this computer: open the address it prints. Ctrl+C stops it.

  --port <n>                 the port to listen on, on 127.0.0.1 only (default: a free port)
  --demo                     start on the embedded emulator, with a demo business and sample receipts;
                             without --data-dir its data lives in a temporary folder, removed when it stops
  --data-dir <dir>           where the upload queue and the list of profiles are kept (default:
                             BOOKDROP_DATA_DIR, or ${defaultDataDir({ ...process.env, BOOKDROP_DATA_DIR: '' })} on this computer);
                             with --demo, keeps the demo's data there
  --reset-queue              move an unreadable queue database aside and start with an empty queue
  --phone-listen <address>   the IP address of this computer that phones reach for "Add from phone"
                             (default: its first private address on the local network)
  -h, --help                 show this help and exit`

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
    console.log(help())
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
  // A demo leaves no trace: without a data directory asked for, its data (and any key added to
  // it) lives in a temporary folder and in memory, gone when it stops.
  const asked = askedDataDir(values['data-dir'])
  const temporary = values.demo && asked === undefined ? await temporaryDataDir() : null
  try {
    return await serve(values, port, phoneListen, temporary?.dir ?? resolve(asked ?? defaultDataDir()), temporary !== null)
  } finally {
    await temporary?.remove()
  }
}

async function serve(
  values: { demo?: boolean; 'reset-queue'?: boolean },
  port: number,
  phoneListen: string | undefined,
  dataDir: string,
  temporary: boolean,
): Promise<number> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  if (temporary) console.error(temporaryDataNotice(dataDir))

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
      ...(temporary ? { secretStore: new MemorySecretStore() } : {}),
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
