/**
 * `npm run sandbox -- --port <n> [--fixtures <file>] [--job-delay <ms>]`
 * Starts the emulator on 127.0.0.1 and prints `listening on http://127.0.0.1:<n>/v1`.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { startSandbox } from './index'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      fixtures: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) {
    console.log('usage: npm run sandbox -- [--port <n>] [--fixtures <file.json>]')
    return
  }
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535, got "${values.port}"`)
    process.exit(2)
  }
  let fixtures: unknown
  if (values.fixtures) {
    try {
      fixtures = JSON.parse(readFileSync(values.fixtures, 'utf8'))
    } catch (e) {
      console.error(`could not read fixtures from ${values.fixtures}: ${(e as Error).message}`)
      process.exit(2)
    }
  }
  let sb
  try {
    sb = await startSandbox({ port, fixtures: fixtures as never })
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { issues?: unknown }
    if (err.code === 'EADDRINUSE') console.error(`port ${port} is in use: choose another with --port <n>`)
    else console.error(`could not start the sandbox: ${err.message}`)
    process.exit(1)
  }
  console.log(`listening on ${sb.url}`)
  if (sb.demo) {
    // The emulator's own demo keys: they exist only in this process and only work against it.
    console.log(`demo business key: ${sb.demo.businessKey}`)
    console.log(`demo business public key: ${sb.demo.businessPublicKey}`)
    console.log(`demo partner key: ${sb.demo.partnerKey}`)
  }
  const stop = () => {
    void sb.stop().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

void main()
